# 802.3ad with a real LACP partner: bond0 in the root namespace over two veth
# pairs whose far ends are enslaved to pbond0 in namespace "peer", both
# 802.3ad, lacp_rate fast. Oracle /proc/net/bonding/bond0: partner MAC =
# pbond0's, both slaves in the active aggregator. rdma_rxe on bond0 is the
# RoCE LAG stand-in (bond.lag is mlx5-only: only rdma.port is asserted).
# Then one partner slave goes down -> bond0 degraded -> fail naming the slave.
# Last, that partner port comes back up outside pbond0: carrier and MII up,
# but no LACP partner -> vethA1 leaves the active aggregator / stops
# collecting+distributing (the case the issue names: a slave up "in another
# aggregator") -> still fail naming it. The rtnetlink messages of that phase
# are logged (linkwait.c relies on knowing which LACP changes send none).
TIMEOUT=180
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Wait=0

[Bond:bond0]
Mode=802.3ad

[Port:lag]
Select=rxe*
LinkLayer=Ethernet'

# bond0's partner is pbond0 and both slaves sit in the active aggregator
lacp_negotiated() {
	local agg
	[ "$(bond_partner_mac bond0)" = "$(ip -n peer -br link show pbond0 | awk '{ print $3 }')" ] || return 1
	agg=$(bond_info bond0 | awk '/^Active Aggregator Info:/ { a = 1 } a && /Aggregator ID:/ { print $3; exit }')
	[ -n "$agg" ] && [ "$(bond_slave_field bond0 vethA0 'Aggregator ID')" = "$agg" ] &&
		[ "$(bond_slave_field bond0 vethA1 'Aggregator ID')" = "$agg" ] || return 1
	# the mux machine sets collecting/distributing a moment after the aggregator
	# is chosen (slow under TCG): negotiated means both slaves carry traffic
	ip -d link show vethA0 | grep -q 'ad_actor_oper_port_state_str <[^>]*collecting,distributing' &&
		ip -d link show vethA1 | grep -q 'ad_actor_oper_port_state_str <[^>]*collecting,distributing'
}
slave_mii_down() { [ "$(bond_slave_field bond0 "$1" 'MII Status')" = down ]; }
active_agg() { bond_info bond0 | awk '/^Active Aggregator Info:/ { a = 1 } a && /Aggregator ID:/ { print $3; exit }'; }
# SLAVE up but out of LACP: not collecting+distributing in the active aggregator
slave_lacp_out() {
	[ "$(bond_slave_field bond0 "$1" 'MII Status')" = up ] || return 1
	[ "$(bond_slave_field bond0 "$1" 'Aggregator ID')" != "$(active_agg)" ] ||
		! ip -d link show "$1" | grep -q 'ad_actor_oper_port_state_str <[^>]*collecting,distributing'
}

guest_check() {
	local i js agg pmac
	modprobe bonding
	ip netns add peer
	ip -n peer link add pbond0 type bond mode 802.3ad miimon 100 lacp_rate fast
	ip link add bond0 type bond mode 802.3ad miimon 100 lacp_rate fast
	for i in 0 1; do
		ip link add "vethA$i" type veth peer name "vethB$i" netns peer
		ip link set "vethA$i" master bond0
		ip -n peer link set "vethB$i" master pbond0
	done
	ip -n peer link set pbond0 up
	ip link set bond0 up
	wait_until 30 lacp_negotiated || fail "LACP never negotiated"
	run_cmd cat /proc/net/bonding/bond0
	pmac=$(ip -n peer -br link show pbond0 | awk '{ print $3 }')
	assert_match "$OUT" 'Bonding Mode: IEEE 802.3ad Dynamic link aggregation' "/proc/net/bonding: 802.3ad"
	assert_eq "$(bond_partner_mac bond0)" "$pmac" "/proc/net/bonding: partner MAC is pbond0's"
	assert_ne "$(bond_partner_mac bond0)" 00:00:00:00:00:00 "/proc/net/bonding: partner MAC non-zero"
	agg=$(bond_info bond0 | awk '/^Active Aggregator Info:/ { a = 1 } a && /Aggregator ID:/ { print $3; exit }')
	assert_eq "$(bond_slave_field bond0 vethA0 'Aggregator ID')" "$agg" "vethA0 in the active aggregator"
	assert_eq "$(bond_slave_field bond0 vethA1 'Aggregator ID')" "$agg" "vethA1 in the active aggregator"
	run_cmd ip -d link show vethA1
	assert_match "$OUT" 'bond_slave state ACTIVE mii_status UP' "ip -d: vethA1 an active bond slave"
	assert_match "$OUT" 'ad_actor_oper_port_state_str <[^>]*collecting,distributing' \
		"ip -d: vethA1 collecting,distributing"
	# the RoCE LAG stand-in
	modprobe rdma_rxe && rdma link add rxe0 type rxe netdev bond0
	run_cmd rdma link show rxe0/1
	assert_match "$OUT" 'state ACTIVE physical_state LINK_UP netdev bond0' "rdma link: rxe0/1 ACTIVE on bond0"

	assert_rc 0 "hostprep check, negotiated" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" bond bond0 pass "negotiated: bond0"
	assert_hp "$js" bond.slave bond0/vethA0 pass "negotiated: bond.slave bond0/vethA0"
	assert_hp "$js" bond.slave bond0/vethA1 pass "negotiated: bond.slave bond0/vethA1"
	assert_hp "$js" rdma.port rxe0/1 pass "rdma.port rxe0/1 on the bond"

	# one partner slave down: bond0 loses vethA1 (carrier, then MII)
	ip -n peer link set vethB1 down
	wait_until 20 slave_mii_down vethA1 || fail "vethA1 never went down"
	run_cmd cat /proc/net/bonding/bond0
	assert_eq "$(carrier vethA1)" 0 "carrier of vethA1 after its partner went down"
	assert_eq "$(bond_slave_field bond0 vethA1 'MII Status')" down "/proc/net/bonding: vethA1 MII down"
	assert_eq "$(bond_slave_field bond0 vethA0 'MII Status')" up "/proc/net/bonding: vethA0 still up"
	assert_rc 1 "hostprep check, degraded" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" bond bond0 fail "degraded: bond0"
	assert_hp_text "$js" bond bond0 actual 'vethA1' "degraded: bond0 actual names vethA1"
	assert_hp_not_pass "$js" bond.slave bond0/vethA1 "degraded: bond.slave bond0/vethA1"
	assert_hp "$js" bond.slave bond0/vethA0 pass "degraded: bond.slave bond0/vethA0 still passes"

	# the partner port back up, but outside pbond0: no LACP partner for vethA1
	ip -ts -o monitor link >/tmp/lacp-events.log 2>&1 &
	local mon=$!
	ip -n peer link set vethB1 nomaster
	ip -n peer link set vethB1 up
	wait_until 30 slave_lacp_out vethA1 || fail "vethA1 never left LACP"
	sleep 4 # let the LACP machines settle (3 s fast timeout) before reading the events
	kill "$mon"
	run_cmd cat /proc/net/bonding/bond0
	run_cmd ip -d link show vethA1
	note "rtnetlink link messages while vethA1 lost its partner (the kernel's, for linkwait.c):"
	sed 's/^/#   /' /tmp/lacp-events.log | cut -c1-200
	assert_eq "$(carrier vethA1)" 1 "carrier of vethA1 back"
	assert_eq "$(bond_slave_field bond0 vethA1 'MII Status')" up "/proc/net/bonding: vethA1 MII up again"
	slave_lacp_out vethA1 && ok "vethA1 out of LACP (aggregator $(bond_slave_field bond0 vethA1 'Aggregator ID'), active $(active_agg))" ||
		fail "vethA1 still in the active aggregator, collecting+distributing"
	assert_rc 1 "hostprep check, slave up without a partner" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" bond bond0 fail "no partner on vethA1: bond0"
	assert_hp_text "$js" bond bond0 actual 'vethA1' "no partner on vethA1: bond0 actual names vethA1"
	assert_hp_not_pass "$js" bond.slave bond0/vethA1 "no partner on vethA1: bond.slave bond0/vethA1"
}
