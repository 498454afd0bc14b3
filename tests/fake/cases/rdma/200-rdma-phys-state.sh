# Ready is ACTIVE and LinkUp (issue 17 item 5): an ACTIVE port whose link is Disabled or in
# Phy Test fails and stays out of rdma.env; an ACTIVE port whose phys_state cannot be read
# is unknown, never a pass.
newroot ib-gpu
useconf rdma-ib-gpu
echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_3/ports/1/state"
echo "2: Polling" >"$R/sys/class/infiniband/mlx5_3/ports/1/phys_state"
hp -v check
expect_rc 1
expect_grep out 'PASS +rdma\.port +mlx5_1/1 '
echo "3: Disabled" >"$R/sys/class/infiniband/mlx5_1/ports/1/phys_state"
echo "7: Phy Test" >"$R/sys/class/infiniband/mlx5_2/ports/1/phys_state"
rm "$R/sys/class/infiniband/mlx5_4/ports/1/phys_state"
hp -v check
expect_rc 1
expect_grep out 'FAIL +rdma\.port +mlx5_1/1 .*mlx5_1 port 1: ACTIVE/Disabled — admin down'
expect_grep out 'FAIL +rdma\.port +mlx5_2/1 .*mlx5_2 port 1: ACTIVE/Phy Test — the port is in a PHY test mode'
expect_grep out 'UNKNOWN +rdma\.port +mlx5_4/1 .*physical state unreadable'
expect_grep out 'FAIL +rdma\.ports +Port:rails .*4 of 8 selected ports active \(down: mlx5_1/1, mlx5_2/1, mlx5_3/1\)'
E=$R/run/hostprep/rdma.env
expect_grep "$E" '^NCCL_IB_HCA==mlx5_0:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_bond_0:1$'
hp --json rdma
[ "$(jqo '.devices[] | select(.name == "mlx5_1") | .ports[0].phys_state')" = Disabled ] ||
	fail "rdma --json phys_state of mlx5_1"
