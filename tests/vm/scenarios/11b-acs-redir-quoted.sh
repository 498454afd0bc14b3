# The same argument as a boot loader that passes the line verbatim hands it over
# (systemd-boot, a UKI) when it was written with GRUB's quotes: the kernel keeps
# quotes that open neither the word nor the value, cannot parse the device, and
# applies nothing (oracle: setpci still shows the kernel's 0x001d). hostprep must
# not call the argument present: acs.cmdline names the quotes, the host is not
# ready (a declared rule in /etc), and nothing is written (Apply=no).
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
KERNEL_ARGS='pci=disable_acs_redir="0000:00:02.0;0000:00:03.0"'
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[ACS:nics]
Select=0000:00:02.0 0000:00:03.0'

guest_check() {
	assert_booted_service
	assert_match "$(cat /proc/cmdline)" 'disable_acs_redir="0000' "the quotes reached /proc/cmdline"
	assert_acs 0000:00:02.0 001d "setpci: the kernel did not apply the quoted argument"
	assert_acs 0000:00:03.0 001d "setpci: nor for 00:03.0"
	assert_rc 1 "hostprep check --json: not ready" hostprep check --json
	local js=$OUT
	assert_eq "$(hp_verdict "$js" acs 0000:00:02.0)" fail "acs 00:02.0"
	assert_eq "$(hp_verdict "$js" acs.cmdline host)" warn "acs.cmdline: not in effect"
	assert_match "$(json_result "$js" acs.cmdline host actual)" 'quote' "acs.cmdline says the quotes are the problem"
}
