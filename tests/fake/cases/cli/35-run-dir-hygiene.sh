# After apply/check/revert: <root>/run/hostprep holds only hostprep's files (no temp
# files left), report.json is 0644 valid JSON, the directory is 0755.
newroot dgx8
useconf gpu-p2p
hp apply
hp check
hp revert
d=$R/run/hostprep
[ "$(stat -c %a "$d")" = 755 ] || fail "run/hostprep is $(stat -c %a "$d"), want 755"
left=$(cd "$d" && ls -A | grep -Ev "^(report\.json|lock|gpus\.json|p2p\.json|p2p\.env|rdma-counters)$")
[ -z "$left" ] || fail "left in run/hostprep: $left"
[ "$(stat -c %a "$d/report.json")" = 644 ] || fail "report.json mode $(stat -c %a "$d/report.json")"
jq -e '.schema == 1 and .command == "revert"' "$d/report.json" >/dev/null || fail "report.json is not the revert report"
# every --json output parses
for c in check "apply --dry-run" status; do
	# shellcheck disable=SC2086
	hp --json $c
	jq -e . "$T/out" >/dev/null 2>&1 || fail "--json $c is not JSON"
done
