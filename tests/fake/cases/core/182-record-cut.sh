# Issue 17 item 10: a record cut at a line boundary is a valid shorter file but for its
# header, which counts the lines hostprep wrote. revert restores the lines that are there,
# says the record is cut (exit 1, not READY), and keeps the file byte for byte: the lost
# lines' ports stay as they are, and a second revert says the same. apply records nothing
# new in a cut record: a port whose line may be lost is not written.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
rec=$R/run/hostprep/acs-originals
expect_grep "$rec" '^hostprep-record 2 lines 12 crc32:[0-9a-f]{8}$' "no header counting 12 lines"
[ "$(head -1 "$rec")" = "$(seal "hostprep-record 2 lines 12")" ] || fail "the header is not line 1: $(head -1 "$rec")"
head -10 "$rec" >"$T/cut"
sed -n '11,13p' "$rec" >"$T/lost"
cp "$T/cut" "$rec"
hp -v revert
expect_rc 1
expect_grep out '^FAIL +acs\.revert +record .*the record is cut \(its header counts 12 lines, 9 are there\)' "revert does not say the record is cut"
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 9 ] || fail "revert restored $(grep -c '^PASS  *acs\.revert' "$T/out") ports, want the 9 whose lines are there"
expect_no_grep out '^READY' "a cut record is READY"
cmp -s "$rec" "$T/cut" || fail "revert changed the cut record"
[ "$(wc -l <"$T/lost")" = 3 ] || fail "test setup: not 3 lost lines"
while read -r _ a off _; do
	grep -q " $a " "$T/cut" && fail "test setup: $a's line is not lost"
	[ "$(peek16 "$a" $((off + 6)))" = 0011 ] || fail "$a (its line lost) changed"
done <"$T/lost"
hp -v revert
expect_rc 1
cmp -s "$rec" "$T/cut" || fail "a second revert changed the cut record"
expect_grep out 'the record is cut' "a second revert does not say the record is cut"
# b9:01.0 back to its original by hand is no longer in a recorded state: apply must not
# record its current value as the original in a record that may have lost its line
poke16 0000:b9:01.0 $((0xf24 + 6)) 0x001d
hp -v apply
expect_rc 1
expect_grep out '^FAIL +acs\.write +0000:b9:01\.0 .*not written: the originals record is cut \(its header counts 12 lines, 9 are there\)' "apply writes a port into a cut record"
[ "$(peek16 0000:b9:01.0 $((0xf24 + 6)))" = 001d ] || fail "apply wrote a port it could not record"
cmp -s "$rec" "$T/cut" || fail "apply changed the cut record"
