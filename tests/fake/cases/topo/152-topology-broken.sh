# topology on half-broken trees: unprivileged view (needs root, never "no ACS"), a dead
# port, a gone device, a missing numa_node. Always exit 0 with every device listed.
newroot dgx8-nonroot
hp topology
expect_rc 0
# run as root on the 64-byte view: the kernel's doing, not "needs root" (case 63: others)
expect_grep out 'GPU0 \(0000:18:00\.0\) ↔ GPU1 \(0000:19:00\.0\) PIX: unknown: 0000:17:00\.0 ACS cannot be read: the kernel exposes only 64 bytes'
expect_no_grep out '[Nn]o ACS|direct'
hp --json topology
[ "$(jqo '[.pairs[].ports[] | select(.acs != "needs-root")] | length')" = 0 ] ||
	fail "nonroot: a port's ACS is not needs-root"
expect_tree_same
[ "$(jqo '[.pairs[] | select(.p2p != "unknown")] | length')" = 0 ] || fail "nonroot: a pair is not unknown"

ffill() { # the whole config file of BDF reads 0xff
	local f
	f=$R/$(cfgpath "$1")
	head -c "$(stat -c %s "$f")" /dev/zero | tr '\0' '\377' >"$f.new" && mv "$f.new" "$f"
}
newroot 2socket
ffill 0000:1b:00.0               # the port in front of GPU1
ffill 0000:83:00.0               # GPU3 itself
rm -f "$R/$(cfgpath 0000:84:00.0)"   # NIC4: config gone
rm -f "$R/sys/bus/pci/devices/0000:a1:00.0/numa_node"
hp topology
expect_rc 0
expect_grep out 'GPU1 \(0000:1c:00\.0\) ↔ NIC0 \(mlx5_0\) PIX: unknown: 0000:1b:00\.0 not responding'
expect_grep out '^  GPU3: 0000:83:00\.0 \[not responding\]$'
expect_grep out '^  NIC4: mlx5_3 \(0000:84:00\.0\) \[gone\]$'
expect_grep out '^GPU4 +SYS +SYS +SYS +SYS +X +SYS +SYS +SYS +SYS +SYS +N/A +'
hp --json topology
[ "$(jqo '.devices[] | select(.id == "GPU4") | .numa_node')" = null ] || fail "GPU4 numa_node not null"
