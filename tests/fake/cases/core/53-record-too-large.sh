# Issue 6 item 6: an originals record over the 1 MiB limit. apply writes nothing new
# (it cannot know the originals) and revert restores nothing; both name it ("record too
# large (N bytes): not touched"), leave the file byte-identical, still write the
# report, and exit 1 (not 3).
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/run/hostprep"
rec=$R/run/hostprep/acs-originals
python3 -c 'import sys; sys.stdout.write("x" * 79 + "\n") ' >/dev/null
python3 - "$rec" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write(("y" * 99 + "\n") * 10486)  # 1048600 bytes
PY
cp "$rec" "$T/rec"
size=$(stat -c %s "$rec")
hp -v apply
expect_rc 1
expect_tree_same
cmp -s "$rec" "$T/rec" || fail "apply touched the oversized record"
expect_grep out "FAIL +acs\.write +0000:15:01\.0 .*record too large \($size bytes\): not touched" "apply does not name the oversized record"
jq -e '.command == "apply"' "$R/run/hostprep/report.json" >/dev/null 2>&1 || fail "apply wrote no report"
hp --json revert
expect_rc 1
cmp -s "$rec" "$T/rec" || fail "revert touched the oversized record"
[ "$(jqo '[.results[] | select(.check == "acs.revert")] | length')" = 1 ] || fail "revert: not exactly one acs.revert result"
[ "$(jqo '.results[] | select(.check == "acs.revert") | "\(.object) \(.verdict) \(.actual)"')" = "record fail record too large ($size bytes): not touched" ] ||
	fail "revert: the acs.revert result is not 'record fail record too large ($size bytes): not touched'"
jq -e '.command == "revert"' "$R/run/hostprep/report.json" >/dev/null 2>&1 || fail "revert wrote no report"
expect_tree_same
