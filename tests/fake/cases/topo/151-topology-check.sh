# [Topology] ExpectP2P=: a fail names the redirecting port and its bits and the remedy
# selects it; after an apply of that rule the same check passes. Without the key
# nothing is reported (existing configs and goldens unchanged).
newroot 2socket
useconf topo-expect
hp -v check # -v: the table cuts lines at 120 columns
expect_rc 1
expect_grep out 'FAIL +topology\.p2p +GPU1 \(0000:1c:00\.0\) ↔ NIC0 \(mlx5_0\) .*redirected at 0000:1b:00\.0 \(RR CR on\)'
expect_grep out 'FAIL +topology\.p2p +GPU3 \(0000:83:00\.0\) ↔ NIC4 \(mlx5_3\) .*0000:82:01\.0 \(EC on\)'
expect_grep out 'Select 0000:1b:00\.0 in an \[ACS:NAME\] rule'
expect_grep out 'WARN +topology\.p2p +GPU2 \(0000:31:00\.0\) ↔ NIC0 \(mlx5_0\) .*root complex(es)? decide'
# the E810 beside GPU2 (ens5f0, no RDMA device) is not its nearest NIC: the host has RDMA NICs
expect_no_grep out 'GPU2 \(0000:31:00\.0\) ↔ NIC3 \(ens5f0\)' "a NIC without an RDMA device taken as a GPU's nearest on a host with RDMA NICs"
# gpu:gpu: only the pair below the switches; the PHB/NODE/SYS GPU pairs are not ACS's
[ "$(grep -c 'ExpectP2P=gpu:gpu' "$T/out")" = 1 ] || fail "gpu:gpu: want exactly one pair (GPU0-GPU1)"
expect_tree_same

useconf topo-expect-fixed
hp -v apply
expect_rc 0
hp -v check
expect_rc 0
expect_no_grep out 'FAIL'
[ "$(grep -cE 'PASS +topology\.p2p' "$T/out")" = 5 ] || fail "after apply: want 5 passing pairs"

# An explicit pair, and a pair of selectors that matches nothing (a config mistake).
newroot 2socket
cat >"$T/pair.conf" <<'EOC'
[Topology]
ExpectP2P=0000:19:00.0~0000:1c:00.0 10de:*~1af4:*
EOC
hp -v --config "$T/pair.conf" check
expect_rc 1
expect_grep out 'FAIL +topology\.p2p +GPU0 \(0000:19:00\.0\) ↔ GPU1 \(0000:1c:00\.0\) .*redirected at 0000:18:00\.0 \(RR CR on\) \(PXB'
expect_grep out 'FAIL +topology\.p2p +host .*the selectors match no pair of devices \(ExpectP2P=10de:\*~1af4:\*\)'

# Accelerators=/NICs= replace the classification: the NVMe drive becomes GPU0.
newroot dgx8
cat >"$T/nvme.conf" <<'EOC'
[Topology]
Accelerators=class:0108
NICs=15b3:1021
EOC
hp -v --config "$T/nvme.conf" topology
expect_rc 0
expect_grep out '^  GPU0: 0000:01:00\.0$'
expect_no_grep out 'GPU1'
expect_grep out '^  NIC3: 0000:bc:00\.0$'

# The shipped-style config without [Topology]: no topology result at all.
newroot dgx8
useconf gpu-p2p
hp -v check
expect_no_grep out 'topology'
