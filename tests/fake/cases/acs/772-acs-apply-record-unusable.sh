# apply records a port's original only where no line of the record may already hold it:
# a damaged line (its checksum fails) or an intact line that is no valid acs line may be
# that port's, and recording the value read now could record hostprep's own, which
# revert would then "restore". And a line for this address names the device it was taken
# from: another device there now (hotplug, a renumbered bus) has no original recorded,
# and revert refuses the line: neither port is written. (An audit found both written.)
newroot dgx8
REC=$R/run/hostprep/acs-originals
CFG=$R/sys/devices/pci0000:15/0000:15:01.0/config
ctl() { od -An -tx2 -j $((0x226)) -N2 "$CFG" | tr -d ' '; }
conf() { # the config, in the tree and its reference
	ref_private
	printf "$1" >"$R/etc/hostprep/hostprep.conf"
	printf "$1" >"$REF/etc/hostprep/hostprep.conf"
}
printf '[Host]\nApply=yes\n[ACS:a]\nSelect=upstream:10de:*\n' >"$R/etc/hostprep/hostprep.conf"
hp apply
expect_rc 0
[ "$(ctl)" = 0011 ] || fail "15:01.0 not applied: $(ctl)"
# one byte of 15:01.0's line flips (0x001d -> 0x001c), its seal stays: damaged
sed -i 's/^\(acs 0000:15:01\.0 0x220 \)0x001d/\10x001c/' "$REC"
cp "$REC" "$T/rec.before"
printf '[Host]\nApply=yes\n[ACS:a]\nSelect=upstream:10de:*\nMask=0000000\n' >"$R/etc/hostprep/hostprep.conf"
hp --json apply
expect_rc 1
# the ports whose lines are intact are written; 15:01.0's original may be the damaged line
[ "$(jqo '.results[] | select(.check == "acs.write" and .object == "0000:15:01.0") | .actual')" != "${X:=}" ] &&
	jqo '.results[] | select(.check == "acs.write" and .object == "0000:15:01.0") | .actual' |
	grep -q '^not written: record line 2 checksum does not match.*may hold this port.s original' ||
	fail "15:01.0, not recorded intact, is written beside a damaged line"
[ "$(jqo '[.results[] | select(.check == "acs.write" and .verdict == "pass")] | length')" = 11 ] ||
	fail "the ports recorded intact are not written"
cmp -s "$REC" "$T/rec.before" || fail "the record changed: $(diff "$T/rec.before" "$REC" | head -3)"
[ "$(ctl)" = 0011 ] || fail "15:01.0 written: $(ctl)"
# an intact line that is no valid acs line: the same
newroot dgx8
mkdir -p "$R/run/hostprep"
seal "acs 0000:15:01.0 0x220 banana -" >"$REC"
reseal "$REC"
cp "$REC" "$T/rec.before"
conf '[Host]\nApply=yes\n[ACS:a]\nSelect=0000:15:01.0\n'
hp apply
expect_rc 1
expect_grep out 'not written: record line 2 is not a valid acs line'
cmp -s "$REC" "$T/rec.before" || fail "the record changed beside an invalid line"
expect_tree_same
# a line for 17:00.0 taken from another device than the one there now
newroot dgx8
mkdir -p "$R/run/hostprep"
seal "acs 0000:17:00.0 0xf24 0x0015 /sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0" >"$REC"
reseal "$REC"
conf '[Host]\nApply=yes\n[ACS:a]\nSelect=0000:17:00.0\n'
hp --json apply
expect_rc 1
jqo '.results[] | select(.check == "acs.write" and .object == "0000:17:00.0") | .actual' |
	grep -q '^not written: the record holds the original of another device at this address (/sys/devices/pci0000:37/.*), not of /sys/devices/pci0000:15/' ||
	fail "a device whose original is not recorded is written"
expect_tree_same
# the line of the device there now: applied, and reverted to its original
seal "acs 0000:17:00.0 0xf24 0x001d /sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0" >"$REC"
reseal "$REC"
hp apply
expect_rc 0
expect_tree_diff <<EOT
$(cfgpath 0000:17:00.0) +0xf2a: 1d -> 11
EOT
hp revert
expect_rc 0
expect_tree_same
