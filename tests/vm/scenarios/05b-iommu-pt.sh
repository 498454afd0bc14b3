# IOMMU with iommu=pt: identity domains. Expect=passthrough passes.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"
KERNEL_ARGS="iommu=pt"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[IOMMU]
Expect=passthrough'

guest_check() {
	local types
	types=$(iommu_group_types)
	assert_eq "$types" identity "oracle: IOMMU groups are identity"
	iommu_expect_check pass "$types"
}
