# Issue 17 item 9: two intact record lines for one port (same device, same register) with
# different originals. Which one is the original is unknown: revert restores neither,
# names both lines in one fail, keeps both, and exits 1. The same original twice is no
# conflict: the port is restored once (one result) and both lines go.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
rec=$R/run/hostprep/acs-originals
l1=$(grep '^acs 0000:17:00\.0 ' "$rec")
l2=$(grep '^acs 0000:39:00\.0 ' "$rec")
# a second line for 17:00.0 with another original, and the same line for 39:00.0 again
body=${l1% crc32:*}
seal "${body/ 0x001d / 0x000d }" >>"$rec"
printf '%s\n' "$l2" >>"$rec"
reseal "$rec"
n=$(grep -c '^acs ' "$rec")
hp -v revert
expect_rc 1
expect_grep out "^FAIL +acs\.revert +0000:17:00\.0 .*lines? [0-9]+ and [0-9]+ .*(0x001d.*0x000d|0x000d.*0x001d)" "the conflict does not name both lines and both originals"
[ "$(grep -c 'acs\.revert  *0000:17:00\.0 ' "$T/out")" = 1 ] || fail "17:00.0: not exactly one acs.revert result"
expect_no_grep out "PASS +acs\.revert +0000:17:00\.0 " "an ambiguous original was restored"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 0011 ] || fail "17:00.0 was written from an ambiguous record"
[ "$(grep -c 'acs\.revert  *0000:39:00\.0 ' "$T/out")" = 1 ] || fail "39:00.0 (the same line twice): not exactly one acs.revert result"
expect_grep out "^PASS +acs\.revert +0000:39:00\.0 " "39:00.0 (the same original twice) is not restored"
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 11 ] || fail "revert restored $(grep -c '^PASS  *acs\.revert' "$T/out") ports, want 11"
[ "$(grep -c '^acs ' "$rec")" = 2 ] || fail "the record keeps $(grep -c '^acs ' "$rec") acs lines, want the 2 of 17:00.0 (had $n)"
[ "$(grep -c '^acs 0000:17:00\.0 ' "$rec")" = 2 ] || fail "the two lines of 17:00.0 are not both kept"
