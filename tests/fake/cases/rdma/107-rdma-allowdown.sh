# AllowDown=yes: the Polling rail is a warning, MinActive=7 holds; MinRate on the Down
# port does not complain about its 10 Gb/sec.
newroot ib-gpu
useconf rdma-allowdown
hp -v check
expect_rc 0
expect_grep out 'WARN +rdma\.port +mlx5_3/1 .*DOWN/Polling — no cable or no peer at the switch'
expect_grep out 'PASS +rdma\.ports +Port:rails .*7 of 8 selected ports active'
expect_no_grep out 'mlx5_bond_0' 'Exclude= did not exclude the LAG device'
expect_no_grep out '10 Gb/sec' 'rate of a Down port reported'
# MinActive=8 with one port down fails the rails; a Disabled port says admin down
sed -i 's/MinActive=7/MinActive=8/' "$R/etc/hostprep/hostprep.conf"
echo "3: Disabled" >"$R/sys/class/infiniband/mlx5_5/ports/1/phys_state"
echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_5/ports/1/state"
hp -v check
expect_rc 1
expect_grep out 'WARN +rdma\.port +mlx5_5/1 .*DOWN/Disabled — admin down \(ip link set / ibportstate / switch\)'
expect_grep out 'FAIL +rdma\.ports +Port:rails .*6 of 8 selected ports active \(down: mlx5_3/1, mlx5_5/1\)'
# a rule that selects nothing names what exists
cat >>"$R/etc/hostprep/hostprep.conf" <<'CONF'
[Port:none]
Select=rxe*
CONF
hp -v check
expect_grep out 'FAIL +rdma\.rule +Port:none .*selects no RDMA port'
expect_grep out 'RDMA devices here: mlx5_0 \(pci:0000:1a:00.0\)'
# rate and width below the minimum name both values
newroot ib-gpu
useconf rdma-ib-gpu
echo "100 Gb/sec (4X EDR)" >"$R/sys/class/infiniband/mlx5_6/ports/1/rate"
echo "53.125 Gb/sec (1X HDR)" >"$R/sys/class/infiniband/mlx5_7/ports/1/rate"
hp -v check
expect_grep out 'FAIL +rdma\.port +mlx5_6/1 .*rate 100 Gb/sec \(4X EDR\) below MinRate=400'
expect_grep out 'FAIL +rdma\.port +mlx5_7/1 .*rate 53.125 Gb/sec \(1X HDR\) below MinRate=400; width 1X below MinWidth=4X'
