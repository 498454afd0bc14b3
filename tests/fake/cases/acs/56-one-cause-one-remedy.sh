# Issue 6 item 18: one cause, one remedy.
# Under lockdown (EPERM), the acs result of a port whose write failed carries the write's
# cause and remedy, never "hotplug"; acs.cmdline does not call the runtime write the only
# way. After an intended revert, acs results say the values were restored on purpose.
# revert with nothing recorded says so (one skip); a revert for a gone device names it
# and says what to do with its line.
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do echo "none [integrity] confidentiality" >"$d/sys/kernel/security/lockdown"; done
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO")
hp --json apply
HP_ENV=()
expect_rc 1
expect_tree_same
w=$(jqo '.results[] | select(.check == "acs.write" and .object == "0000:15:01.0") | .remedy')
a=$(jqo '.results[] | select(.check == "acs" and .object == "0000:15:01.0") | .remedy')
[ -n "$w" ] && [ "$w" = "$a" ] || fail "acs and acs.write give different remedies for 15:01.0: '$a' vs '$w'"
[ "$(jqo '[.results[] | select(.check == "acs") | .remedy | select(test("hotplug"))] | length')" = 0 ] ||
	fail "an acs result blames hotplug under lockdown"
jqo '.results[] | select(.check == "acs.cmdline") | .actual' | grep -q 'only way' &&
	fail "acs.cmdline says the runtime write is the only way while it is refused"
# the same on a 6.11+ kernel: the cmdline warn must not blame hotplug for a write never made
for d in "$R" "$REF"; do echo 6.12.0-1-amd64 >"$d/proc/sys/kernel/osrelease"; done
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO")
hp --json apply
HP_ENV=()
expect_rc 1
w=$(jqo '.results[] | select(.check == "acs.write" and .object == "0000:17:00.0") | .remedy')
a=$(jqo '.results[] | select(.check == "acs" and .object == "0000:17:00.0") | .remedy')
[ -n "$w" ] && [ "$w" = "$a" ] || fail "6.12: acs and acs.write remedies differ: '$a' vs '$w'"
jqo '.results[] | select(.check == "acs.cmdline") | .actual' | grep -q 'hotplug' &&
	fail "6.12: acs.cmdline blames hotplug for a write the kernel refused"
rm -f "$R/run/hostprep/acs-originals"

# an intended revert is no drift
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
hp --json revert
expect_rc 0
[ "$(jqo '[.results[] | select(.check == "acs" and .verdict == "fail")] | length')" = 12 ] || fail "revert: not 12 acs fails"
[ "$(jqo '[.results[] | select(.check == "acs") | .remedy | select(test("hotplug"))] | length')" = 0 ] ||
	fail "after revert an acs result blames hotplug"
[ "$(jqo '[.results[] | select(.check == "acs") | .remedy | select(test("restored on purpose.*hostprep apply"))] | length')" = 12 ] ||
	fail "after revert the acs results do not say the values were restored on purpose"

# nothing recorded: one acs.revert skip for the record, exit 0
hp --json revert
expect_rc 0
[ "$(jqo '[.results[] | select(.check == "acs.revert")] | length')" = 1 ] || fail "nothing recorded: not exactly one acs.revert result"
[ "$(jqo '.results[] | select(.check == "acs.revert") | "\(.object) \(.verdict)"')" = "record skip" ] || fail "nothing recorded: not 'record skip'"
jqo '.results[] | select(.check == "acs.revert") | .actual' | grep -q 'nothing recorded' || fail "nothing recorded: does not say so"

# a device that is gone: named, and what to do with its line
mkdir -p "$R/run/hostprep"
seal "acs 0000:5e:00.0 0xf24 0x001d /sys/devices/pci0000:5d/0000:5d:01.0/0000:5e:00.0" >"$R/run/hostprep/acs-originals"
cp "$R/run/hostprep/acs-originals" "$T/rec"
hp --json revert
expect_rc 1
expect_tree_same
cmp -s "$R/run/hostprep/acs-originals" "$T/rec" || fail "the line of a gone device was not kept"
r=$(jqo '.results[] | select(.check == "acs.revert") | "\(.object) \(.verdict) \(.actual) | \(.remedy)"')
grep -q '^0000:5e:00\.0 fail .*0000:5e:00\.0 is gone.*/sys/devices/pci0000:5d/0000:5d:01\.0/0000:5e:00\.0' <<<"$r" || fail "gone device not named: $r"
grep -q 'revert again when the device is back.*delete the line once the device is decommissioned' <<<"$r" || fail "no advice for the gone device's line: $r"
