# A boot loader password is a secret: grub.cfg is in a snapshot when the ACS check reads
# it (a recorded GRUB drop-in), and the secret of its password commands (password_pbkdf2
# USER HASH, password USER TEXT) is replaced by REDACTED; every other byte, the kernel
# lines the check compares included, is kept, so the replay gives the same acs.grub
# verdict (450 takes every other place a password can stand).
. "$HERE/lib-snapshot.sh"
grub() { jqo '[.results[] | select(.check=="acs.grub" and (.expected|startswith("grub-mkconfig"))) | .verdict + "|" + .actual] | join(";")'; }
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub"
echo 'GRUB_CMDLINE_LINUX="quiet"' >"$R/etc/default/grub"
hp acs cmdline
arg=$(cat "$T/out")
hp --json acs cmdline --install
expect_rc 0
printf '%s\n' 'set superusers="root"' \
	'password_pbkdf2 root grub.pbkdf2.sha512.10000.SECRETHASH' \
	'  password  admin SECRETPLAIN' 'passwordless_menu=1' \
	"menuentry 'Debian' {" "	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro quiet $arg" "}" \
	>"$R/boot/grub/grub.cfg"
hp --json check
live=$(grub)
case $live in "pass|grub-mkconfig keeps it; all 1 kernel lines in /boot/grub/grub.cfg carry it") ;;
*) fail "live: $live" ;; esac

hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
cfg=$T/x/boot/grub/grub.cfg
[ -f "$cfg" ] || fail "grub.cfg, read by the check, is not in the tar"
if grep -rqa SECRET "$T/x"; then
	fail "a password is in the tar: $(grep -rla SECRET "$T/x" | head -3)"
fi
for l in 'password_pbkdf2 root REDACTED' '  password  admin REDACTED'; do
	grep -qxF "$l" "$cfg" || fail "grub.cfg lacks '$l': $(cat "$cfg")"
done
for l in 'set superusers="root"' 'passwordless_menu=1' "	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro quiet $arg"; do
	grep -qxF "$l" "$cfg" || fail "grub.cfg lost '$l'"
done
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/out" 2>"$T/err"
[ "$(grub)" = "$live" ] || fail "replay: $(grub), live: $live"
