# Issue 18: the check/apply/status table was over 200 columns wide on a host with many
# ACS findings. Issue 27: ACTUAL is what people read: OBJECT and EXPECTED are capped, the
# ACTUAL of a problem and every remedy wrap below their column and are never cut (a word
# wider than the line, the kernel argument of a remedy, stays whole to be copied); a
# pass's or skip's ACTUAL is cut with "…"; the width is $COLUMNS, else the terminal's,
# else 120; -v cuts and wraps nothing; --json and report.json keep all.
newroot dgx8
useconf gpu-p2p

# widest line of $T/FILE in display columns; the lines wider than MAX that are more than
# one word (indentation, then a word without a space)
widest() { LC_ALL=C.UTF-8 wc -L <"$T/$1"; }
too_wide() { while IFS= read -r l; do
	[ "$(printf '%s' "$l" | LC_ALL=C.UTF-8 wc -L)" -gt "$2" ] || continue
	case $l in *[![:space:]]*' '*[![:space:]]*) printf '%s\n' "$l" ;; esac
done <"$T/$1"; }
# the text of the remedy line "  → START..." and its continuation lines, joined by spaces
remedy_text() { awk -v s="  → $1" 'index($0, s) == 1 { on = 1; t = substr($0, length("  → ") + 1); next }
	on && /^    [^ ]/ { t = t " " substr($0, 5); next } on { print t; exit }' "$T/out"; }
# the text from START on its row and the continuation lines below its column, joined
actual_text() { awk -v s="$1" '!on && index($0, s) { on = 1; t = substr($0, index($0, s)); next }
	on && /^                    +[^ ]/ { sub(/^ +/, ""); t = t " " $0; next } on { print t; exit }' "$T/out"; }

hp --json check
expect_rc 1
rem=$(jqo '[.results[] | select(.verdict != "pass") | .remedy // empty] | max_by(length)')
act=$(jqo '[.results[] | select(.verdict == "fail" or .verdict == "warn") | .actual] | max_by(length)')
[ "${#rem}" -gt 120 ] && [ "${#act}" -gt 80 ] || fail "fixture: no long remedy/actual (${#rem}/${#act})"
expect_no_grep out '…' "check --json: a string is cut"

hp check
expect_rc 1
[ -z "$(too_wide out 120)" ] || fail "check: lines over 120 columns: $(too_wide out 120)"
[ "$(widest out)" -gt 120 ] || fail "check: the long kernel argument was broken or cut"
# nothing of a remedy is lost: its wrapped lines make it whole again
[ "$(remedy_text "${rem%% *}")" = "$rem" ] ||
	fail "check: the wrapped remedy is not the remedy: '$(remedy_text "${rem%% *}")'"
# nor of a problem's ACTUAL
[ "$(actual_text "${act:0:30}")" = "$act" ] || fail "check: the problem's ACTUAL is cut: '$(actual_text "${act:0:30}")'"
expect_grep out '^SKIP +iommu\.mode .*…$' "check: the long iommu.mode ACTUAL (a skip) is not cut with …"
# one row per cause: the 12 ACS ports are one row and one remedy
[ "$(grep -cE '^FAIL +acs ' "$T/out")" = 1 ] || fail "check: ACS ports not grouped: $(grep -cE '^FAIL +acs ' "$T/out") rows"
expect_grep out '^  \+ 11 more \(acs:apply\): 0000:17:00\.0, 0000:17:01\.0, '

# COLUMNS names the width (a pager, a script): ACTUAL keeps its room
COLUMNS=80 hp check
expect_rc 1
[ -z "$(too_wide out 80)" ] || fail "COLUMNS=80: lines over 80 columns: $(too_wide out 80)"

hp -v check
expect_rc 1
grep -qF -- "  → $rem" "$T/out" || fail "check -v: the full remedy is not shown"
grep -qF -- "$act" "$T/out" || fail "check -v: the full ACTUAL is not shown"
expect_no_grep out '…' "check -v: a line is cut"
[ "$(grep -cE '^FAIL +acs ' "$T/out")" = 12 ] || fail "check -v: not every result on its own row"

# apply and status render the same table; report.json keeps everything
hp apply
expect_rc 0
[ -z "$(too_wide out 120)" ] || fail "apply: lines over 120 columns: $(too_wide out 120)"
hp status
expect_rc 0
[ -z "$(too_wide out 120)" ] || fail "status: lines over 120 columns: $(too_wide out 120)"
jq -e --arg r "$rem" '[.results[] | select(.remedy == $r)] | length > 0' \
	"$R/run/hostprep/report.json" >/dev/null || fail "report.json: the full remedy is not kept"
hp -v status
expect_rc 0
grep -qF -- "  → $rem" "$T/out" || fail "status -v: the full remedy is not shown"
