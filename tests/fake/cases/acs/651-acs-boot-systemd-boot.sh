# acs cmdline --install on a systemd-boot / kernel-install host (issue 29 §1): the ESP
# at /efi with type-1 entries, no GRUB. systemd-boot hands the options line to the
# kernel as it is, so the argument goes there unquoted (the kernel's parser would keep
# the quotes inside config_acs=); /etc/kernel/cmdline, absent, is made from what
# kernel-install would take (/proc/cmdline without BOOT_IMAGE= and initrd=) plus the
# argument; a UKI keeps the command line it was built with: a warn with the rebuild.
# --uninstall removes what was absent and restores the entries byte for byte.
fresh() {
	newroot dgx8
	useconf gpu-p2p
	ref_private
	for d in "$R" "$REF"; do
		echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"
		printf 'BOOT_IMAGE=/vmlinuz root=UUID=1 ro initrd=\\initrd.img quiet\n' >"$d/proc/cmdline"
		mkdir -p "$d/efi/loader/entries" "$d/etc/kernel"
		printf '%s\n' 'title Debian' 'linux /abc/6.12.30/linux' \
			'options root=UUID=1 ro quiet pci=config_acs="1@0000:15:01.0"' >"$d/efi/loader/entries/abc-6.12.30.conf"
		printf '%s\n' 'title Debian (old)' 'linux /abc/6.12.29/linux' 'options root=UUID=1 ro' \
			'options systemd.unit=rescue.target' >"$d/efi/loader/entries/abc-6.12.29.conf"
	done
}
fresh
hp acs cmdline
arg=$(cat "$T/out")
karg=$(printf '%s' "$arg" | tr -d '"')
hp -v acs cmdline --install
expect_rc 0
expect_grep out '^PASS +acs\.boot +boot path .*systemd-boot / kernel-install \(/etc/kernel/cmdline, unquoted\)$'
expect_grep out '^PASS +acs\.boot +/efi/loader/entries/abc-6\.12\.30\.conf .*written, read back$'
expect_grep out '^PASS +acs\.boot +/etc/kernel/cmdline .*written, read back$'
expect_grep out "^PASS +acs\.boot +/efi/loader/entries +every entry .* all 2 entries give the kernel hostprep's argument$"
expect_grep out "^PASS +acs\.boot +/etc/kernel/cmdline +every entry .* all 1 entries"
expect_no_grep out 'acs\.grub'
expect_no_grep out 'unified kernel'
printf '%s\n' 'title Debian' 'linux /abc/6.12.30/linux' "options root=UUID=1 ro quiet $karg" >"$T/want"
cmp -s "$T/want" "$R/efi/loader/entries/abc-6.12.30.conf" || fail "entry: $(cat "$R/efi/loader/entries/abc-6.12.30.conf")"
printf '%s\n' 'title Debian (old)' 'linux /abc/6.12.29/linux' 'options root=UUID=1 ro' \
	"options systemd.unit=rescue.target $karg" >"$T/want"
cmp -s "$T/want" "$R/efi/loader/entries/abc-6.12.29.conf" || fail "entry with two options lines: $(cat "$R/efi/loader/entries/abc-6.12.29.conf")"
printf 'root=UUID=1 ro quiet %s\n' "$karg" >"$T/want"
cmp -s "$T/want" "$R/etc/kernel/cmdline" || fail "/etc/kernel/cmdline: $(cat "$R/etc/kernel/cmdline")"
hp -v acs cmdline --uninstall
expect_rc 0
expect_grep out '^PASS +acs\.revert +/etc/kernel/cmdline +as before hostprep +removed'
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# UKIs carry their own command line: a warn naming the rebuild, the rest written
fresh
mkdir -p "$R/efi/EFI/Linux"
: >"$R/efi/EFI/Linux/abc-6.12.30.efi"
hp -v acs cmdline --install
expect_grep out '^WARN +acs\.boot +unified kernel images .*1 unified kernel image in EFI/Linux carries the command line it was built with'
expect_grep out 'kernel-install add \$\(uname -r\)'
expect_grep out '^PASS +acs\.boot +/etc/kernel/cmdline .*written, read back$'

# the ESP at /boot with systemd-boot (loader.conf), an existing /etc/kernel/cmdline with
# an older value: replaced, not added
fresh
mkdir -p "$R/boot/loader/entries"
mv "$R/efi/loader/entries/"* "$R/boot/loader/entries/"
rm -r "$R/efi"
echo 'timeout 3' >"$R/boot/loader/loader.conf"
printf 'root=UUID=1 ro pci=config_acs=1@0000:15:01.0\n' >"$R/etc/kernel/cmdline"
hp -v acs cmdline --install
expect_rc 0
expect_grep out "^PASS +acs\.boot +/boot/loader/entries +every entry .* all 2 entries"
printf 'root=UUID=1 ro %s\n' "$karg" >"$T/want"
cmp -s "$T/want" "$R/etc/kernel/cmdline" || fail "/etc/kernel/cmdline replaced: $(cat "$R/etc/kernel/cmdline")"
# the same /boot/loader/entries without any sign of systemd-boot: nobody's, not written
fresh
mkdir -p "$R/boot/loader/entries"
mv "$R/efi/loader/entries/"* "$R/boot/loader/entries/"
rm -r "$R/efi"
hp -v acs cmdline --install
expect_rc 1
expect_grep out "^FAIL +acs\.grub .*not written: no /etc/default/grub"
