# Operators write link names and select rails by link layer (issue 27 §6): MinRate=NDR is
# the 4X rate (400 Gb/s), HDR100/NDR200 the 2X split ports, Gb/s still work; a [Port:*]
# rule with SelectLinkLayer=InfiniBand over mlx5_* leaves the Ethernet RoCE LAG (same
# mlx5_ names) out of its count, and a port whose link layer is unreadable stays selected
# as unknown, never silently dropped.
conf() { # PRINTF-FORMAT: a fresh host with that config (not in a pipe: newroot sets R)
	newroot ib-gpu
	mkdir -p "$R/etc/hostprep"
	printf "$1" >"$R/etc/hostprep/hostprep.conf"
}
port_up() { # DEV RATE
	local p=$R/sys/class/infiniband/$1/ports/1
	echo "4: ACTIVE" >"$p/state"
	echo "5: LinkUp" >"$p/phys_state"
	echo "$2" >"$p/rate"
}

# eight NDR rails, the RoCE LAG beside them not counted: READY
conf '[Port:rails]\nSelect=mlx5_*\nSelectLinkLayer=infiniband\nMinRate=NDR\nMinActive=8\n'
port_up mlx5_3 "400 Gb/sec (4X NDR)"
hp -v check
expect_rc 0
expect_grep out '^PASS +rdma\.ports +Port:rails +at least 8 active .* 8 of 8 selected ports active$'
expect_no_grep out 'rdma\.port +mlx5_bond_0/1' 'SelectLinkLayer=InfiniBand selected the Ethernet LAG'
hp config
expect_grep out '^SelectLinkLayer=InfiniBand$'
expect_grep out '^MinRate=400$'

# the same rule without SelectLinkLayer counts the LAG too
conf '[Port:rails]\nSelect=mlx5_*\nMinRate=NDR\nMinActive=8\n'
port_up mlx5_3 "400 Gb/sec (4X NDR)"
hp -v check
expect_grep out '8 of 9 selected ports active|9 of 9 selected ports active'

# the Ethernet rule over the same names selects only the LAG
conf '[Port:front]\nSelect=mlx5_*\nSelectLinkLayer=Ethernet\nMinActive=1\n'
hp -v check
expect_grep out '^PASS +rdma\.ports +Port:front .* 1 of 1 selected ports active$'

# NDR is 400: a 4X HDR (200) rail fails NDR, passes HDR; an NDR200 (2X NDR) split port
# passes NDR200 and fails NDR
conf '[Port:rails]\nSelect=mlx5_0 mlx5_1\nMinRate=NDR\n'
port_up mlx5_1 "200 Gb/sec (4X HDR)"
hp -v check
expect_rc 1
expect_grep out '^FAIL +rdma\.port +mlx5_1/1 .*rate 200 Gb/sec \(4X HDR\) below MinRate=400'
expect_grep out '^PASS +rdma\.port +mlx5_0/1 '
conf '[Port:rails]\nSelect=mlx5_1\nMinRate=HDR\n'
port_up mlx5_1 "200 Gb/sec (4X HDR)"
hp -v check
expect_grep out '^PASS +rdma\.port +mlx5_1/1 '
conf '[Port:rails]\nSelect=mlx5_1\nMinRate=NDR200\n'
port_up mlx5_1 "200 Gb/sec (2X NDR)"
hp -v check
expect_grep out '^PASS +rdma\.port +mlx5_1/1 '
conf '[Port:rails]\nSelect=mlx5_1\nMinRate=ndr\n'
port_up mlx5_1 "200 Gb/sec (2X NDR)"
hp -v check
expect_grep out '^FAIL +rdma\.port +mlx5_1/1 .*rate 200 Gb/sec \(2X NDR\) below MinRate=400'

# a port whose link layer cannot be read is selected and unknown
conf '[Port:rails]\nSelect=mlx5_0 mlx5_1\nSelectLinkLayer=InfiniBand\n'
rm "$R/sys/class/infiniband/mlx5_1/ports/1/link_layer"
hp -v check
expect_grep out '^UNKNOWN +rdma\.port +mlx5_1/1 .*link layer unreadable: SelectLinkLayer=InfiniBand cannot tell'

# bad values: file:line, exit 2
bad() { # LINE CONFIG
	conf "$2"
	hp check
	expect_rc 2
	expect_grep err "hostprep\.conf:$1: "
}
bad 3 '[Port:a]\nSelect=mlx5_0\nMinRate=NDR400\n'
bad 3 '[Port:a]\nSelect=mlx5_0\nMinRate=4X NDR\n'
bad 3 '[Port:a]\nSelect=mlx5_0\nSelectLinkLayer=OmniPath\n'
bad 4 '[Port:a]\nSelect=mlx5_0\nSelectLinkLayer=InfiniBand\nLinkLayer=Ethernet\n'
# two rules over the same names on different layers are not a contradiction
conf '[Port:a]\nSelect=mlx5_*\nSelectLinkLayer=InfiniBand\nLinkLayer=InfiniBand\n[Port:b]\nSelect=mlx5_*\nSelectLinkLayer=Ethernet\nLinkLayer=Ethernet\n'
hp check
[ "$RC" != 2 ] || fail "disjoint SelectLinkLayer rules refused: $(head -c 300 "$T/err")"
