# revert trusts nothing in the record: a line whose offset is not an ACS capability
# on that device, a device that does not exist, and a malformed line are not
# written; revert reports failure (exit 1) and no config byte changes.
newroot dgx8
mkdir -p "$R/run/hostprep"
seal "acs 0000:17:00.0 0x220 0x0000 -" >"$R/run/hostprep/acs-originals"
hp revert
expect_rc 1
expect_tree_same
[ -s "$R/run/hostprep/acs-originals" ] || fail "an incomplete revert (wrong offset) removed the record"
seal "acs 0000:5e:00.0 0xf24 0x001d -" >"$R/run/hostprep/acs-originals"
hp revert
expect_rc 1
expect_tree_same
[ -s "$R/run/hostprep/acs-originals" ] || fail "revert of a vanished device removed the record"
printf '%s\n' "acs 0000:17:00.0 0xf24 banana" >"$R/run/hostprep/acs-originals"
hp revert
case $RC in 1 | 2 | 3) ;; *) fail "revert of a malformed record: exit $RC" ;; esac
expect_tree_same
[ -s "$R/run/hostprep/acs-originals" ] || fail "revert deleted a record it could not read (the original is lost)"
# offset not word-aligned / outside config space, unsealed and sealed
printf '%s\n' "acs 0000:17:00.0 0xfff 0x001d" >"$R/run/hostprep/acs-originals"
hp revert
case $RC in 1 | 2 | 3) ;; *) fail "revert of an offset 0xfff: exit $RC" ;; esac
expect_tree_same
[ -s "$R/run/hostprep/acs-originals" ] || fail "revert deleted a record it could not use (0xfff)"
seal "acs 0000:17:00.0 0xfff 0x001d -" >"$R/run/hostprep/acs-originals"
hp revert
expect_rc 1
expect_tree_same
[ -s "$R/run/hostprep/acs-originals" ] || fail "revert deleted a sealed record it could not use (0xfff)"
# the address now holds another device (hotplug): the recorded sysfs path no longer
# matches, so nothing is written even though ACS sits at the recorded offset
seal "acs 0000:17:00.0 0xf24 0x0000 /sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0" \
	>"$R/run/hostprep/acs-originals"
hp -v revert
expect_rc 1
expect_tree_same
expect_grep "$T/out" 'recorded device /sys/devices/pci0000:37' "revert does not say the device changed"
[ -s "$R/run/hostprep/acs-originals" ] || fail "revert of a replaced device removed the record"
# the same line with the right path is restored
seal "acs 0000:17:00.0 0xf24 0x0000 /sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0" \
	>"$R/run/hostprep/acs-originals"
hp revert
expect_rc 0
[ -e "$R/run/hostprep/acs-originals" ] && fail "a complete revert left the record"
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 00
EOT
printf '\x1d\x00' | dd of="$R/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config" bs=1 seek=$((0xf2a)) conv=notrunc status=none
expect_tree_same
# no record at all: nothing to do, success
rm -f "$R/run/hostprep/acs-originals"
hp revert
expect_rc 0
expect_tree_same
