# One vanishing device must not blind hostprep to every other one (issue 6 item 11):
# a dangling sys/bus/pci/devices entry of an unrelated NVMe (its directory is gone),
# or a device directory without a config file, leaves the 12 GPU-path ports planned,
# written and verified; revert still restores them; a selected device that failed is
# reported by name, never dropped.
ALL_PORTS="15:01.0 17:00.0 17:01.0 37:01.0 39:00.0 39:01.0 97:01.0 99:00.0 99:01.0 b7:01.0 b9:00.0 b9:01.0"
NVME=sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0

expect_all_written() {
	local p
	for p in $ALL_PORTS; do
		[ "$(peek16 "0000:$p" "$(acs_off "$p")+6")" = 0011 ] || fail "$1: 0000:$p not written"
	done
}
acs_off() {
	case $1 in 15:01.0 | 37:01.0 | 97:01.0 | b7:01.0) echo 0x220 ;; *) echo 0xf24 ;; esac; }

# 1. dangling entry (the NVMe's directory vanished, its bus link stays)
newroot dgx8
useconf gpu-p2p
rm -rf "${R:?}/$NVME" "${REF:?}/$NVME"
hp --json check
expect_rc 1
n=$(jqo '[.results[] | select(.check=="acs" and (.object|test("^0000:")))] | length')
[ "$n" = 12 ] || fail "dangling NVMe entry: want 12 acs port results, got $n"
expect_no_grep out 'cannot enumerate' "one dangling entry fails the whole enumeration"
hp apply
expect_rc 0
expect_all_written "apply with a dangling entry"
hp revert
expect_rc 0
expect_tree_same

# 2. revert after the device vanished between apply and revert
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
rm -rf "${R:?}/$NVME" "${REF:?}/$NVME"
hp revert
expect_rc 0
expect_tree_same

# 3. a device directory without config (NVMe), and an explicit selection of it
newroot dgx8
useconf gpu-p2p
rm -f "$R/$NVME/config" "$REF/$NVME/config"
printf '[ACS:nvme]\nSelect=0000:01:00.0\n' >"$T/nvme.conf"
install -d "$R/etc/hostprep/hostprep.conf.d" "$REF/etc/hostprep/hostprep.conf.d"
cp "$T/nvme.conf" "$R/etc/hostprep/hostprep.conf.d/50-nvme.conf"
cp "$T/nvme.conf" "$REF/etc/hostprep/hostprep.conf.d/50-nvme.conf"
hp --json check
expect_rc 1
n=$(jqo '[.results[] | select(.check=="acs" and (.object|test("^0000:")))] | length')
[ "$n" = 13 ] || fail "device without config: want 13 acs port results (12 + the NVMe), got $n"
v=$(jqo '.results[] | select(.check=="acs" and .object=="0000:01:00.0") | "\(.verdict) \(.actual)"')
case $v in fail*gone* | unknown*gone*) ;; *) fail "selected device without config: want fail/unknown 'gone', got '$v'" ;; esac
hp apply --dry-run
expect_rc 0
expect_grep out '0000:01:00\.0.*gone' "the dry run does not name the selected device that is gone"
hp apply
expect_all_written "apply with a device without config"
hp revert
expect_rc 0
expect_tree_same
