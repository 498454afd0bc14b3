# The groups are the evidence, not the command line.
iommu_verdict() { jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")'; }
set_all() { # FILE-GLOB-UNDER-ROOT CONTENT: in both the tree and the reference
	local d f
	for d in "$R" "$REF"; do
		for f in "$d"/$1; do printf '%s\n' "$2" >"$f"; done
	done
}
# Expect=translated: dgx8 (DMA) passes, l40-amd (identity) fails
newroot dgx8
useconf iommu-translated
hp --json check
[ "$(iommu_verdict)" = pass ] || fail "dgx8 Expect=translated: $(iommu_verdict)"
newroot l40-amd
useconf iommu-translated
hp --json check
[ "$(iommu_verdict)" = fail ] || fail "l40-amd Expect=translated: $(iommu_verdict)"
# DMA-FQ (Debian's lazy default) is translated too
newroot dgx8
useconf iommu-translated
set_all 'sys/kernel/iommu_groups/*/type' DMA-FQ
hp --json check
[ "$(iommu_verdict)" = pass ] || fail "DMA-FQ groups, Expect=translated: $(iommu_verdict)"
# iommu=pt on the command line but the groups say DMA: passthrough is NOT met
newroot dgx8
useconf iommu-pt
set_all proc/cmdline "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=2f1e0d3c ro iommu=pt quiet"
hp --json check
[ "$(iommu_verdict)" = fail ] || fail "iommu=pt given but groups DMA, Expect=passthrough: $(iommu_verdict)"
# mixed: one group identity, the rest DMA -> neither passthrough nor translated holds
newroot dgx8
useconf iommu-pt
set_all 'sys/kernel/iommu_groups/7/type' identity
hp --json check
[ "$(iommu_verdict)" = fail ] || fail "mixed groups, Expect=passthrough: $(iommu_verdict)"
expect_grep out 'mixed|identity' "mixed groups are not described"
useconf iommu-translated
hp --json check
[ "$(iommu_verdict)" = fail ] || fail "mixed groups, Expect=translated: $(iommu_verdict)"
# intel_iommu=off: no units, no groups -> off
newroot vm-noacs
useconf iommu-off
set_all proc/cmdline "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=/dev/vda1 ro intel_iommu=off"
hp --json check
[ "$(iommu_verdict)" = pass ] || fail "intel_iommu=off, no IOMMU, Expect=off: $(iommu_verdict)"
# Expect=any never fails, and never passes: nothing was checked (skip)
newroot l40-amd
hp --json check
[ "$(iommu_verdict)" = skip ] || [ -z "$(iommu_verdict)" ] || fail "no config (Expect=any) checks nothing, skip: $(iommu_verdict)"
