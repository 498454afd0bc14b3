# erdma in standard mode: RNIC, no gid ndevs; the netdev is found through node_guid =
# EUI-64 of eth0's MAC; pci:VVVV:DDDD selects it too.
newroot erdma-vm
useconf rdma-erdma
hp check
expect_rc 0
expect_grep out 'PASS +rdma\.port +erdma_0/1 .*100 Gb/sec \(4X EDR\), Ethernet, MTU 1024, netdev eth0'
hp --json rdma
[ "$(jqo '.devices[0].ports[0].netdev_via')" = "node_guid (EUI-64 of the MAC)" ] || fail "netdev_via"
[ "$(jqo '.devices[0].node_type')" = RNIC ] || fail "node_type"
# RoCEv2=yes cannot hold in standard mode (no RoCE v2 GID)
printf 'RoCEv2=yes\n' >>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out 'FAIL +rdma\.port +erdma_0/1 .*no RoCE v2 GID with an IP address: the netdev eth0 has no IPv4/IPv6 address'
