# module.devices (issue 25 §4): Devices=yes wants the module's RDMA devices with their
# uverbs nodes, and rdma_cm only with RdmaCM=yes (NCCL, UCX over verbs and Mooncake never
# open it). The remedy names only what is missing, by what is missing: never "load
# ib_uverbs" while ib_uverbs is live, never "load rdma_ucm" while rdma_ucm is. Last, a
# module.param remedy of the same kind (a reload, not "run as root").
conf() { # the [Module:erdma] keys, one per argument
	printf '[Module:erdma]\n' >"$R/etc/hostprep/hostprep.conf"
	printf '%s\n' "$@" >>"$R/etc/hostprep/hostprep.conf"
}
drop_module() { # NAME: not loaded any more (/proc/modules and /sys/module)
	sed -i "/^$1 /d" "$R/proc/modules"
	rm -rf "$R/sys/module/$1"
}

# the eRDMA VM NCCL runs on: ib_core ib_uverbs erdma, no rdma_ucm, no rdma_cm node
newroot erdma-nccl
conf Devices=yes
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.devices +erdma +RDMA devices with uverbs nodes +erdma_0 \(uverbs0\)$'
conf Devices=yes RdmaCM=yes
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.devices +erdma +RDMA devices with uverbs nodes, and rdma_cm +erdma_0 \(uverbs0\); no rdma_cm node$'
expect_grep out '^  → load rdma_ucm \(modprobe rdma_ucm, or \[Module:rdma_ucm\] Load=yes\)$'
# RdmaCM= alone, where the node belongs: [Module:rdma_ucm] of a host that runs it
newroot erdma-std
printf '[Module:rdma_ucm]\nRdmaCM=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.devices +rdma_ucm +the rdma_cm node +rdma_cm node present$'
rm "$R/dev/infiniband/rdma_cm"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.devices +rdma_ucm +the rdma_cm node +no rdma_cm node$'
expect_grep out '^  → rdma_ucm is loaded but /dev/infiniband/rdma_cm is missing \(/dev is not devtmpfs here, or udev removed it\): udevadm trigger --action=add --subsystem-match=misc$'

# the uverbs node is gone, the kernel still has uverbs0: udev, not a module
newroot erdma-nccl
conf Devices=yes
rm "$R/dev/infiniband/uverbs0"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.devices +erdma .* erdma_0 \(uverbs0, node missing\)$'
expect_grep out '^  → /dev/infiniband/uverbs0: registered by the kernel but missing in /dev'
expect_no_grep out 'load ib_uverbs'
# no uverbs device at all: with ib_uverbs live it is the driver's; without it, load it
rm "$R/sys/class/infiniband_verbs/uverbs0"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.devices +erdma .* erdma_0 \(no uverbs device\)$'
expect_grep out '^  → ib_uverbs is loaded but made no uverbs device for erdma_0: read journalctl -k'
expect_no_grep out 'load ib_uverbs'
drop_module ib_uverbs
hp -v check
expect_rc 1
expect_grep out '^  → load ib_uverbs \(modprobe ib_uverbs, or \[Module:ib_uverbs\] Load=yes\)$'
# no RDMA device: the driver's probe
rm "$R/sys/class/infiniband/erdma_0"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.devices +erdma .* no RDMA device$'
expect_grep out '^  → erdma drives no RDMA device: read its probe errors \(journalctl -k\)$'

# RdmaCM= is a key of its own: in the config dump, a bool, checked like the others
newroot erdma-nccl
conf Devices=yes RdmaCM=maybe
hp check
expect_rc 2
expect_grep err 'hostprep\.conf:3: .*RdmaCM'
conf RdmaCM=yes
hp config
expect_rc 0
expect_grep out '^RdmaCM=yes$'

# module.param: the running erdma is another build than the file on disk (which declares
# compat_mode) and shows no such parameter: unknown, and the remedy is a reload, not
# "run as root" nor "install the driver"
newroot erdma-std
printf '[Module:erdma]\nParameter=compat_mode=Y\n' >"$R/etc/hostprep/hostprep.conf"
rm "$R/sys/module/erdma/parameters/compat_mode"
echo 0123456789ABCDEF0123456 >"$R/sys/module/erdma/srcversion"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +module\.param +erdma\.compat_mode +Y +cannot read erdma/parameters/compat_mode: No such file or directory$'
expect_grep out '^  → the running module is another build than the file on disk, which has the parameter: reload it'

# mlx5_ib (bnxt_re, irdma) registers its RDMA device on the PCI function another module
# drives, through the auxiliary device it binds (mlx5_core.rdma.N, kernels 5.11+):
# [Module:mlx5_ib] Devices=yes names the devices of that binding. Without one (the
# fixture's function alone) mlx5_ib has no device; with it, each is mlx5_ib's.
newroot ofed-gpu
printf '[Module:mlx5_ib]\nDevices=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp -v check
expect_grep out '^FAIL +module\.devices +mlx5_ib +RDMA devices with uverbs nodes +no RDMA device'
A=$R/sys/bus/auxiliary/drivers/mlx5_ib.rdma
mkdir -p "$A"
ln -s ../../../../module/mlx5_ib "$A/module"
n=0
for d in "$R"/sys/class/infiniband/mlx5_*; do
	f=$(readlink -f "$d/device")
	mkdir "$f/mlx5_core.rdma.$n"
	ln -s "$(realpath --relative-to="$f/mlx5_core.rdma.$n" "$A")" "$f/mlx5_core.rdma.$n/driver"
	n=$((n + 1))
done
hp -v check
expect_grep out '^PASS +module\.devices +mlx5_ib +RDMA devices with uverbs nodes +mlx5_0 \(uverbs0\), mlx5_1 \(uverbs1\)'
