# What relaxing ACS does to the IOMMU groups (issue 25 §3), with groups of several members:
# a port whose ACS is relaxed merges the groups below it. apply --dry-run and the acs
# result name them, each group once, only when two or more become one; a function without
# a group counts for none. Under a translating IOMMU (DMA or DMA-FQ groups below a selected
# port) a warning next to the acs results says GPUDirect RDMA does not work there.
iommu_note() { jqo '[.results[] | select(.check=="acs.iommu") | .verdict + "|" + .actual] | join(";")'; }
# regroup BDF GROUP: move a function into another (existing) IOMMU group, as the kernel
# shows a group of several members (tree only: hostprep writes nothing here)
regroup() {
	local dev old
	dev=$(readlink -f "$R/sys/bus/pci/devices/$1")
	old=$(basename "$(readlink "$dev/iommu_group")")
	mv "$R/sys/kernel/iommu_groups/$old/devices/$1" "$R/sys/kernel/iommu_groups/$2/devices/$1"
	ln -sfn "../../../../../../kernel/iommu_groups/$2" "$dev/iommu_group"
}
newroot dgx8
useconf gpu-p2p
hp apply --dry-run
expect_rc 0
expect_grep out '^    IOMMU groups 5, 6, 7, 8, 9, 10, 11 below become one$'
# one group below a downstream port: nothing merges, no line
[ "$(grep -c 'below become one' "$T/out")" = 4 ] || fail "merge lines: $(grep -c 'below become one' "$T/out"), want 4 (the root ports)"
# GPU 19:00.0 joins 18:00.0's group 7 (a group of two members): counted once
regroup 0000:19:00.0 7
hp apply --dry-run
expect_grep out '^    IOMMU groups 5, 6, 7, 8, 10, 11 below become one$'
hp --json apply --dry-run
[ "$(jqo '.plan.ports[] | select(.address=="0000:17:01.0") | .iommu_groups_merged | length')" = 0 ] ||
	fail "17:01.0 (one group of two below it) merges: $(jqo '.plan.ports[] | select(.address=="0000:17:01.0")')"
# the downstream ports join too: 16:00.0, 17:00.0, 17:01.0, 17:02.0 into 7 -> 7 and 11 left
for b in 0000:16:00.0 0000:17:00.0 0000:17:01.0 0000:17:02.0; do regroup $b 7; done
hp apply --dry-run
expect_grep out '^    IOMMU groups 7, 11 below become one$'
# the NIC's link gone (no group): only group 7 below -> no merge line for 15:01.0
rm "$(readlink -f "$R/sys/bus/pci/devices/0000:1a:00.0")/iommu_group"
hp apply --dry-run
expect_no_grep out 'groups 7.* below become one' "one group left below 15:01.0 and still a merge"
# the acs result of check says it too, as what the write would do
newroot dgx8
useconf gpu-p2p
hp --json check
[ "$(jqo '.results[] | select(.check=="acs" and .object=="0000:97:01.0") | .actual')" = "0x001d (SV,RR,CR,UF); IOMMU groups 23, 24, 25, 26, 27, 28, 29 below would become one" ] ||
	fail "check, 97:01.0: $(jqo '.results[] | select(.check=="acs" and .object=="0000:97:01.0") | .actual')"
[ "$(jqo '.results[] | select(.check=="acs" and .object=="0000:99:00.0") | .actual')" = "0x001d (SV,RR,CR,UF)" ] ||
	fail "check, 99:00.0 (one group below): $(jqo '.results[] | select(.check=="acs" and .object=="0000:99:00.0") | .actual')"

# translating IOMMU: dgx8's groups are DMA -> one warning next to the acs results
V=$(iommu_note)
[ "$V" = "warn|translated (DMA or DMA-FQ IOMMU groups) below 12 selected ports (first 0000:15:01.0): GPUDirect RDMA peer-to-peer does not work there" ] ||
	fail "dgx8 (DMA): acs.iommu: $V"
expect_rc 1 # the ports are not relaxed yet; the note itself is a warning
# every group identity: no note
for t in "$R"/sys/kernel/iommu_groups/*/type; do echo identity >"$t"; done
hp --json check
[ -z "$(iommu_note)" ] || fail "identity groups: acs.iommu: $(iommu_note)"
# one GPU's group DMA-FQ: the two ports above it
group_of() { basename "$(readlink "$R/sys/bus/pci/devices/$1/iommu_group")"; }
echo DMA-FQ >"$R/sys/kernel/iommu_groups/$(group_of 0000:ba:00.0)/type"
hp --json check
[ "$(iommu_note)" = "warn|translated (DMA or DMA-FQ IOMMU groups) below 2 selected ports (first 0000:b7:01.0): GPUDirect RDMA peer-to-peer does not work there" ] ||
	fail "one GPU's group DMA-FQ: acs.iommu: $(iommu_note)"
# unmanaged (VFIO) or blocked is not translation by the host's DMA API
echo unmanaged >"$R/sys/kernel/iommu_groups/$(group_of 0000:ba:00.0)/type"
hp --json check
[ -z "$(iommu_note)" ] || fail "unmanaged group: acs.iommu: $(iommu_note)"
# a translated group that is below no selected port: no note (the NVMe 01:00.0)
echo DMA >"$R/sys/kernel/iommu_groups/$(group_of 0000:01:00.0)/type"
hp --json check
[ -z "$(iommu_note)" ] || fail "a DMA group below no selected port: acs.iommu: $(iommu_note)"
# no IOMMU at all (l40-amd is identity; without groups nothing is said)
newroot l40-amd
printf '[ACS:gpu]\nSelect=upstream:10de:*\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ -z "$(iommu_note)" ] || fail "l40-amd (identity): acs.iommu: $(iommu_note)"
