# erdma in standard mode: RNIC, no gid ndevs; the netdev is found through node_guid =
# EUI-64 of eth0's MAC; pci:VVVV:DDDD selects it too.
newroot erdma-vm
useconf rdma-erdma
hp -v check
expect_rc 0
expect_grep out 'PASS +rdma\.port +erdma_0/1 .*100 Gb/sec \(4X EDR\), Ethernet, MTU 1024, netdev eth0'
hp --json rdma
[ "$(jqo '.devices[0].ports[0].netdev_via')" = "node_guid (EUI-64 of the MAC)" ] || fail "netdev_via"
[ "$(jqo '.devices[0].node_type')" = RNIC ] || fail "node_type"
# RoCEv2=yes cannot hold in standard mode (no RoCE v2 GID)
printf 'RoCEv2=yes\n' >>"$R/etc/hostprep/hostprep.conf"
hp -v check
expect_rc 1
expect_grep out 'FAIL +rdma\.port +erdma_0/1 .*erdma_0 is in erdma standard \(iWARP-like\) mode \(node_type RNIC\): no RoCE v2 GID'
expect_grep out 'compat_mode=Y'
expect_no_grep out 'ip addr add|IPv4/IPv6 address' 'standard mode blamed on a missing address'
# its one GID is the MAC (erdma_query_gid), never shown as an IP
hp --json rdma
[ "$(jqo '.devices[0].ports[0].gids[0].gid')" = 0016:3e12:3456:0000:0000:0000:0000:0000 ] ||
	fail "erdma GID $(jqo '.devices[0].ports[0].gids[0].gid')"
[ "$(jqo '.devices[0].ports[0].gids[0].ip')" = null ] ||
	fail "MAC-based GID rendered as IP $(jqo '.devices[0].ports[0].gids[0].ip')"
# an InfiniBand GID with a global subnet prefix is no IP either
newroot ib-gpu
echo "2001:0db8:0000:0001:b83f:d203:00a1:c010" >"$R/sys/class/infiniband/mlx5_0/ports/1/gids/0"
hp --json rdma
[ "$(jqo '.devices[] | select(.name == "mlx5_0") | .ports[0].gids[0].ip')" = null ] ||
	fail "IB GID rendered as IP"
