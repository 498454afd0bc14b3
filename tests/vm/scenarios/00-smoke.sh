# Smoke test of the harness itself (needs no hostprep): the guest boots
# Debian's kernel under systemd with intel-iommu, and the kernel has set
# ACSCtl of a pcie-root-port to 0x001d (SV,RR,CR,UF).
NEEDS_HOSTPREP=0
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"

guest_check() {
	run_cmd uname -r
	assert_eq "$(acs_cap 00:02.0)" 005f "ACS capability of the QEMU root port"
	assert_acs 0000:00:02.0 001d "kernel set ACSCtl with intel-iommu"
	assert_match "$(ls /sys/class/iommu)" dmar "intel-iommu active"
	assert_match "$(ip -o link)" "en|eth" "NIC driver loaded by udev"
}
