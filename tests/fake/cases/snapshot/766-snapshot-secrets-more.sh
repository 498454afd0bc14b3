# Three ways a secret reached the tar (an audit found them): the boot entries of an ESP
# mounted at /efi (read by the ACS check like /boot's, never redacted); a module
# parameter named as a secret (MODULE.password= cut from /proc/cmdline, but the module's
# sysfs parameter holds the value it took); a link into a home directory or /root (the
# never list named neither). Each is cut or refused now, and named in the manifest.
. "$HERE/lib-snapshot.sh"

# take: snapshot $R and unpack it into $T/x
take() {
	hp snapshot -o "$T/s.tar.zst"
	expect_rc 0
	snap_extract "$T/s.tar.zst" "$T/x"
}

# 1. /efi/loader/entries: the credential is REDACTED, the rest kept, the cut named
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/efi/loader/entries"
printf 'title x\nlinux /vmlinuz\noptions root=/dev/sda rd.iscsi.password=SECRET-EFI quiet\n' \
	>"$R/efi/loader/entries/b.conf"
hp acs cmdline --install
expect_rc 0
take
[ -f "$T/x/efi/loader/entries/b.conf" ] || fail "efi: the entry was not captured"
expect_grep "$T/x/efi/loader/entries/b.conf" '^options root=/dev/sda rd\.iscsi\.password=REDACTED quiet' \
	"efi: the options line is not kept with the secret cut"
expect_grep "$T/x/hostprep-snapshot.txt" '^redacted .*efi/loader/entries/b\.conf' "efi: the cut is not named"

# 2. a module parameter named as a secret: its value is cut, one that is not is kept
newroot erdma-std
useconf kmod-erdma
printf '%s erdma.password=SECRET-MOD\n' "$(cat "$R/proc/cmdline")" >"$R/proc/cmdline"
echo SECRET-MOD >"$R/sys/module/erdma/parameters/password"
echo SECRET-NOT >"$R/sys/module/erdma/parameters/passwordless"
take
[ "$(cat "$T/x/sys/module/erdma/parameters/password")" = REDACTED ] ||
	fail "module parameter: password is '$(cat "$T/x/sys/module/erdma/parameters/password")'"
[ "$(cat "$T/x/sys/module/erdma/parameters/passwordless")" = SECRET-NOT ] ||
	fail "module parameter: a parameter that is no secret was cut"
expect_grep "$T/x/hostprep-snapshot.txt" '^redacted .*sys/module/erdma/parameters/password.*module parameter password' \
	"module parameter: the cut is not named"
grep -rqa SECRET-MOD "$T/x" && fail "module parameter: SECRET-MOD is in the tar"

# 3. links into a home, /root, a user's runtime directory: refused like /etc/shadow
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/etc/modprobe.d" "$R/home/u/.ssh" "$R/root" "$R/run/user/1000"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-HOME\n' >"$R/home/u/.ssh/id_rsa"
echo "options foo bar=SECRET-ROOT" >"$R/root/mp.conf"
echo "options foo bar=SECRET-RUNUSER" >"$R/run/user/1000/x.conf"
ln -s /home/u/.ssh/id_rsa "$R/etc/modprobe.d/b.conf"
ln -s ../../root/mp.conf "$R/etc/modprobe.d/c.conf"
ln -s /run/user/1000/x.conf "$R/etc/modprobe.d/d.conf"
take
grep -rqaE 'SECRET-(HOME|ROOT|RUNUSER)' "$T/x" && fail "a file from a home, /root or /run/user is in the tar"
expect_grep "$T/x/hostprep-snapshot.txt" '^skipped .*home/u/\.ssh/id_rsa' "home: the refusal is not named"
