# Issue 18: the check/apply/status table was over 200 columns wide on a host with many
# ACS findings. Every line of the table fits 120 columns: the free-text end of a line
# (ACTUAL, a remedy) is cut with "…"; -v cuts nothing; --json and report.json keep all.
newroot dgx8
useconf gpu-p2p

# widest line of $T/FILE in display columns; the first line wider than 120
widest() { LC_ALL=C.UTF-8 wc -L <"$T/$1"; }
too_wide() { while IFS= read -r l; do
	[ "$(printf '%s' "$l" | LC_ALL=C.UTF-8 wc -L)" -gt 120 ] && { printf '%s\n' "$l"; break; }
done <"$T/$1"; }

hp --json check
expect_rc 1
# the longest remedy and the longest ACTUAL: both wider than a table line
rem=$(jqo '[.results[] | select(.verdict != "pass") | .remedy // empty] | max_by(length)')
act=$(jqo '[.results[] | .actual] | max_by(length)')
[ "${#rem}" -gt 120 ] && [ "${#act}" -gt 80 ] || fail "fixture: no long remedy/actual (${#rem}/${#act})"
expect_no_grep out '…' "check --json: a string is cut"

hp check
expect_rc 1
[ "$(widest out)" -le 120 ] || fail "check: a line of $(widest out) columns: $(too_wide out)"
# as much as fits is kept: the cut lines are exactly 120 columns and end in …
[ "$(widest out)" = 120 ] || fail "check: widest line $(widest out) columns, not 120"
grep -qF -- "$rem" "$T/out" && fail "check: the ${#rem}-character remedy was not cut"
grep -qF -- "  → ${rem:0:100}" "$T/out" || fail "check: the cut remedy does not start as the remedy"
expect_grep out '^  → .*…$' "check: no remedy line ends in …"
grep -qF -- "$act" "$T/out" && fail "check: the ${#act}-character ACTUAL was not cut"
expect_grep out '^SKIP +iommu\.mode .*…$' "check: the long iommu.mode ACTUAL is not cut with …"

hp -v check
expect_rc 1
grep -qF -- "  → $rem" "$T/out" || fail "check -v: the full remedy is not shown"
grep -qF -- "$act" "$T/out" || fail "check -v: the full ACTUAL is not shown"
expect_no_grep out '…' "check -v: a line is cut"
[ "$(widest out)" -gt 120 ] || fail "check -v: no line over 120 columns"

# apply and status render the same table; report.json keeps everything
hp apply
expect_rc 0
[ "$(widest out)" -le 120 ] || fail "apply: a line of $(widest out) columns: $(too_wide out)"
hp status
expect_rc 0
[ "$(widest out)" -le 120 ] || fail "status: a line of $(widest out) columns: $(too_wide out)"
jq -e --arg r "$rem" '[.results[] | select(.remedy == $r)] | length > 0' \
	"$R/run/hostprep/report.json" >/dev/null || fail "report.json: the full remedy is not kept"
hp -v status
expect_rc 0
grep -qF -- "  → $rem" "$T/out" || fail "status -v: the full remedy is not shown"
