# Issue 6 item 5: apply racing revert. Both take the run lock before they read what they
# decide on, so each end state is whole: every selected port written and recorded, or
# every port back and no record. 30 pairs on dgx8, revert started just before apply.
newroot dgx8
useconf gpu-p2p
rec=$R/run/hostprep/acs-originals
ports="0000:15:01.0:220 0000:17:00.0:f24 0000:17:01.0:f24 0000:37:01.0:220 0000:39:00.0:f24 0000:39:01.0:f24
0000:97:01.0:220 0000:99:00.0:f24 0000:99:01.0:f24 0000:b7:01.0:220 0000:b9:00.0:f24 0000:b9:01.0:f24"
state() {
	local p written=0 lines=0
	for p in $ports; do
		[ "$(peek16 "${p%:*}" $((0x${p##*:} + 6)))" = 0011 ] && written=$((written + 1))
	done
	[ -f "$rec" ] && lines=$(grep -c '^acs ' "$rec")
	echo "$written/$lines"
}
mixed=0
for i in $(seq 30); do
	[ "$(state)" = 12/12 ] || "$BIN" --root "$R" apply >/dev/null 2>&1
	[ "$(state)" = 12/12 ] || { fail "round $i: setup apply did not apply ($(state))"; break; }
	"$BIN" --root "$R" revert >/dev/null 2>&1 &
	a=$!
	"$BIN" --root "$R" apply >/dev/null 2>&1 &
	b=$!
	wait $a $b
	s=$(state)
	case $s in
	12/12 | 0/0) ;;
	*)
		fail "round $i: ports written/record lines = $s, want 12/12 or 0/0"
		mixed=$((mixed + 1))
		;;
	esac
	[ $mixed -ge 3 ] && break
done
# whatever the last state, revert brings the pristine tree back
hp revert
expect_rc 0
expect_tree_same
