# Issue 17 item 10: a record whose last line is torn (the file cut mid-line: a crash or a
# full disk). What is left of the line can read like a 0.1.0 line ("acs ADDR OFF CTRL
# DEVPATH", no checksum): it is called torn, never "written by hostprep 0.1.0 or by hand",
# and no setpci remedy is built from its damaged bytes. Its port is not restored, the line
# stays in the record byte for byte, and revert exits 1.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
rec=$R/run/hostprep/acs-originals
last=$(grep '^acs ' "$rec" | tail -1)
addr=$(cut -d' ' -f2 <<<"$last")
off=$(cut -d' ' -f3 <<<"$last")
torn=${last% crc32:*}
# cut the file right before the last line's " crc32:"
python3 - "$rec" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[1], "wb").write(d[:d.rindex(b" crc32:")])
PY
[ "$(tail -c ${#torn} "$rec")" = "$torn" ] || fail "test setup: the record does not end with the torn line"
cp "$rec" "$T/torn"
hp -v revert
expect_rc 1
expect_grep out "^FAIL +acs\.revert +record .*torn \(cut mid-line, e\.g\. a crash or a full disk\)" "the torn line is not called torn"
expect_no_grep out '0\.1\.0 or by hand' "a torn line is taken for a 0.1.0 line"
expect_no_grep out "setpci -s $addr" "a setpci remedy is built from the torn line's bytes"
expect_no_grep out "PASS +acs\.revert +$addr " "the port of the torn line is restored"
[ "$(peek16 "$addr" $((off + 6)))" = 0011 ] || fail "$addr was written from a torn line"
cmp -s "$rec" "$T/torn" || fail "the record with its torn line is not kept byte-exact"
