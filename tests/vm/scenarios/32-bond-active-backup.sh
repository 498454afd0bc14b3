# Bonding on a real kernel: active-backup over two virtio NICs, miimon 100.
# The active slave's cable is pulled from the QEMU monitor (set_link off):
# the bonding driver fails over (oracle /proc/net/bonding: the other slave
# active, the pulled one "MII Status: down", link failure count 1). hostprep:
# before the pull the bond passes with the default rule (every slave up); after
# it, MinSlavesUp=1 still passes and the default rule fails naming the slave.
QEMU_DEVICES="$(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Wait=0

[Bond:bond0]
Mode=active-backup
MinSlavesUp=1'
# the same bond with the default MinSlavesUp (every slave)
BOND_DEFAULT_CONF='[Host]
Wait=0

[Bond:bond0]
Mode=active-backup'

bond_both_up() { [ "$(bond_info bond0 | grep -c '^MII Status: up')" = 3 ]; }
bond_failed_over() { [ "$(bond_active_slave bond0)" = "$1" ]; }

guest_check() {
	local if0 if1 js
	if0=$(nic_behind 2) if1=$(nic_behind 3)
	printf '%s\n' "$BOND_DEFAULT_CONF" >/tmp/bond-default.conf
	modprobe bonding
	ip link add bond0 type bond mode active-backup miimon 100
	ip link set "$if0" down && ip link set "$if0" master bond0
	ip link set "$if1" down && ip link set "$if1" master bond0
	ip link set bond0 up
	wait_until 20 bond_both_up || fail "bond0: both slaves never came up"
	run_cmd cat /proc/net/bonding/bond0
	assert_match "$OUT" 'Bonding Mode: fault-tolerance \(active-backup\)' "/proc/net/bonding: active-backup"
	assert_eq "$(bond_active_slave bond0)" "$if0" "/proc/net/bonding: $if0 active"
	assert_eq "$(bond_slave_field bond0 "$if1" 'MII Status')" up "/proc/net/bonding: $if1 MII up"
	assert_rc 0 "hostprep check, default rule, both slaves up" hostprep --config /tmp/bond-default.conf check --json
	hp_issue8_results "$OUT"
	assert_hp "$OUT" bond bond0 pass "default rule, both up: bond0"

	# pull the active slave's cable
	hmp set_link nic-rp2 off
	wait_until 20 bond_failed_over "$if1" || fail "bond0 never failed over to $if1"
	run_cmd cat /proc/net/bonding/bond0
	assert_eq "$(carrier "$if0")" 0 "carrier of $if0 after set_link off"
	assert_eq "$(bond_active_slave bond0)" "$if1" "/proc/net/bonding: failed over to $if1"
	assert_eq "$(bond_slave_field bond0 "$if0" 'MII Status')" down "/proc/net/bonding: $if0 MII down"
	assert_eq "$(bond_slave_field bond0 "$if0" 'Link Failure Count')" 1 "/proc/net/bonding: $if0 link failure count"
	run_cmd ip -d link show bond0
	assert_match "$OUT" 'state UP' "ip: bond0 still up"

	assert_rc 0 "hostprep check, MinSlavesUp=1" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" bond bond0 pass "MinSlavesUp=1, one slave down: bond0"
	assert_rc 1 "hostprep check, default rule" hostprep --config /tmp/bond-default.conf check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" bond bond0 fail "default rule, one slave down: bond0"
	assert_match "$(jq -r '.results[] | select(.check | test("^bond")) | .object + " " + .actual' <<<"$js")" \
		"$if0" "the failing bond results name $if0"
	assert_hp_not_pass "$js" bond.slave "bond0/$if0" "bond.slave bond0/$if0"
}
