# Malformed or contradicting [Port:*] rules: exit 2 with file:line, nothing written.
n=0
bad() { # LINE: the config on stdin must fail at that line
	n=$((n + 1))
	newroot ib-gpu
	cat >"$T/bad$n.conf"
	hp --config "$T/bad$n.conf" check
	[ "$RC" = 2 ] || fail "bad$n: exit $RC, want 2"
	grep -qF "$T/bad$n.conf:$1:" "$T/err" || fail "bad$n: stderr lacks ':$1:': $(head -c 300 "$T/err")"
	[ ! -e "$R/run/hostprep/rdma.env" ] || fail "bad$n: rdma.env written"
}
printf '[Port:a]\nSelect=mlx5_[0-7\n' | bad 2
printf '[Port:a]\nSelect=mlx5_0\nMinRate=5000\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nMinRate=0\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nMinRate=fast\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nLinkLayer=OmniPath\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nMinWidth=3X\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nMinMTU=1500\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0 mlx5_1\nPorts=1\nMinActive=3\n' | bad 4
printf '[Port:a]\nSelect=mlx5_0\nLinkLayer=InfiniBand\n[Port:b]\nSelect=mlx5_0\nLinkLayer=Ethernet\n' | bad 6
printf '[Port:a]\nSelect=pci:zz:00.0\n' | bad 2
printf '[Port:a]\nSelect=mlx5_0\nPorts=0\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\n[Port:a]\nSelect=mlx5_1\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nRoCEv2=maybe\n' | bad 3
printf '[Port:a]\nSelect=mlx5_0\nLinkLayer=InfiniBand\nRoCEv2=yes\n' | bad 4
printf '[Port:a]\nMinRate=100\n' | bad 1
printf '[Port:a]\nSelect=mlx5_0\nColour=blue\n' | bad 3
printf '[Port:bad/name]\nSelect=mlx5_0\n' | bad 1
# not contradictions: different ports, or one rule says any
newroot ib-gpu
printf '[Port:a]\nSelect=mlx5_0\nLinkLayer=InfiniBand\nPorts=1\n[Port:b]\nSelect=mlx5_0\nLinkLayer=Ethernet\nPorts=2\n' >"$T/ok.conf"
hp --config "$T/ok.conf" config
expect_rc 0
# the dump reads back to the same config
printf '[Port:a]\nSelect=mlx5_* pci:15b3:1021\nExclude=mlx5_bond_*\nPorts=1\nAllowDown=yes\nMinRate=53.125\nMinWidth=4X\nMinMTU=4096\nMinActive=2\n' >"$T/rt.conf"
hp --config "$T/rt.conf" config
expect_rc 0
cp "$T/out" "$T/dump1.conf"
hp --config "$T/dump1.conf" config
expect_rc 0
diff <(grep -v '^#' "$T/dump1.conf") <(grep -v '^#' "$T/out") >/dev/null || fail "config dump does not round-trip: $(diff "$T/dump1.conf" "$T/out" | head)"
expect_grep dump1.conf '^MinRate=53.125$'
expect_grep dump1.conf '^Select=pci:15b3:1021$'
