# A virtio NIC is named by its netdev, which virtio-pci hangs one level below the function
# (<pci>/virtio0/net/enp1s0), as an mlx5 NIC is by its RDMA device or netdev; without one
# it stays its PCI address.
newroot vm-noacs
hp topology
expect_rc 0
expect_grep out '^  NIC0: 0000:01:00\.0$'
mkdir -p "$R/sys/bus/pci/devices/0000:01:00.0/virtio0/net/enp1s0"
hp topology
expect_rc 0
expect_grep out '^  NIC0: enp1s0 \(0000:01:00\.0\)$'
hp --json topology
expect_rc 0
[ "$(jqo '[.devices[] | select(.kind == "nic") | .name] | join(",")')" = enp1s0 ] ||
	fail "JSON NIC name: $(jqo '[.devices[] | select(.kind == "nic") | .name] | join(",")')"
# Only a virtio function (vendor 1af4, the virtio spec's) is looked at below a virtio*
# entry: another vendor's NIC without a netdev stays its address.
printf '\xb3\x15' | dd of="$R/sys/bus/pci/devices/0000:01:00.0/config" bs=1 conv=notrunc \
	status=none
hp topology
expect_rc 0
expect_grep out '^  NIC0: 0000:01:00\.0$'
