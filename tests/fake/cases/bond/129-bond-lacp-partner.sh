# The switch's side of each LACP member (ad_partner_oper_port_state, the state the switch
# sends in its LACPDUs): a member our side distributes on but the switch does not collect
# from drops what the bond sends; one the switch does not distribute on carries nothing
# back. Either fails the slave and the bond; the other slave still passes.
newroot bond-lacp
useconf bond-lacp
P="$R/sys/class/net/ens2f1np1/bonding_slave/ad_partner_oper_port_state"
[ -f "$P" ] || fail "fixture lacks $P"
# 0x2f: activity, short timeout, aggregation, sync, distributing — not collecting
echo 47 >"$P"
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.slave +bond0/ens2f1np1 .* ens2f1np1: the switch's side is not collecting \(partner state 0x2f \(activity, short timeout, aggregation, sync, distributing\)\): it drops what the bond sends on this port"
expect_grep out 'check the switch port of ens2f1np1: its LACP member state'
expect_grep out '^FAIL +bond +bond0 .* ens2f1np1 out of aggregator 1 \(1 of 2 up slaves aggregated and distributing\)'
expect_grep out '^PASS +bond\.slave +bond0/ens2f0np0 '
# 0x1f: collecting, not distributing
echo 31 >"$P"
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.slave +bond0/ens2f1np1 .* the switch's side is not distributing \(partner state 0x1f .*\): it sends nothing on this port"
# 0x37: collecting and distributing, but out of sync
echo 55 >"$P"
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.slave +bond0/ens2f1np1 .* the switch's side is not in sync \(partner state 0x37 "
# 0x3d (slow rate, everything else up): passes
echo 61 >"$P"
hp -v check
expect_rc 0
expect_grep out '^PASS +bond\.slave +bond0/ens2f1np1 '
# A kernel without the attribute: the partner's LACP PDU details in /proc/net/bonding
rm "$P"
hp -v check
expect_rc 0
expect_grep out '^PASS +bond\.slave +bond0/ens2f1np1 '
sed -i '/details partner lacp pdu:/,/port state:/{s/port state: 63/port state: 47/}' "$R/proc/net/bonding/bond0"
hp -v check
expect_rc 1
expect_grep out "^FAIL +bond\.slave +bond0/ens2f1np1 .* the switch's side is not collecting \(partner state 0x2f"
# Unreadable on a live member: unknown, never pass
mkdir "$P"
hp -v check
expect_grep out '^UNKNOWN +bond\.slave +bond0/ens2f1np1 .*ad_partner_oper_port_state unreadable'
expect_no_grep out '^PASS +bond\.slave +bond0/ens2f1np1 '
