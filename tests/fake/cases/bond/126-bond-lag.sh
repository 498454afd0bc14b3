# bond.lag: the RDMA LAG device must exist, one of its GIDs must name the bond, and its PCI
# function must be one of the bond's slaves'. Each way to be wrong fails saying which.
newroot bond-lacp
useconf bond-lacp
rm "$R/sys/class/infiniband/mlx5_bond_0"
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond\.lag +mlx5_bond_0 .*no RDMA device mlx5_bond_0: the mlx5 LAG is not formed'
expect_grep out 'enslave both ports of one ConnectX NIC'
newroot bond-lacp
useconf bond-lacp
N=$R/sys/class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs
for i in 0 1 2 3; do echo ens2f0np0 >"$N/$i"; done
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.lag +mlx5_bond_0 .*mlx5_bond_0's GIDs name ens2f0np0, not bond0: not this bond's LAG device"
for i in 0 1 2 3; do : >"$N/$i"; done
hp -v check
expect_grep out '^FAIL +bond\.lag +mlx5_bond_0 .*mlx5_bond_0 has no GID with a netdev \(gid_attrs/ndevs all empty\)'
# The device sits on a PCI function that is none of the slaves'
newroot bond-lacp
useconf bond-lacp
D=$(readlink -f "$R/sys/class/infiniband/mlx5_bond_0")
ln -sfn ../../../0000:01:00.0 "$D/device"
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.lag +mlx5_bond_0 .*mlx5_bond_0 is on PCI 0000:01:00\.0, none of bond0's slaves \(0000:02:00\.0, 0000:02:00\.1\)"
