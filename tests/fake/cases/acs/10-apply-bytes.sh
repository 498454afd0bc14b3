# apply on dgx8 with Apply=yes and upstream:10de:* (default mask x0x00xx):
# exactly the ACS Control word of the 12 ports above the GPUs changes,
# 0x001d -> 0x0011 (only the low byte differs), nothing else in the tree.
# The NIC's downstream ports (17:02.0 ...), the NVMe root port and every
# endpoint stay untouched.
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/config +0x226: 1d -> 11
EOT
# the record of originals: one line per written port, the contract's format
rec=$R/run/hostprep/acs-originals
if [ -f "$rec" ]; then
	[ "$(grep -c . "$rec")" = 13 ] || fail "acs-originals has $(grep -c . "$rec") lines, want a header and 12"
	[ "$(head -1 "$rec")" = "$(seal "hostprep-record 2 lines 12")" ] || fail "acs-originals: no header counting 12 lines"
	expect_grep "$rec" '^acs 0000:15:01\.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01\.0 crc32:[0-9a-f]{8}$' "acs-originals lacks 'acs 0000:15:01.0 0x220 0x001d <devpath>'"
	expect_grep "$rec" '^acs 0000:17:00\.0 0xf24 0x001d /sys/devices/pci0000:15/0000:15:01\.0/0000:16:00\.0/0000:17:00\.0 crc32:[0-9a-f]{8}$' "acs-originals lacks 'acs 0000:17:00.0 0xf24 0x001d <devpath>'"
	expect_sealed "$rec"
	expect_no_grep "$rec" '17:02\.0|01:00\.0|00:01\.0' "acs-originals names a port that was not written"
else
	fail "no $rec after apply"
fi
[ -f "$R/run/hostprep/report.json" ] || fail "no report.json after apply"
[ "$(stat -c %a "$R/run/hostprep/report.json" 2>/dev/null)" = 644 ] || fail "report.json is not 0644"
# the independent reader agrees
v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s 0000:17:00.0 ECAP_ACS+0x6.w)
[ "$v" = 0011 ] || fail "setpci reads $v at 17:00.0 after apply, want 0011"
v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s 0000:17:02.0 ECAP_ACS+0x6.w)
[ "$v" = 001d ] || fail "setpci reads $v at the NIC port 17:02.0, want 001d (not selected)"

# a second apply changes nothing (compared with the tree after the first)
cp -a "$R" "$T/after1"
hp apply
expect_rc 0
expect_tree_same "$T/after1"
cmp -s "$R/run/hostprep/acs-originals" "$T/after1/run/hostprep/acs-originals" ||
	fail "second apply changed acs-originals"

# revert: byte-identical to pristine, the record gone
hp revert
expect_rc 0
expect_tree_same
[ -e "$rec" ] && fail "acs-originals still exists after revert"
hp check
expect_rc 1
