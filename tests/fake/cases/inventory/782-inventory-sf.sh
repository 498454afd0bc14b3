# A scalable function's RDMA device (mlx5: devlink port add ... flavour pcisf; its device
# link leads to the auxiliary device mlx5_core.sf.N below the PF, not to a PCI function)
# is a second view of the PF's port, like a VF's: not counted by RDMADevices=, nor its
# port by ActivePorts=, said beside the count. An audit found an SF standing in for a PF
# that had lost its RDMA device: 9 of 9, READY.
newroot ib-gpu
printf '[Inventory]\nRDMADevices=9\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_grep out '^PASS +inventory\.rdma +host +9 RDMA devices '
C=$R/sys/class/infiniband
pf=$(readlink -f "$C/mlx5_2/device")
rm -rf "$pf/infiniband/mlx5_2" "$C/mlx5_2"
pf0=$(readlink -f "$C/mlx5_0/device")
sf=$pf0/mlx5_core.sf.2
mkdir -p "$sf/infiniband"
cp -a "$pf0/infiniband/mlx5_0" "$sf/infiniband/mlx5_8"
rm "$sf/infiniband/mlx5_8/device"
ln -s ../../../mlx5_core.sf.2 "$sf/infiniband/mlx5_8/device"
ln -s "../../devices/${sf#"$R"/sys/devices/}/infiniband/mlx5_8" "$C/mlx5_8"
hp check
expect_rc 1
expect_grep out '^FAIL +inventory\.rdma +host +9 RDMA devices +8 of 9 RDMA devices \(and 1 of scalable functions, not counted\)'
# its port is not an active port of the host's own either: 7 PFs up, not 8
P=$C/mlx5_3/ports/1
chmod u+w "$P/state" "$P/phys_state" "$P/rate"
echo "4: ACTIVE" >"$P/state"
echo "5: LinkUp" >"$P/phys_state"
echo "400 Gb/sec (4X NDR)" >"$P/rate"
printf '[Inventory]\nActivePorts=InfiniBand:8\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(jqo '.results[] | select(.check == "inventory.ports") | .verdict')" = fail ] ||
	fail "the SF's port counted: $(jqo '.results[] | select(.check == "inventory.ports") | .actual')"
