# dracut's configuration is bash whose kernel_cmdline= holds kernel parameters, and a
# snapshot captures it (/etc/dracut.conf: kmod's OFED remedy looks for it;
# /etc/dracut.conf.d: the [Module] Persist= initramfs note): its credentials were stored
# verbatim (an audit found it). Both are read as shell now, the secret REDACTED inside its
# "..." or '...' string (whose quotes stay), and named.
. "$HERE/lib-snapshot.sh"

# 1. /etc/dracut.conf
newroot ofed-inbox
useconf kmod-ofed
printf '%s\n' 'hostonly="yes"' 'kernel_cmdline="rd.iscsi.password=SECRET-CONF ip=dhcp"' \
	>"$R/etc/dracut.conf"
hp snapshot -o "$T/a.tar.zst"
expect_rc 0
snap_extract "$T/a.tar.zst" "$T/a"
[ -f "$T/a/etc/dracut.conf" ] || fail "conf: /etc/dracut.conf was not captured"
grep -rqa SECRET "$T/a" && fail "conf: a secret is in the tar"
expect_grep "$T/a/etc/dracut.conf" '^kernel_cmdline="rd\.iscsi\.password=REDACTED ip=dhcp"$' \
	"conf: the line is not kept with the secret cut: $(cat "$T/a/etc/dracut.conf")"
expect_grep "$T/a/hostprep-snapshot.txt" '^redacted etc/dracut\.conf:2: the value of rd\.iscsi\.password=' \
	"conf: the cut is not named"

# 2. /etc/dracut.conf.d, listed by the persist note after an apply
newroot erdma-std
useconf kmod-persist-two
mkdir -p "$R/etc/dracut.conf.d"
echo "kernel_cmdline='rd.iscsi.password=SECRET-D ip=dhcp'" >"$R/etc/dracut.conf.d/10-net.conf"
echo 'add_drivers+=" erdma "' >"$R/etc/dracut.conf.d/50-erdma.conf"
hp apply
hp snapshot -o "$T/b.tar.zst"
expect_rc 0
snap_extract "$T/b.tar.zst" "$T/b"
[ -f "$T/b/etc/dracut.conf.d/10-net.conf" ] || fail "conf.d: 10-net.conf was not captured"
grep -rqa SECRET "$T/b" && fail "conf.d: a secret is in the tar"
expect_grep "$T/b/etc/dracut.conf.d/10-net.conf" "^kernel_cmdline='rd\.iscsi\.password=REDACTED ip=dhcp'\$" \
	"conf.d: the line is not kept with the secret cut: $(cat "$T/b/etc/dracut.conf.d/10-net.conf")"
cmp -s "$R/etc/dracut.conf.d/50-erdma.conf" "$T/b/etc/dracut.conf.d/50-erdma.conf" ||
	fail "conf.d: a file without a secret was changed"
