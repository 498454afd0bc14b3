# One cause, one message (issue 18): a topology.p2p pair redirected at a port a rule
# already selects points at that port's acs result instead of asking to select it again
# (the contradicting "Select 0000:17:00.0 in an [ACS:NAME] rule"); a port no rule
# selects keeps the selection advice.
p2p_remedy() { jqo --arg o "$1" '.results[] | select(.check=="topology.p2p" and (.object|test($o))) | .remedy'; }
newroot dgx8
useconf gpu-p2p
dropin topo-expect 60-topo.conf
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check=="acs" and .object=="0000:17:00.0") | .verdict')" = fail ] ||
	fail "fixture: 17:00.0 is not an acs fail"
jqo '.results[] | select(.check=="topology.p2p" and .verdict=="fail") | .remedy' >"$T/rem"
[ -s "$T/rem" ] || fail "no failing topology.p2p result"
expect_no_grep "$T/rem" 'Select 0000:' "a topology.p2p remedy asks to select a port a rule already selects"
V=$(p2p_remedy '0000:18:00.0.*0000:19:00.0')
[ "$V" = "see the acs result of 0000:17:00.0 0000:17:01.0 (selected by a rule, not yet as it wants)" ] ||
	fail "GPU0-GPU1 remedy: $V"
# only 17:00.0 selected: 17:01.0 still gets the selection advice, 17:00.0 the pointer
printf '[Host]\nApply=yes\n\n[ACS:one]\nSelect=0000:17:00.0\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
V=$(p2p_remedy '0000:18:00.0.*0000:19:00.0')
case $V in "see the acs result of 0000:17:00.0; select 0000:17:01.0 in an [ACS:NAME] rule"*) ;; *) fail "one of two selected: $V" ;; esac
