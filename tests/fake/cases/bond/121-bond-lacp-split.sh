# One slave's switch port is not in the LAG: it sits alone in aggregator 2, defaulted,
# neither collecting nor distributing, with no LACP partner. The bond fails naming it, the
# slave fails saying which aggregator it is in and why, the healthy slave passes.
newroot bond-lacp-split
useconf bond-lacp
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 .* ens2f1np1 out of aggregator 1 \(1 of 2 up slaves aggregated and distributing\)'
expect_grep out '^FAIL +bond\.slave +bond0/ens2f1np1 .* ens2f1np1: in aggregator 2, the bond uses 1 — its switch port is not in the same LAG / LACP not negotiated on it, no LACP partner on it \(partner MAC 00:00:00:00:00:00\); not collecting and distributing'
expect_grep out '1 link failure, aggregator 2, state 0x47 \(activity, short timeout, aggregation, defaulted\)'
expect_grep out 'put the switch port of ens2f1np1 into the same LACP port-channel as the other slaves of bond0'
expect_grep out '^PASS +bond\.slave +bond0/ens2f0np0 '
expect_no_grep out '^FAIL +bond\.slave +bond0/ens2f0np0'
# The partner MAC of the whole bond comes from sysfs; without it, from /proc/net/bonding.
: >"$R/sys/devices/virtual/net/bond0/bonding/ad_partner_mac"
hp -v check
expect_grep out '^FAIL +bond +bond0 .*partner 00:1c:73:aa:bb:cc'
# No active aggregator at all: LACP not negotiated.
: >"$R/sys/devices/virtual/net/bond0/bonding/ad_aggregator"
hp -v check
expect_grep out '^FAIL +bond +bond0 .*no active aggregator: LACP not negotiated'
# A defaulted partner on the bond (every port alone): partner MAC zero fails the bond.
newroot bond-lacp
useconf bond-lacp
echo 00:00:00:00:00:00 >"$R/sys/devices/virtual/net/bond0/bonding/ad_partner_mac"
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 .*partner MAC 00:00:00:00:00:00: no LACP partner answered'
