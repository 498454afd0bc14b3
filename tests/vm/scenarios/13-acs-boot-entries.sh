# `acs cmdline --install` on the boot paths other than Debian's GRUB drop-in (issue 29 §4),
# proved by the kernel: boot 1 makes the guest a RHEL-style GRUB + BLS host (/boot/grub2,
# an entry for the running kernel in /boot/loader/entries) and installs; boot 2 runs with
# the kernel command line that entry gives (GRUB's blscfg reads its options line as script
# text: the quotes go), and the kernel applies the policy (setpci 0x0011) and acs.cmdline
# passes. Boot 2 then uninstalls and makes it a kernel-install / UKI host
# (/etc/kernel/cmdline, no grub2) and installs again; boot 3 runs with /etc/kernel/cmdline
# verbatim (what kernel-install builds a UKI or entry with): applied again, acs.cmdline
# passes, and --uninstall restores the file. Each next line reaches the harness as
# SHARE/cmdline.bootN (run.sh). Three boots in one scenario: one boot less than two
# scenarios.
REBOOTS=2
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[ACS:nics]
Select=0000:00:02.0 0000:00:03.0'

S=/mnt/vmtest
ENTRY=/boot/loader/entries/vmtest-linux.conf

# the running line without its trailing blanks (the harness's -append may end in one)
running_line() { sed 's/[[:space:]]*$//' /proc/cmdline; }

# boot_applied N: the kernel took the line the harness was handed, and applied it
boot_applied() {
	assert_eq "$(running_line)" "$(sed 's/[[:space:]]*$//' "$S/cmdline.boot$1")" "boot $1: the kernel runs the line the boot path gives"
	assert_acs 0000:00:02.0 0011 "boot $1: setpci: the kernel applied the argument to 00:02.0"
	assert_acs 0000:00:03.0 0011 "boot $1: setpci: and to 00:03.0"
	assert_rc 0 "boot $1: hostprep check --json" hostprep check --json
	local js=$OUT
	assert_eq "$(hp_verdict "$js" acs.cmdline host)" pass "boot $1: acs.cmdline: the argument is in effect"
	assert_eq "$(hp_verdict "$js" acs 0000:00:02.0)" pass "boot $1: acs 00:02.0"
}

guest_check() {
	assert_acs 0000:00:02.0 001d "boot 1: setpci: the kernel's own ACSCtl before any argument"
	running_line >"$S/base-cmdline"
	mkdir -p /boot/grub2 /boot/loader/entries
	printf '%s\n' "title Debian GNU/Linux ($(uname -r))" "version $(uname -r)" \
		"linux /vmlinuz-$(uname -r)" "initrd /initramfs-$(uname -r).img" \
		"options $(running_line)" >"$ENTRY"
	assert_rc 0 "boot 1: hostprep acs cmdline --install (GRUB + BLS)" hostprep -v acs cmdline --install
	assert_match "$OUT" 'GRUB with BLS entries' "boot 1: the BLS path detected"
	local opts
	opts=$(sed -n 's/^options[[:space:]]*//p' "$ENTRY")
	assert_match "$opts" 'pci=disable_acs_redir="0000:00:02\.0;0000:00:03\.0"$' "boot 1: the entry's options line ends with GRUB's quoted argument"
	# blscfg: the options line is GRUB script text; its words, unquoted, are the kernel's
	printf '%s\n' "$opts" | xargs printf '%s ' | sed 's/ $//' >"$S/cmdline.boot2"
	sync
}

guest_check_boot2() {
	boot_applied 2
	assert_eq "$(hp_verdict "$OUT" acs.boot /boot/loader/entries)" pass "boot 2: acs.boot: the entry still carries it"
	assert_rc 0 "boot 2: hostprep acs cmdline --uninstall" hostprep acs cmdline --uninstall
	assert_no_match "$(cat "$ENTRY")" 'disable_acs_redir' "boot 2: the entry restored"
	# now a kernel-install host: /etc/kernel/cmdline, no GRUB
	rm -r /boot/grub2 /boot/loader
	mkdir -p /etc/kernel
	cp "$S/base-cmdline" /etc/kernel/cmdline
	assert_rc 0 "boot 2: hostprep acs cmdline --install (kernel-install)" hostprep -v acs cmdline --install
	assert_match "$OUT" 'kernel-install \(/etc/kernel/cmdline, unquoted\)' "boot 2: the kernel-install path detected"
	assert_eq "$(cat /etc/kernel/cmdline)" "$(cat "$S/base-cmdline") pci=disable_acs_redir=0000:00:02.0;0000:00:03.0" \
		"boot 2: /etc/kernel/cmdline gets the unquoted argument"
	# a UKI's command line is this file's, verbatim
	cp /etc/kernel/cmdline "$S/cmdline.boot3"
	sync
}

guest_check_boot3() {
	boot_applied 3
	assert_eq "$(hp_verdict "$OUT" acs.boot /etc/kernel/cmdline)" pass "boot 3: acs.boot: /etc/kernel/cmdline carries it"
	assert_rc 0 "boot 3: hostprep acs cmdline --uninstall" hostprep acs cmdline --uninstall
	assert_eq "$(cat /etc/kernel/cmdline)" "$(cat "$S/base-cmdline")" "boot 3: /etc/kernel/cmdline restored"
}
