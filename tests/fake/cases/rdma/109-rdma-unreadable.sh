# Unreadable or vanished attributes degrade to a named unknown, never a crash or a pass.
# (The tests run as root, so an unreadable file is a directory: read() fails with EISDIR
# like the kernel's EINVAL for an empty mlx5 gid_attrs entry.)
newroot ib-gpu
useconf rdma-ib-gpu
P=$R/sys/class/infiniband/mlx5_bond_0/ports/1
rm -f "$P/gid_attrs/types/3" "$P/gid_attrs/ndevs/5" "$P/gids/6"
mkdir "$P/gid_attrs/types/3" "$P/gid_attrs/ndevs/5" "$P/gids/6"
rm -f "$R/sys/class/infiniband/mlx5_7/ports/1/state"
hp -v check
[ "$RC" = 1 ] || fail "exit $RC (crash?): $(cat "$T/err")"
expect_grep out 'UNKNOWN +rdma\.port +mlx5_7/1 .*mlx5_7 port 1: unknown — state unreadable: No such file or directory'
# GID 3 (RoCE v2 IPv4) lost its type: no RoCE v2 GID with an IP remains
expect_grep out 'FAIL +rdma\.port +mlx5_bond_0/1 .*no RoCE v2 GID with an IP address: the netdev bond0 has no IPv4/IPv6 address'
# it fails its rule (no RoCE v2 GID), so it is not in rdma.env at all (issue 17 item 14)
expect_no_grep "$R/run/hostprep/rdma.env" '^[^#].*mlx5_bond_0' 'a port failing its rule in rdma.env'
hp rdma
expect_rc 0
expect_grep out 'mlx5_7 +1 +unknown \(state: No such file or directory\)'
# a whole device gone between listing and reading
rm -rf "$(readlink -f "$R/sys/class/infiniband/mlx5_6")"
hp -v check
[ "$RC" = 1 ] || fail "exit $RC after device vanished"
expect_grep out 'rdma\.ports +Port:rails'
hp --json rdma
expect_rc 0
[ "$(jqo '.devices[] | select(.name=="mlx5_6") | .error')" = "No such file or directory" ] || fail "vanished device not named in JSON"
