# A config write the device takes without error but does not keep (nostick.so: the
# write returns success, the file keeps all or some of its old bits): only the read-back
# comparison after the write can see it. acs.write must FAIL naming "read back" and the
# value it read, exit 1; nothing is reported as applied.
[ -f "$NOSTICK_SO" ] || { fail "nostick.so was not built"; exit 1; }

# 1. nothing sticks: the word stays 0x001d on every port
newroot dgx8
useconf gpu-p2p
HP_ENV=(LD_PRELOAD="$NOSTICK_SO" NOSTICK_LOG="$T/writes")
hp -v apply
HP_ENV=()
expect_rc 1
[ -s "$T/writes" ] || fail "the shim saw no write to a config file (did apply try to write?)"
expect_grep out '^FAIL +acs\.write +0000:17:00\.0 +0x0011 +wrote 0x0011, read back 0x001d$' \
	"acs.write of 0000:17:00.0 is not a FAIL naming what it read back"
[ "$(grep -Ec '^FAIL +acs\.write .*read back 0x001d$' "$T/out")" = 12 ] ||
	fail "want 12 acs.write FAILs with 'read back 0x001d': $(grep -Ec '^FAIL +acs\.write' "$T/out")"
expect_no_grep out '^PASS +acs\.write' "a write that did not stick passed"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 001d ] || fail "the shim let the write through"

# 2. some bits stick: of 0x001d -> 0x0011 (bits 2 and 3 cleared) only bit 2 is stored,
# the device reads back 0x0019
newroot dgx8
useconf gpu-p2p
HP_ENV=(LD_PRELOAD="$NOSTICK_SO" NOSTICK_MASK=0x0004)
hp --json apply
HP_ENV=()
expect_rc 1
[ "$(jqo '.results[] | select(.check=="acs.write" and .object=="0000:17:00.0") | "\(.verdict) \(.actual)"')" = \
	"fail wrote 0x0011, read back 0x0019" ] ||
	fail "partial write: $(jqo '.results[] | select(.check=="acs.write" and .object=="0000:17:00.0")')"
[ "$(jqo '[.results[] | select(.check=="acs.write") | .verdict] | unique | join(",")')" = fail ] ||
	fail "partial write: not every acs.write failed"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 0019 ] || fail "the shim did not store bit 2 alone"

# 3. the same shim with every bit sticking is transparent: apply passes (the shim is not
# what fails the cases above)
newroot dgx8
useconf gpu-p2p
HP_ENV=(LD_PRELOAD="$NOSTICK_SO" NOSTICK_MASK=0xffff)
hp apply
HP_ENV=()
expect_rc 0
expect_grep out '^PASS +acs\.write +0000:17:00\.0 +0x0011 +0x001d -> 0x0011, read back$'
