# Issue 17 item 11: apply must never write a record revert refuses to read (past the
# 1 MiB RECORD_MAX_SIZE). The record is filled with other lines so that exactly one more
# line fits: the first port is written and its line brings the file to exactly 1048576
# bytes (still read); every other port is not written ("record full"), exit 1. revert
# then reads the full record and restores the one port.
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/run/hostprep"
rec=$R/run/hostprep/acs-originals
first="acs 0000:15:01.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01.0"
python3 - "$rec" "$first" <<'PY'
import sys, zlib
MAX = 1024 * 1024
def seal(b):
    return "%s crc32:%08x\n" % (b, zlib.crc32(b.encode()))
first = seal(sys.argv[2])
lines = []
def size(n_extra):
    return len(seal("hostprep-record 2 lines %d" % (len(lines) + n_extra))) + sum(map(len, lines))
# filler lines of another kind (intact, not acs: their owner's business)
while MAX - len(first) - size(1) > 1000:
    lines.append(seal("filler %05d %s" % (len(lines), "f" * 960)))
gap = MAX - len(first) - size(1)  # bytes one more filler line must take
body = "filler last "
lines.append(seal(body + "g" * (gap - len(seal(body)))))
assert size(1) + len(first) == MAX, (size(1), len(first))
with open(sys.argv[1], "w") as f:
    f.write(seal("hostprep-record 2 lines %d" % len(lines)) + "".join(lines))
PY
cp "$rec" "$T/rec"
hp -v apply
expect_rc 1
expect_grep out '^PASS +acs\.write +0000:15:01\.0 ' "the port whose line fits is not written"
[ "$(stat -c %s "$rec")" = 1048576 ] || fail "the record is $(stat -c %s "$rec") bytes, want exactly 1048576"
[ "$(tail -1 "$rec")" = "$(seal "$first")" ] || fail "the last line is not 15:01.0's: $(tail -1 "$rec" | cut -c1-80)"
[ "$(grep -c '^FAIL  *acs\.write .*not written: record full' "$T/out")" = 11 ] ||
	fail "$(grep -c '^FAIL  *acs\.write .*not written: record full' "$T/out") ports refused as 'record full', want 11"
expect_no_grep out 'PASS +acs\.write +0000:(1[7-9a-f]|[3-9b]).' "a port was written without room for its original"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 001d ] || fail "17:00.0 written without its original recorded"
hp revert
expect_rc 0
expect_grep out '^PASS +acs\.revert +0000:15:01\.0 ' "revert does not restore the port from the full record"
expect_no_grep out 'too large' "revert refuses the record apply wrote"
cmp -s "$rec" "$T/rec" || fail "revert did not leave the record as it was before apply"
expect_tree_same
