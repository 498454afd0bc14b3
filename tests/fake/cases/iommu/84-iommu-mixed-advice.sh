# issue 6 item 10: IOMMU "mixed" with iommu=pt already on the command line must not
# advise "add iommu=pt"; it names the translated groups and their devices and gives
# the per-group remedy. All groups "unmanaged": unknown, and the advice says why.
remedy() { jqo '.results[] | select(.check=="iommu.mode") | .remedy // ""' >"$T/remedy"; }
verdict() { jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")'; }
set_all() { # GLOB-UNDER-ROOT CONTENT, in the tree and the reference
	local d f
	for d in "$R" "$REF"; do
		for f in "$d"/$1; do printf '%s\n' "$2" >"$f"; done
	done
}
newroot dgx8
useconf iommu-pt
set_all proc/cmdline "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=2f1e0d3c ro iommu=pt quiet"
set_all 'sys/kernel/iommu_groups/*/type' identity
set_all 'sys/kernel/iommu_groups/7/type' DMA
set_all 'sys/kernel/iommu_groups/12/type' DMA-FQ
dev7=$(basename "$(ls -d "$R"/sys/kernel/iommu_groups/7/devices/*)")
drv7=$(basename "$(readlink "$R/sys/kernel/iommu_groups/7/devices/$dev7/driver")")
hp -v --json check
expect_rc 1
[ "$(verdict)" = fail ] || fail "mixed, Expect=passthrough: verdict $(verdict)"
remedy
expect_no_grep remedy 'add iommu=pt' "advises adding iommu=pt, which is on the command line"
expect_grep remedy 'iommu=pt is already on the kernel command line' "does not say iommu=pt is there"
expect_grep remedy "group 7 \($dev7 $drv7\)" "does not name group 7 and its device ($dev7 $drv7)"
expect_grep remedy "group 12 \(" "does not name group 12"
expect_grep remedy "echo identity > $R/sys/kernel/iommu_groups/7/type" "no per-group remedy"
expect_no_grep remedy 'group [0-9]+ \(0000:00:' "names an identity group"
expect_tree_same
# text output says it too
hp -v check
expect_grep out "group 7 \($dev7 $drv7\)" "text report does not name group 7"
# all groups unmanaged: unknown, not "add iommu=pt"
set_all 'sys/kernel/iommu_groups/*/type' unmanaged
hp -v --json check
expect_rc 1
[ "$(verdict)" = unknown ] || fail "all unmanaged: verdict $(verdict)"
remedy
expect_no_grep remedy 'add iommu' "all unmanaged: advises adding an IOMMU option"
expect_grep remedy "unmanaged.*VFIO" "all unmanaged: advice does not say the groups are owned by VFIO/userspace"
expect_tree_same
