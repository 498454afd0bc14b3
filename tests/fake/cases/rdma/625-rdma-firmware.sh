# Firmware (issue 28 §6): fw_ver and board_id (PSID) of every RDMA device are reported by
# `hostprep rdma` (text and JSON); MinFirmware=/Firmware= on a [Port:*] rule give one
# rdma.firmware per selected device: older or not listed fails (action driver), a fw_ver
# that cannot be read or compared is unknown; a bad MinFirmware= is a config error.
newroot ib-gpu
echo MT_0000000838 >"$R/sys/class/infiniband/mlx5_0/board_id"
hp rdma
expect_rc 0
expect_grep out '^DEVICE +PORT +STATE .* PCI +FIRMWARE +BOARD +SOURCE$'
expect_grep out '^mlx5_0 +1 .* 0000:1a:00\.0 +28\.39\.1002 +MT_0000000838 +sysfs$'
expect_grep out '^mlx5_1 +1 .* 0000:1a:00\.1 +28\.39\.1002 +- +sysfs$'
hp --json rdma
[ "$(jqo '.devices[] | select(.name == "mlx5_0") | .fw_ver + " " + .board_id')" = "28.39.1002 MT_0000000838" ] ||
	fail "rdma --json fw_ver/board_id of mlx5_0"
[ "$(jqo '.devices[] | select(.name == "mlx5_1") | .board_id')" = null ] || fail "absent board_id is not null"
useconf rdma-ib-gpu
cat >>"$R/etc/hostprep/hostprep.conf" <<'CONF'

[Port:fw]
Select=mlx5_[0-3]
MinFirmware=28.39.1002
CONF
echo 28.39.1001 >"$R/sys/class/infiniband/mlx5_1/fw_ver"
echo 28.40.10 >"$R/sys/class/infiniband/mlx5_2/fw_ver"
rm "$R/sys/class/infiniband/mlx5_3/fw_ver"
hp -v check
expect_rc 1
expect_grep out 'PASS +rdma\.firmware +mlx5_0 +firmware >= 28\.39\.1002 +mlx5_0: firmware 28\.39\.1002, board MT_0000000838$'
expect_grep out 'FAIL +rdma\.firmware +mlx5_1 .*mlx5_1: firmware 28\.39\.1001, board unknown — older than MinFirmware='
expect_grep out 'mlxfwmanager -d 0000:1a:00\.1 --online -u'
expect_grep out 'PASS +rdma\.firmware +mlx5_2 '
expect_grep out 'UNKNOWN +rdma\.firmware +mlx5_3 .*fw_ver unreadable'
expect_no_grep out 'rdma\.firmware +mlx5_4' 'a device the rule does not select'
hp --json check
[ "$(jqo '.results[] | select(.check == "rdma.firmware" and .object == "mlx5_1") | .action')" = driver ] ||
	fail "rdma.firmware action"
# Firmware=: only the versions listed
echo 28.39.1002 >"$R/sys/class/infiniband/mlx5_3/fw_ver"
sed -i 's/^MinFirmware=28.39.1002$/Firmware=28.39.1002 28.39.1001/' "$R/etc/hostprep/hostprep.conf"
hp -v check
expect_grep out 'PASS +rdma\.firmware +mlx5_1 +firmware one of 28\.39\.1002, 28\.39\.1001 '
expect_grep out 'FAIL +rdma\.firmware +mlx5_2 .*firmware 28\.40\.10, board unknown — not one of Firmware='
# a MinFirmware= that is no version: file:line, exit 2
sed -i 's/^Firmware=.*/MinFirmware=28.x/' "$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 2
expect_grep err 'hostprep\.conf:[0-9]+: MinFirmware=: .28\.x. is not a firmware version'
