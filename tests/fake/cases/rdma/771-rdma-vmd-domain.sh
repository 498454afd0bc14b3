# Intel VMD hosts a PCI domain of its own, 10000 and up: the kernel names its functions
# with five domain digits (10000:01:00.0) and puts its root bus below the VMD function.
# An RDMA device there is linked to its function like any other: [Port:*] Select= by
# vendor:device or address selects it, the table shows its PCI address, and [Inventory]
# takes the address (an audit found the port left out of its rule: READY over a down
# rail, and NICAddresses= refusing the config).
newroot vmd-ib
P=$R/sys/class/infiniband/mlx5_8/ports/1
printf '[Port:cx7]\nSelect=pci:15b3:1021\nSelectLinkLayer=InfiniBand\n[Inventory]\nNICAddresses=10000:01:00.0\n' \
	>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1 # mlx5_3 is down in ib-gpu
expect_grep out '^PASS +rdma\.port +mlx5_8/1 '
expect_grep out '^PASS +inventory\.address +10000:01:00\.0 +a NIC at this address +present'
hp rdma
expect_grep out '^mlx5_8 +1 +ACTIVE/LinkUp .* 10000:01:00\.0 '
chmod u+w "$P/state" "$P/phys_state"
echo "1: DOWN" >"$P/state"
echo "2: Polling" >"$P/phys_state"
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check == "rdma.port" and .object == "mlx5_8/1") | .verdict')" = fail ] ||
	fail "mlx5_8/1 down is not a fail of its rule"
printf '[Port:vmd]\nSelect=pci:10000:01:00.0\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^FAIL +rdma\.port +mlx5_8/1 '
expect_no_grep out 'mlx5_[0-7]/'
# the snapshot walks VMD's domain as any other: its functions' directories as the
# others' (no pci_bus/ below a port), its RDMA port in the archive
hp snapshot -o "$T/snap.tar.zst"
expect_rc 0
tar -tf "$T/snap.tar.zst" >"$T/members" || fail "cannot list the archive"
expect_grep "$T/members" '^sys/devices/pci0000:00/0000:00:0e\.0/pci10000:00/10000:00:02\.0/10000:01:00\.0/infiniband/mlx5_8/ports/1/state$'
expect_no_grep "$T/members" '/pci_bus/'
