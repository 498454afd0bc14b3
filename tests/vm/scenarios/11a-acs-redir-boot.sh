# The boot-time form on Debian's 6.1 kernel (issue 6 items 9, 17): 6.1 has no
# pci=config_acs= but has pci=disable_acs_redir= (clears RR|CR|EC = x0x00xx).
# Booted with it for both root ports (as GRUB hands it over: no quotes), the
# kernel clears the bits itself (oracle: setpci); hostprep, which writes nothing
# here (Apply=no), sees a host that is ready and says the argument is in effect,
# and `acs cmdline` offers exactly that form, never config_acs.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
KERNEL_ARGS="pci=disable_acs_redir=0000:00:02.0;0000:00:03.0"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[ACS:nics]
Select=0000:00:02.0 0000:00:03.0'

guest_check() {
	assert_booted_service
	assert_acs 0000:00:02.0 0011 "setpci: the kernel applied disable_acs_redir to 00:02.0"
	assert_acs 0000:00:03.0 0011 "setpci: the kernel applied disable_acs_redir to 00:03.0"
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	assert_rc 0 "hostprep check --json" hostprep check --json
	local js=$OUT
	assert_eq "$(hp_verdict "$js" acs 0000:00:02.0)" pass "acs 00:02.0"
	assert_eq "$(hp_verdict "$js" acs 0000:00:03.0)" pass "acs 00:03.0"
	assert_eq "$(hp_verdict "$js" acs.cmdline host)" pass "acs.cmdline: the argument is in effect"
	assert_rc 0 "hostprep acs cmdline" hostprep acs cmdline
	assert_match "$OUT" '^pci=disable_acs_redir="0000:00:02\.0;0000:00:03\.0"$' "acs cmdline offers disable_acs_redir"
	assert_no_match "$OUT" 'config_acs' "acs cmdline never offers config_acs on 6.1"
}
