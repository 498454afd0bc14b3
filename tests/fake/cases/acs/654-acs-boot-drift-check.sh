# A check while `acs cmdline --install` has BLS or kernel-install files recorded judges
# every entry again with the parser of the install (issue 29 §1): a new kernel's entry
# made without the argument (grubby copies the default's options, kernel-install
# /etc/kernel/cmdline) and an entry edited since are fails naming the entry; with
# nothing recorded, no acs.boot result at all.
boot_results() { jqo '[.results[] | select(.check=="acs.boot") | .verdict + " " + .object + ": " + .actual] | .[]'; }
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/boot/grub2" "$R/boot/loader/entries"
printf '%s\n' 'title Rocky (6.12.30)' 'linux /vmlinuz-6.12.30' 'options root=/dev/sda1 ro' \
	>"$R/boot/loader/entries/aa-6.12.30.conf"
hp --json check
[ -z "$(boot_results)" ] || fail "nothing installed, yet acs.boot results: $(boot_results)"
hp acs cmdline --install
expect_rc 0
hp --json check
[ "$(boot_results)" = "pass /boot/loader/entries: all 1 entries give the kernel hostprep's argument" ] ||
	fail "after install: $(boot_results)"
# a new kernel's entry without the argument
printf '%s\n' 'title Rocky (6.12.40)' 'linux /vmlinuz-6.12.40' 'options root=/dev/sda1 ro' \
	>"$R/boot/loader/entries/ab-6.12.40.conf"
hp --json check
[ "$(boot_results)" = "fail /boot/loader/entries: /boot/loader/entries/ab-6.12.40.conf: lacks hostprep's argument (1 of 2 entries carry it)" ] ||
	fail "new kernel entry: $(boot_results)"
hp acs cmdline --install
hp --json check
[ "$(boot_results)" = "pass /boot/loader/entries: all 2 entries give the kernel hostprep's argument" ] ||
	fail "after the second install: $(boot_results)"
# an entry edited since: its config_acs= replaced by another value
sed -i 's/config_acs="[^"]*"/config_acs=xx000x0@0000:15:01.0/' "$R/boot/loader/entries/aa-6.12.30.conf"
hp --json check
boot_results | grep -qx "fail /boot/loader/entries: /boot/loader/entries/aa-6.12.30.conf: the kernel keeps pci=config_acs=xx000x0@0000:15:01.0, not hostprep's argument (1 of 2 entries carry it)" ||
	fail "edited entry: $(boot_results)"

# kernel-install: /etc/kernel/cmdline lost the argument (a new kernel's entry would too)
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/efi/loader/entries" "$R/etc/kernel"
printf '%s\n' 'title Debian' 'linux /vmlinuz-6.12.30' 'options root=/dev/sda1 ro' \
	>"$R/efi/loader/entries/d-6.12.30.conf"
echo 'root=/dev/sda1 ro' >"$R/etc/kernel/cmdline"
hp acs cmdline --install
expect_rc 0
echo 'root=/dev/sda1 ro quiet' >"$R/etc/kernel/cmdline"
printf '%s\n' 'title Debian' 'linux /vmlinuz-6.12.40' 'options root=/dev/sda1 ro quiet' \
	>"$R/efi/loader/entries/d-6.12.40.conf"
hp --json check
boot_results | grep -qx "fail /efi/loader/entries: /efi/loader/entries/d-6.12.40.conf: lacks hostprep's argument (1 of 2 entries carry it)" ||
	fail "kernel-install, new entry: $(boot_results)"
boot_results | grep -qx "fail /etc/kernel/cmdline: /etc/kernel/cmdline: lacks hostprep's argument (0 of 1 entries carry it)" ||
	fail "kernel-install, /etc/kernel/cmdline: $(boot_results)"
