# A negotiated 802.3ad bond over both ports of a ConnectX-6 Dx, with its mlx5 RoCE LAG
# device on it: bond, both slaves and the LAG pass; the JSON carries the same verdicts
# and names; check reads and writes nothing else (tree unchanged).
newroot bond-lacp
useconf bond-lacp
hp -v check
expect_rc 0
expect_grep out '^PASS +bond +bond0 +802\.3ad, miimon > 0, every slave up, LACP negotiated +802\.3ad, miimon 100, 2 of 2 slaves up, aggregator 1 \(2 ports\), partner 00:1c:73:aa:bb:cc$'
expect_grep out '^PASS +bond\.slave +bond0/ens2f0np0 .*aggregator 1, state 0x3f \(.*collecting, distributing\)'
expect_grep out '^PASS +bond\.slave +bond0/ens2f1np1 '
expect_grep out '^PASS +bond\.lag +mlx5_bond_0 .*port 1 ndev bond0, PCI 0000:02:00\.0 \(slave ens2f0np0\)$'
expect_tree_same
hp -v --json check
expect_rc 0
[ "$(jqo '[.results[] | select(.check | startswith("bond"))] | length')" = 4 ] ||
	fail "want 4 bond results: $(jqo '[.results[].check] | join(",")')"
[ "$(jqo '[.results[] | select(.check | startswith("bond")) | .verdict] | unique | join(",")')" = pass ] ||
	fail "bond results not all pass"
[ "$(jqo '.results[] | select(.check == "bond.slave") | .object' | tr '\n' ' ')" = "bond0/ens2f0np0 bond0/ens2f1np1 " ] ||
	fail "bond.slave objects: $(jqo '.results[] | select(.check == "bond.slave") | .object')"
# apply (Apply=no: an audit) judges the same and writes nothing either
hp -v apply
expect_rc 0
expect_grep out '^PASS +bond +bond0 '
expect_tree_same
