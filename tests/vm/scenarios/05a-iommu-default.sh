# IOMMU, Debian's default with intel-iommu: DMA translation (groups DMA or
# DMA-FQ). Expect=passthrough must fail, naming what was seen.
# Oracle: /sys/kernel/iommu_groups/*/type.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[IOMMU]
Expect=passthrough'

guest_check() {
	local types
	types=$(iommu_group_types)
	assert_match "$types" '^(DMA|DMA-FQ)( DMA-FQ)?$' "oracle: IOMMU groups are DMA/DMA-FQ"
	iommu_expect_check fail "$types"
}
