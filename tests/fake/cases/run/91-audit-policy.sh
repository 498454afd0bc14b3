# Issue 6 item 20: a fresh install on a stock host. Only the vendor config
# (/usr/lib/hostprep/hostprep.conf as shipped: Apply=no, the gpu-paths rule) on the
# 8-GPU host whose kernel has ACS on: the mismatches are reported as warnings, the
# host is READY (exit 0), so the unit does not fail and a kubelet gate stays open.
# The gate closes only on what an admin declared: a drop-in in /etc that sets any
# key of the rule, a rule of the admin's own, or Apply=yes.
newroot dgx8
ref_private
for d in "$R" "$REF"; do install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$d/usr/lib/hostprep/hostprep.conf"; done
hp --json check
expect_rc 0
[ "$(jqo .ready)" = true ] || fail "the shipped config on a stock host is not ready"
[ "$(jqo '[.results[] | select(.check=="acs") | .verdict] | unique | join(",")')" = warn ] ||
	fail "the vendor rule's mismatches are not (all) warnings: $(jqo '[.results[] | select(.check=="acs") | .verdict] | unique | join(",")')"
[ "$(jqo '[.results[] | select(.check=="acs")] | length')" -ge 12 ] || fail "the mismatches are not reported"
expect_grep out 'no admin declared this vendor rule' "the warning does not say why it is only a warning"
hp apply
expect_rc 0
expect_tree_same

# declared by a drop-in that sets a key of the vendor rule: the mismatch is a failure
dropin_text() { # FILE TEXT
	local d
	for d in "$R" "$REF"; do
		install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
		printf '%s\n' "$2" >"$d/etc/hostprep/hostprep.conf.d/$1"
	done
}
dropin_text 50-declare.conf $'[ACS:gpu-paths]\nEnabled=yes'
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="fail")] | length')" -ge 12 ] ||
	fail "a rule declared in /etc does not fail on a mismatch"
rm -f "$R/etc/hostprep/hostprep.conf.d/50-declare.conf" "$REF/etc/hostprep/hostprep.conf.d/50-declare.conf"

# a rule of the admin's own (only its ports gate), the vendor rule still advice
dropin_text 50-own.conf $'[ACS:nic]\nSelect=0000:15:01.0'
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="fail") | .object] | join(",")')" = 0000:15:01.0 ] ||
	fail "only the admin's port should fail: $(jqo '[.results[] | select(.check=="acs" and .verdict=="fail") | .object] | join(",")')"
rm -f "$R/etc/hostprep/hostprep.conf.d/50-own.conf" "$REF/etc/hostprep/hostprep.conf.d/50-own.conf"

# Apply=yes is the admin's opt-in to the vendor rule: applied, then ready on its merits
dropin_text 50-apply.conf $'[Host]\nApply=yes'
hp --json apply
expect_rc 0
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="pass")] | length')" -ge 12 ] ||
	fail "Apply=yes did not enforce the vendor rule"
# ... and after an intended revert, its mismatches count (the admin asked for the policy)
hp --json revert
expect_rc 0
[ "$(jqo .ready)" = false ] || fail "after revert with Apply=yes the host is still ready"
