# `hostprep topology --json` agrees with an independent oracle (tests/fake/topo_oracle.py:
# distance classes from the sysfs realpath chains and numa_node, ACS Control words from
# setpci ECAP_ACS+0x6.w, ingress ports right below the lowest common switch) on every
# fixture with GPUs; the goldens were also checked by hand against lspci -t.
for fx in dgx8 l40-amd 2socket ib-gpu; do
	newroot "$fx"
	hp --json topology
	expect_rc 0
	python3 "$HERE/topo_oracle.py" "$R" "$T/out" >"$T/oracle" 2>&1 ||
		fail "$fx: topology disagrees with the oracle: $(head -c 600 "$T/oracle")"
	expect_tree_same
done
# The oracle itself can fail: a matrix entry changed by hand is caught.
newroot 2socket
hp --json topology
jq '.matrix[0][1] = "PIX"' "$T/out" >"$T/broken.json"
python3 "$HERE/topo_oracle.py" "$R" "$T/broken.json" >/dev/null 2>&1 &&
	fail "the oracle accepts GPU0-GPU1 as PIX on 2socket (a two-level switch: PXB)"
