# A host with two boot paths (issue 29 §1): GRUB with BLS entries in /boot and
# systemd-boot's entries in the ESP at /boot/efi. Either may be the next boot's, so
# both are written, each in its reader's form (GRUB's script text keeps the quotes it
# removes; systemd-boot's line goes to the kernel unquoted), and both named. Leftover
# arguments go: an old pci=disable_acs_redir= in one entry, an older
# pci=config_acs= in the ESP's; and revert puts back every file byte for byte.
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do
	echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"
	mkdir -p "$d/boot/grub2" "$d/boot/loader/entries" "$d/boot/efi/loader/entries"
	printf 'title Fedora\nlinux /vmlinuz\noptions root=UUID=1 ro pci=disable_acs_redir=0000:15:01.0 rhgb\n' \
		>"$d/boot/loader/entries/f.conf"
	printf 'title ESP\nlinux /vmlinuz\noptions root=UUID=1 ro pci=config_acs=1@0000:15:01.0 quiet\n' \
		>"$d/boot/efi/loader/entries/e.conf"
done
hp acs cmdline
arg=$(cat "$T/out")
karg=$(printf '%s' "$arg" | tr -d '"')
hp -v acs cmdline --install
expect_rc 0
expect_grep out '^PASS +acs\.boot +boot path .*GRUB with BLS entries .*; systemd-boot / kernel-install'
expect_grep out "^PASS +acs\.boot +/boot/loader/entries +every entry .* all 1 entries"
expect_grep out "^PASS +acs\.boot +/boot/efi/loader/entries +every entry .* all 1 entries"
expect_grep err 'grubby'
expect_grep err 'kernel-install add'
[ "$(sed -n 3p "$R/boot/loader/entries/f.conf")" = "options root=UUID=1 ro rhgb $arg" ] ||
	fail "GRUB's entry: $(cat "$R/boot/loader/entries/f.conf")"
[ "$(sed -n 3p "$R/boot/efi/loader/entries/e.conf")" = "options root=UUID=1 ro quiet $karg" ] ||
	fail "the ESP's entry: $(cat "$R/boot/efi/loader/entries/e.conf")"
# each form judged by its reader: GRUB's entry given the unquoted form ends at the first
# ';' (GRUB's command separator), so the kernel keeps only the first port: a fail naming it
sed -i "s|$(printf '%s' "$arg" | sed 's/[.[\*^$|]/\\&/g')|$karg|" "$R/boot/loader/entries/f.conf"
hp -v acs cmdline --install
expect_rc 1
expect_grep out '^FAIL +acs\.boot +/boot/loader/entries/f\.conf .*not written: changed since hostprep wrote it'
expect_grep out "^FAIL +acs\.boot +/boot/loader/entries .*/boot/loader/entries/f\.conf: the kernel keeps pci=config_acs=x0x00xx@0000:15:01\.0, not hostprep's argument \(0 of 1 entries carry it\)"
# /etc/kernel/cmdline is kernel-install's, in its form, whatever GRUB's path says
expect_grep out '^PASS +acs\.boot +/etc/kernel/cmdline .*already up to date$'
# put back what hostprep wrote, then revert: both entries as before, the new
# /etc/kernel/cmdline gone
printf 'title Fedora\nlinux /vmlinuz\noptions root=UUID=1 ro rhgb %s\n' "$arg" >"$R/boot/loader/entries/f.conf"
hp -v revert
expect_rc 0
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT
