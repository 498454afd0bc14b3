# Issue 27 items 3 and 4: every result that does not pass names its action, severity and
# cause; an RDMA port's remedy names the device, port and netdev (no NETDEV or DEV left to
# fill in): ibstat/mlxlink for InfiniBand, ethtool on the netdev for Ethernet, ibportstate
# for a disabled IB port.
newroot ib-gpu
useconf rdma-ib-gpu
echo "200 Gb/sec (4X HDR)" >"$R/sys/class/infiniband/mlx5_2/ports/1/rate"
echo "100 Gb/sec (2X HDR)" >"$R/sys/class/infiniband/mlx5_bond_0/ports/1/rate"
echo "3: Disabled" >"$R/sys/class/infiniband/mlx5_1/ports/1/phys_state"
echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_1/ports/1/state"
hp --json check
expect_rc 1
remedy() { jqo ".results[] | select(.object == \"$1\") | .remedy"; }
field() { jqo ".results[] | select(.object == \"$1\") | \"\(.action) \(.severity) \(.cause)\""; }
[ "$(remedy mlx5_2/1)" = "check the cable/transceiver and the switch port speed (ibstat mlx5_2 1; mlxlink -d mlx5_2 -p 1)" ] ||
	fail "IB rate remedy: $(remedy mlx5_2/1)"
[ "$(field mlx5_2/1)" = "cable critical rdma.port:rate" ] || fail "IB rate: $(field mlx5_2/1)"
[ "$(remedy mlx5_bond_0/1)" = "check the cable/transceiver and the switch port speed (ethtool bond0)" ] ||
	fail "Ethernet rate remedy: $(remedy mlx5_bond_0/1)"
[ "$(remedy mlx5_1/1)" = "enable the port: ibportstate -C mlx5_1 -P 1 -D 0 1 enable, or at the switch" ] ||
	fail "disabled IB port remedy: $(remedy mlx5_1/1)"
[ "$(field mlx5_1/1)" = "config critical rdma.port:disabled" ] || fail "disabled: $(field mlx5_1/1)"
[ "$(field mlx5_3/1)" = "cable critical rdma.port:down" ] || fail "polling: $(field mlx5_3/1)"
[ "$(remedy mlx5_3/1)" = "check the cable and the switch port (ibstat mlx5_3 1; mlxlink -d mlx5_3 -p 1; the switch's port status)" ] ||
	fail "polling IB port remedy: $(remedy mlx5_3/1)"
# no placeholder in any remedy, and every result that does not pass names what fixes it
bad=$(jqo '.results[] | select(.remedy != null) | .remedy | select(test("NETDEV|\\bDEV\\b|\\.\\.\\."))')
[ -z "$bad" ] || fail "placeholders left: $bad"
[ "$(jqo '[.results[] | select(.verdict != "pass" and .verdict != "skip" and (.action == "none" or .cause == null))] | length')" = 0 ] ||
	fail "a result that does not pass without an action or cause"
[ "$(jqo '[.results[] | select(.verdict == "pass" and (.action != "none" or .severity != "none" or .cause != null))] | length')" = 0 ] ||
	fail "a pass with an action, severity or cause"
# the text: one row per cause (disabled, rate on IB and on the LAG, polling), each of its
# remedies once; a pass's ACTUAL is cut at the width, a problem's wraps
hp check
expect_rc 1
[ "$(grep -c '^FAIL     rdma\.port ' "$T/out")" = 3 ] || fail "rdma.port causes: $(grep '^FAIL' "$T/out")"
expect_grep out '^  \+ 1 more \(rdma\.port:rate\): mlx5_bond_0/1$'
[ "$(grep -c 'switch port speed' "$T/out")" = 2 ] || fail "the two rate remedies, once each"
expect_grep out '^PASS +rdma\.port +mlx5_0/1 .*…$'
expect_grep out '^ +HDR\) below MinRate=400 \[sysfs\]$'
# columns, not bytes: the table's three non-ASCII characters are one column each
[ "$(sed 's/…/./g; s/—/-/g; s/→/>/g' "$T/out" | awk '{ print length }' | sort -n | tail -1)" -le 120 ] ||
	fail "a line wider than 120 columns"
