# Expect=passthrough on partial evidence (issue 17.4): one group identity and the GPUs'
# groups unmanaged/unreadable is not "passthrough". The groups of the devices that matter
# (GPUs, accelerators, NICs) are judged; any of them unreadable -> unknown, naming them.
iommu_result() { jqo '.results[] | select(.check=="iommu.mode") | "\(.verdict)|\(.actual)|\(.remedy)"'; }
set_type() { # GROUP TYPE|-: in the tree (- removes the file: a kernel before 5.11)
	if [ "$2" = - ]; then rm -f "$R/sys/kernel/iommu_groups/$1/type"; else echo "$2" >"$R/sys/kernel/iommu_groups/$1/type"; fi
}
newroot l40-amd
useconf iommu-pt
hp --json check
V=$(iommu_result)
case $V in pass\|*) ;; *) fail "l40-amd, every group identity, Expect=passthrough: $V" ;; esac

# a bridge's group unmanaged: nothing that matters for P2P/RDMA -> still passthrough
set_type 2 unmanaged
hp --json check
V=$(iommu_result)
case $V in pass\|*) ;; *) fail "only a bridge's group unmanaged: $V" ;; esac

# every GPU's group unmanaged (VFIO), the rest identity: unknown, naming the GPUs
for g in 3 9 13 17; do set_type $g unmanaged; done
hp --json check
expect_rc 1
V=$(iommu_result)
case $V in unknown\|*) ;; *) fail "GPU groups unmanaged, Expect=passthrough: $V" ;; esac
for a in 0000:01:00.0 0000:41:00.0 0000:81:00.0 0000:c1:00.0; do
	case $V in *"$a"*) ;; *) fail "the unknown iommu.mode does not name GPU $a: $V" ;; esac
done
case $V in *"iommu=pt"*already*|*"add iommu=pt"*) fail "advice about iommu=pt for VFIO-owned GPUs: $V" ;; esac

# one NIC group without a type file (unreadable), the rest identity: unknown, naming it
for g in 3 9 13 17 2; do set_type $g identity; done
set_type 5 -
hp --json check
V=$(iommu_result)
case $V in unknown\|*0000:02:00.0*) ;; *) fail "the NIC's group type unreadable: $V" ;; esac

# the same with Expect=translated on dgx8 (DMA): a GPU group blocked -> unknown
newroot dgx8
useconf iommu-translated
hp --json check
case $(iommu_result) in pass\|*) ;; *) fail "dgx8 Expect=translated baseline: $(iommu_result)" ;; esac
g=$(basename "$(readlink "$R/sys/bus/pci/devices/0000:18:00.0/iommu_group")")
set_type "$g" blocked
hp --json check
V=$(iommu_result)
case $V in unknown\|*0000:18:00.0*) ;; *) fail "dgx8, GPU 18:00.0's group blocked, Expect=translated: $V" ;; esac
