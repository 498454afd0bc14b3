# A port whose config space reads all-ones (surprise removal, link down, powered off)
# is "device not responding": FAIL with a remedy, never skipped, never "no ACS
# capability", never dropped from check, never written (issue 6 item 8). Explicitly
# selected or found on the way up from a GPU, it is reported by address.
DEAD=0000:b9:01.0
ffill() { # ffill BDF: the whole config file of BDF reads 0xff, in $R and $REF
	local f
	f=$(cfgpath "$1")
	head -c "$(stat -c %s "$R/$f")" /dev/zero | tr '\0' '\377' >"$R/$f.new"
	cat "$R/$f.new" >"$R/$f" && rm -f "$R/$f.new"
	cp "$R/$f" "$REF/$f"
}
check_dead() { # check_dead WHAT: $T/out is a --json check/apply with $DEAD selected
	local v
	v=$(jqo --arg a "$DEAD" '[.results[] | select(.check=="acs" and .object==$a)] | length')
	[ "$v" = 1 ] || fail "$1: $DEAD has $v acs results, want 1"
	v=$(jqo --arg a "$DEAD" '.results[] | select(.check=="acs" and .object==$a) | .verdict')
	[ "$v" = fail ] || fail "$1: $DEAD verdict is '$v', want fail"
	jqo --arg a "$DEAD" '.results[] | select(.check=="acs" and .object==$a) | .actual' >"$T/actual"
	jqo --arg a "$DEAD" '.results[] | select(.check=="acs" and .object==$a) | .remedy // ""' >"$T/remedy"
	expect_grep "$T/actual" 'not responding' "$1: actual does not say 'not responding'"
	expect_no_grep "$T/actual" '[Nn]o ACS' "$1: a dead port is reported as 'no ACS'"
	expect_grep "$T/remedy" 'dmesg' "$1: remedy does not point at dmesg"
	expect_grep "$T/remedy" "lspci -vv -s $DEAD" "$1: remedy does not give the lspci command"
}

# upstream:10de:* with the port dead (the GPU behind it still answers)
newroot dgx8
useconf gpu-p2p
ffill "$DEAD"
hp --json check
expect_rc 1
check_dead "check, upstream selection"
hp --json apply
expect_rc 1
check_dead "apply, upstream selection"
[ "$(peek16 0000:b9:00.0 0xf2a)" = 0011 ] || fail "the live neighbour 0000:b9:00.0 was not written"
d=$(treediff "$REF" "$R" | grep -c 'b9:01\.0/config')
[ "$d" = 0 ] || fail "apply wrote to the dead port"
hp apply --dry-run
expect_grep out "$DEAD.*not responding" "the dry run does not name the dead port"

# the GPU behind the dead port reads all-ones too (link down): the port is still found
newroot dgx8
useconf gpu-p2p
ffill "$DEAD"
ffill 0000:bb:00.0
hp --json check
expect_rc 1
check_dead "check, port and GPU dead"

# explicit selection by address
newroot dgx8
printf '[Host]\nApply=yes\n[ACS:one]\nSelect=%s\n' "$DEAD" >"$T/one.conf"
ref_private
ffill "$DEAD"
hp --config "$T/one.conf" --json check
expect_rc 1
check_dead "check, explicit selection"
hp --config "$T/one.conf" check
expect_rc 1
expect_no_grep out '^READY' "a dead selected port and READY"
