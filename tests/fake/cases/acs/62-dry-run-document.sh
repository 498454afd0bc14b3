# apply --dry-run says what it could and could not read (issue 6 item 16): ports
# without ACS are not counted as ACS ports, a plan over unreadable ports does not
# read as "0 writes" and fine, and --json is the documented dry-run document
# (docs/report-schema.md): the report envelope plus "plan".
PORT_KEYS='["address","state","offset","control","write","refused","vfio","driver_unreadable","iommu_groups_merged","old","new","rules","reason"]'
TOP_KEYS='["schema","version","command","host","time","apply","plan","modules"]'

# every PCI bridge: 17 with ACS (root ports + switch downstream ports), 4 switch
# upstream ports without ACS
newroot dgx8
printf '[Host]\nApply=yes\n[ACS:bridges]\nSelect=class:0604\n' >"$T/bridges.conf"
hp --config "$T/bridges.conf" apply --dry-run
expect_rc 0
expect_grep out '^plan: 21 ports selected: 17 with ACS, 4 without ACS; 17 writes$' \
	"dry-run counts ports without ACS as ACS ports"
expect_grep out '^  skip 0000:16:00\.0: no ACS capability' "the port without ACS is not listed as such"
[ "$(grep -c '^  write ' "$T/out")" = 17 ] || fail "want 17 write lines"
expect_tree_same

hp --config "$T/bridges.conf" --json apply --dry-run
expect_rc 0
[ "$(jqo -c keys_unsorted)" = "$TOP_KEYS" ] || fail "dry-run JSON top-level keys: $(jqo -c keys_unsorted)"
[ "$(jqo '"\(.schema) \(.version) \(.command) \(.host) \(.time) \(.apply)"')" = \
	"1 0.1.0 apply --dry-run dgx8-fake 2023-11-14T22:13:20Z true" ] ||
	fail "dry-run JSON envelope: $(jqo -c '[.schema,.version,.command,.host,.time,.apply]')"
[ "$(jqo -c '.plan.summary')" = \
	'{"selected":21,"acs":17,"no_acs":4,"unreadable":0,"not_responding":0,"gone":0,"writes":17,"refused":0}' ] ||
	fail "dry-run JSON summary: $(jqo -c '.plan.summary')"
[ "$(jqo -c '.plan.ports[0] | keys_unsorted')" = "$PORT_KEYS" ] || fail "port keys: $(jqo -c '.plan.ports[0] | keys_unsorted')"
[ "$(jqo -c '.plan.ports[] | select(.address=="0000:15:01.0") | [.state,.offset,.control,.write,.old,.new,.rules,.reason]')" = \
	'["acs","0x220","0x001d",true,"0x001d","0x0011","bridges",null]' ] || fail "port 15:01.0: $(jqo -c '.plan.ports[1]')"
[ "$(jqo -c '.plan.ports[] | select(.address=="0000:16:00.0") | [.state,.offset,.write,.old,.new]')" = \
	'["no_acs",null,false,null,null]' ] || fail "port 16:00.0: $(jqo -c '.plan.ports[2]')"
[ "$(jqo '.plan.error')" = null ] || fail "plan.error is not null"

# 64-byte config view: nothing could be read, and the plan says so
newroot dgx8-nonroot
useconf gpu-p2p
hp apply --dry-run
expect_rc 0
expect_grep out '^plan: 16 ports selected: 16 unreadable \(.*\); 0 writes \(16 ports could not be read\)$' \
	"a dry run that could read no port does not say so"
expect_no_grep out 'ACS ports selected' "unreadable ports counted as ACS ports"
[ "$(grep -c '^  unknown 0000:..:..\..: cannot tell' "$T/out")" = 16 ] || fail "want 16 'unknown ... cannot tell' lines"
hp --json apply --dry-run
expect_rc 0
[ "$(jqo -c '[.plan.summary.selected,.plan.summary.unreadable,.plan.summary.writes]')" = '[16,16,0]' ] ||
	fail "non-root dry-run JSON summary: $(jqo -c .plan.summary)"
[ "$(jqo '[.plan.ports[] | select(.state!="unreadable" or .reason==null or .write)] | length')" = 0 ] ||
	fail "an unreadable port without state/reason in the JSON"
expect_tree_same

# a rule that selects nothing is named
newroot dgx8
printf '[Host]\nApply=yes\n[ACS:none]\nSelect=dead:beef\n' >"$T/none.conf"
hp --config "$T/none.conf" apply --dry-run
expect_grep out '^plan: 0 ports selected; 0 writes$'
expect_grep out 'rule none selects no port'
hp --config "$T/none.conf" --json apply --dry-run
[ "$(jqo -c .plan.idle_rules)" = '["none"]' ] || fail "idle_rules: $(jqo -c .plan.idle_rules)"
