# Issue 6 item 1: a NUL byte inside the originals record (after the 4th byte of line 2)
# must not cut the record short. revert restores every other line, reports line 2, and
# rewrites the record as exactly that line, byte for byte (NUL included), under the
# header that counts it; its port is not written.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
rec=$R/run/hostprep/acs-originals
line2=$(sed -n 2p "$rec")
addr2=$(cut -d' ' -f2 <<<"$line2")
{ printf '%s\0' "${line2:0:4}"; printf '%s\n' "${line2:4}"; } >"$T/line2"
{ sed -n 1p "$rec"; cat "$T/line2"; sed -n '3,$p' "$rec"; } >"$T/rec"
cp "$T/rec" "$rec"
{ seal "hostprep-record 2 lines 1"; cat "$T/line2"; } >"$T/want"
[ "$(od -An -c "$rec" | grep -c '\\0')" = 1 ] || fail "test setup: no NUL in the record"
hp -v revert
expect_rc 1
cmp "$rec" "$T/want" || fail "the record after revert is not exactly a header and the damaged line 2"
expect_grep out "FAIL +acs\.revert +record .*line 2 .*\\\\x00" "revert does not report line 2 with its NUL"
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 11 ] || fail "revert restored $(grep -c '^PASS  *acs\.revert' "$T/out") ports, want 11"
# only the port of the damaged line keeps the written value
ref_private
cp "$REF/$(cfgpath "$addr2")" "$T/cfg2"
printf '\x11\x00' | dd of="$T/cfg2" bs=1 seek=$(($(grep -o '0x[0-9a-f]\{3\}' <<<"$line2" | head -1) + 6)) conv=notrunc status=none
cp "$T/cfg2" "$REF/$(cfgpath "$addr2")"
expect_tree_same
# a second revert leaves the bad line as it is
hp -v revert
expect_rc 1
cmp "$rec" "$T/want" || fail "a second revert changed the damaged record"
