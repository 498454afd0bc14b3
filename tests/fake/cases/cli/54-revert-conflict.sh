# Issue 6 item 4: revert must not depend on the policy. With a config whose rules conflict
# on this host, revert still restores every port, prints its results, writes its report
# and exits by the revert's outcome (0); the conflict is a logged error and an "unknown"
# result, not exit 2.
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
useconf conflict
hp revert
expect_rc 0
expect_tree_same
[ -e "$R/run/hostprep/acs-originals" ] && fail "the record survived a complete revert"
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 12 ] || fail "revert printed $(grep -c '^PASS  *acs\.revert' "$T/out") restored ports, want 12"
expect_grep out 'UNKNOWN +acs +config ' "the conflict is not an unknown result"
expect_grep err 'hostprep\.conf:[0-9]+: rule' "the conflict is not logged with file:line"
jq -e '.command == "revert" and ([.results[] | select(.check == "acs.revert" and .verdict == "pass")] | length) == 12' \
	"$R/run/hostprep/report.json" >/dev/null 2>&1 || fail "no revert report with 12 restored ports"
# apply with the same config still refuses (exit 2, nothing written)
hp apply
expect_rc 2
expect_tree_same
