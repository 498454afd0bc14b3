# A quote in a GRUB comment ("# Don't ask for a password") opened a '...' word in the
# snapshot's GRUB lexer that swallowed the rest of grub.cfg: the password_pbkdf2 hash after
# it was stored verbatim (an audit found it). A comment ends at its newline now: the hash
# is REDACTED and named, the comment kept byte for byte (345 takes the plain forms).
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub"
echo 'GRUB_CMDLINE_LINUX="quiet"' >"$R/etc/default/grub"
hp acs cmdline --install
expect_rc 0
printf '%s\n' '### BEGIN /etc/grub.d/40_custom ###' \
	"# Don't ask for a password to boot, only to edit entries" \
	'set superusers="admin"' \
	'password_pbkdf2 admin grub.pbkdf2.sha512.10000.SECRET-GRUB-HASH' \
	'# a "quote and a continuation \' \
	'  password admin SECRET-PLAIN' \
	'### END /etc/grub.d/40_custom ###' \
	"menuentry 'Debian' {" '	linux /boot/vmlinuz-6.1.0-27-amd64 root=UUID=1 ro quiet' '}' \
	>"$R/boot/grub/grub.cfg"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
cfg=$T/x/boot/grub/grub.cfg
[ -f "$cfg" ] || fail "grub.cfg, read by the check, is not in the tar"
grep -rqa SECRET "$T/x" && fail "a password is in the tar: $(grep -rla SECRET "$T/x" | head -3)"
for l in "# Don't ask for a password to boot, only to edit entries" \
	'password_pbkdf2 admin REDACTED' '# a "quote and a continuation \' '  password admin REDACTED'; do
	grep -qxF -- "$l" "$cfg" || fail "grub.cfg lacks '$l': $(cat "$cfg")"
done
expect_grep "$T/x/hostprep-snapshot.txt" '^redacted boot/grub/grub\.cfg:4: the hash of a password_pbkdf2' \
	"the hash's cut is not named"
expect_grep "$T/x/hostprep-snapshot.txt" '^redacted boot/grub/grub\.cfg:6: the password of a password' \
	"the password's cut is not named"
