# IOMMU expectation against the fixtures' real state.
# dgx8: intel-iommu on, groups DMA -> Expect=passthrough fails, remedy names iommu=pt
newroot dgx8
useconf iommu-pt
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = fail ] ||
	fail "dgx8 Expect=passthrough: iommu.mode is not fail"
jqo '.results[] | select(.check=="iommu.mode") | .remedy // ""' >"$T/remedy"
expect_grep remedy 'iommu=pt' "dgx8 Expect=passthrough: remedy does not name iommu=pt"
# l40-amd: amd-iommu, iommu=pt, groups identity -> pass
newroot l40-amd
useconf iommu-pt
hp --json check
expect_rc 0
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = pass ] ||
	fail "l40-amd Expect=passthrough: iommu.mode is not pass"
# vm-noacs: no IOMMU -> Expect=off passes, Expect=passthrough fails
newroot vm-noacs
useconf iommu-off
hp --json check
expect_rc 0
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = pass ] ||
	fail "vm-noacs Expect=off: iommu.mode is not pass"
useconf iommu-pt
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = fail ] ||
	fail "vm-noacs Expect=passthrough: iommu.mode is not fail"
# dgx8 with Expect=off: the IOMMU is on -> fail
newroot dgx8
useconf iommu-off
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = fail ] ||
	fail "dgx8 Expect=off: iommu.mode is not fail"
