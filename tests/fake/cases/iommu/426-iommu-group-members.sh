# IOMMU groups with several members (issue 25, an edge left unpinned): the iommu.mode
# verdicts read every member of a group, not its first. A group whose type says nothing
# (unmanaged, blocked) decides the mode when ANY member is a GPU, accelerator or NIC, not
# only its first in address order; the remedy names a group's members, four of them and
# "N more". And with a group of several members below a relaxed port, see 425.
iommu_result() { jqo '.results[] | select(.check=="iommu.mode") | "\(.verdict)|\(.actual)|\(.remedy)"'; }
regroup() { # BDF GROUP
	local dev old
	dev=$(readlink -f "$R/sys/bus/pci/devices/$1")
	old=$(basename "$(readlink "$dev/iommu_group")")
	mv "$R/sys/kernel/iommu_groups/$old/devices/$1" "$R/sys/kernel/iommu_groups/$2/devices/$1"
	ln -sfn "../../../../../../kernel/iommu_groups/$2" "$dev/iommu_group"
}
newroot l40-amd
useconf iommu-pt
hp --json check
case $(iommu_result) in pass\|*) ;; *) fail "l40-amd baseline, Expect=passthrough: $(iommu_result)" ;; esac
# group 2 (root port 00:01.1) unmanaged with three bridges in it first: still nothing that matters
regroup 0000:00:01.0 2
regroup 0000:00:01.2 2
echo unmanaged >"$R/sys/kernel/iommu_groups/2/type"
hp --json check
case $(iommu_result) in pass\|*) ;; *) fail "an unmanaged group of bridges only: $(iommu_result)" ;; esac
# the GPU joins it, fourth in address order: the group matters -> unknown, naming it
regroup 0000:01:00.0 2
hp --json check
expect_rc 1
V=$(iommu_result)
case $V in unknown\|*"group 2 (0000:00:01.0 unbound, 0000:00:01.1 pcieport, 0000:00:01.2 pcieport, 0000:01:00.0 nvidia) unmanaged"*) ;;
*) fail "a GPU fourth in an unmanaged group of four: $V" ;; esac
# the NIC's two functions join too: six members, four named and "2 more"
regroup 0000:02:00.0 2
regroup 0000:02:00.1 2
hp --json check
V=$(iommu_result)
case $V in unknown\|*"group 2 (0000:00:01.0 unbound, 0000:00:01.1 pcieport, 0000:00:01.2 pcieport, 0000:01:00.0 nvidia, 2 more) unmanaged"*) ;;
*) fail "six members in an unmanaged group: $V" ;; esac
# the GPU leaves: the NIC, now fourth of five members, still matters
regroup 0000:01:00.0 3
hp --json check
V=$(iommu_result)
case $V in unknown\|*"group 2 ("*", 1 more) unmanaged"*) ;;
*) fail "the NIC fourth of five in an unmanaged group: $V" ;; esac
