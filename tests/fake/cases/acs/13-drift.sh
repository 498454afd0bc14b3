# After apply, a hotplug/reset rewrites one port's ACS Control to 0x001d:
# check exits 1 and names that port; apply fixes it; revert still restores pristine.
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
cp -a "$R" "$T/applied"
poke16 0000:17:01.0 $((0xf24 + 6)) 0x001d
hp check
expect_rc 1
expect_grep out '0000:17:01\.0' "check does not name the drifted port 0000:17:01.0"
expect_grep out '(FAIL|fail).*0000:17:01\.0|0000:17:01\.0.*(FAIL|fail)' "0000:17:01.0 is not reported as failed"
# only that port fails
n=$(grep -Ec '^FAIL +acs ' "$T/out")
[ "$n" = 1 ] || fail "check reports $n failing acs ports, want 1"
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.verdict=="fail") | .object] | join(",")')" = 0000:17:01.0 ] ||
	fail "JSON check: failing objects are $(jqo '[.results[] | select(.verdict=="fail") | .object] | join(",")')"
hp apply
expect_rc 0
expect_tree_same "$T/applied"
# the record still holds the first original (0x001d), once
[ "$(grep -c '0000:17:01\.0' "$R/run/hostprep/acs-originals")" = 1 ] || fail "acs-originals has 0000:17:01.0 not exactly once"
hp revert
expect_rc 0
expect_tree_same
# ... but on a host hostprep never wrote, nothing was "rewritten after the last apply"
newroot dgx8
useconf gpu-p2p
hp check
expect_rc 1
expect_no_grep out 'rewritten after the last apply' "check on a never-applied host claims the ports were rewritten after the last apply"
