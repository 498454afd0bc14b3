# A GB200-like tray (mkroot.py gb200): every GPU and NIC alone on its own Grace root port in
# its own PCI domain. Pairs on one Grace are NODE, across SYS, none PIX/PXB/PHB (the
# realpath oracle, topo_oracle.py, agrees); ExpectP2P=gpu:nic-nearest pairs each GPU with
# the two NICs of its Grace and says the root complex decides (a warning, not a pass and
# not a failure: ACS has nothing to say there).
newroot gb200
hp topology
expect_rc 0
golden gb200-topology.txt
hp --json topology
expect_rc 0
golden gb200-topology.json
python3 "$HERE/topo_oracle.py" "$R" "$T/out" >"$T/oracle" 2>&1 ||
	fail "topology disagrees with the oracle: $(head -c 600 "$T/oracle")"
jq -e '.pairs == [] and ([.matrix[][]] | map(select(. == "PIX" or . == "PXB" or . == "PHB")) == [])' \
	"$T/out" >/dev/null || fail "a PCI-level pair on a tree without switches"
jq -e '[.gpu_map.gpus[] | [.index, (.nearest_nics | map(.name))]] ==
	[[0,["mlx5_0","mlx5_1"]],[1,["mlx5_0","mlx5_1"]],[2,["mlx5_2","mlx5_3"]],[3,["mlx5_2","mlx5_3"]]]' \
	"$T/out" >/dev/null || fail "nearest NICs: $(jq -c '.gpu_map.gpus' "$T/out")"
expect_tree_same
mkdir -p "$R/etc/hostprep"
printf '[Topology]\nExpectP2P=gpu:nic-nearest\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
golden gb200-check-nic-nearest.txt
