# Issue 6 item 3: a port that stops answering (reads all-ones) between the plan and the
# record: nothing recorded, nothing written, "device not responding". A recorded Control
# value with bits the capability does not have is never restored, nor is anything
# written to a port whose ACS header reads 0xffff.
newroot dgx8
useconf gpu-p2p
cc -shared -fPIC -O2 -o "$T/allones.so" "$HERE/allones.c" -ldl || { fail "cannot build allones.so"; exit 1; }
HP_ENV=(LD_PRELOAD="$T/allones.so" ALLONES_AFTER=acs-originals ALLONES_DEV=0000:17:00.0)
hp -v apply
HP_ENV=()
expect_rc 1
rec=$R/run/hostprep/acs-originals
expect_no_grep "$rec" '0000:17:00\.0' "an all-ones port was recorded"
expect_no_grep "$rec" '0xffff' "0xffff was recorded as an original"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 001d ] || fail "the port that stopped answering was written"
expect_grep out 'FAIL +acs\.write +0000:17:00\.0 .*device not responding' "no 'device not responding' for 17:00.0"
[ "$(grep -c '^acs ' "$rec")" = 11 ] || fail "the other 11 ports are not recorded"
hp -v revert
expect_rc 0
expect_tree_same

# revert: a sealed line whose value has bits the capability (0x007f: no Enhanced) lacks
newroot dgx8
mkdir -p "$R/run/hostprep"
seal "acs 0000:17:00.0 0xf24 0x009d /sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0" >"$R/run/hostprep/acs-originals"
poke16 0000:17:00.0 $((0xf24 + 6)) 0x0011
cp -a "$R" "$T/before"
hp -v revert
expect_rc 1
expect_tree_same "$T/before"
expect_grep out 'not restored: the recorded 0x009d has bits the capability 0x007f does not have' "no refusal for bits the capability lacks"
cmp -s "$R/run/hostprep/acs-originals" "$T/before/run/hostprep/acs-originals" || fail "the record changed"
# revert: the port's ACS header and Control read all-ones
seal "acs 0000:17:00.0 0xf24 0x001d /sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0" >"$R/run/hostprep/acs-originals"
poke16 0000:17:00.0 0xf24 0xffff
poke16 0000:17:00.0 $((0xf24 + 2)) 0xffff
poke16 0000:17:00.0 $((0xf24 + 4)) 0xffff
poke16 0000:17:00.0 $((0xf24 + 6)) 0xffff
cp -a "$R" "$T/before2"
hp -v revert
expect_rc 1
expect_tree_same "$T/before2"
expect_grep out 'acs\.revert +0000:17:00\.0 .*device not responding' "revert of an all-ones port does not say 'device not responding'"
