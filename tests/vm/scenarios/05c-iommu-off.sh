# IOMMU hardware present but intel_iommu=off: no IOMMU. Expect=passthrough fails.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"
KERNEL_ARGS="intel_iommu=off"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[IOMMU]
Expect=passthrough'

guest_check() {
	assert_eq "$(ls /sys/kernel/iommu_groups | wc -l)" 0 "oracle: no IOMMU groups"
	assert_eq "$(ls /sys/class/iommu | wc -l)" 0 "oracle: no IOMMU unit"
	assert_acs 0000:00:02.0 0000 "oracle: without an IOMMU the kernel leaves ACS off"
	iommu_expect_check fail off
}
