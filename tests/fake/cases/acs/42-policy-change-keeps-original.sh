# The record keeps the first original: apply x0x00xx (0x001d -> 0x0011), then the
# policy changes to 0000000 and apply writes 0x0000; the record still says 0x001d
# once per port, and revert restores the pristine tree.
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
useconf gpu-p2p-zero
hp apply
expect_rc 0
[ "$(peek16 0000:15:01.0 $((0x220 + 6)))" = 0000 ] || fail "15:01.0 is $(peek16 0000:15:01.0 $((0x220 + 6))) after the second policy, want 0000"
rec=$R/run/hostprep/acs-originals
[ "$(grep -c '^acs ' "$rec")" = 12 ] || fail "acs-originals has $(grep -c '^acs ' "$rec") acs lines after two applies, want 12"
grep '^acs ' "$rec" | grep -v ' 0x001d /sys/devices/[^ ]* crc32:[0-9a-f]\{8\}$' && fail "acs-originals records a value hostprep wrote itself"
hp revert
expect_rc 0
expect_tree_same
