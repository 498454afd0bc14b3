# Issue 6 item 2: every record line carries an exact format and a checksum. A truncated
# line (the issue's 'acs 0000:b9:01.0 0xf24 0x00'), a flipped digit, and a 0.1.0 line
# without a checksum are not written back: revert fails (exit 1), keeps them byte-exact,
# restores the rest, and tells the exact setpci for the 0.1.0 line.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
rec=$R/run/hostprep/acs-originals
expect_sealed "$rec"
grep -v -e '^acs 0000:b9:01\.0 ' -e '^acs 0000:99:00\.0 ' -e '^acs 0000:37:01\.0 ' "$rec" >"$T/good"
{
	echo "acs 0000:b9:01.0 0xf24 0x00"
	grep '^acs 0000:99:00\.0 ' "$rec" | sed 's/ 0x001d / 0x000d /'
	echo "acs 0000:37:01.0 0x220 0x001d /sys/devices/pci0000:37/0000:37:01.0"
} >"$T/bad"
cat "$T/good" "$T/bad" >"$rec"
hp -v revert
expect_rc 1
{ seal "hostprep-record 2 lines 3"; cat "$T/bad"; } >"$T/want"
cmp "$rec" "$T/want" || fail "the record after revert is not exactly the three lines it could not use (and its header)"
for a in 0000:b9:01.0 0000:99:00.0 0000:37:01.0; do
	[ "$(peek16 $a $(($(grep -q '^0000:37' <<<"$a" && echo 0x220 || echo 0xf24) + 6)))" = 0011 ] ||
		fail "$a was written from a line that failed its check"
done
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 9 ] || fail "revert restored $(grep -c '^PASS  *acs\.revert' "$T/out") ports, want 9"
expect_grep out 'checksum does not match' "the flipped digit is not reported as a checksum mismatch"
expect_grep out "line [0-9]+ is not a valid acs line.*'acs 0000:b9:01\.0 0xf24 0x00'" "the truncated line is not reported"
expect_grep out 'setpci -s 0000:37:01\.0 ECAP_ACS\+0x6\.w=001d' "the 0.1.0 line does not come with its setpci command"
expect_no_grep out 'PASS +acs\.revert +0000:(b9:01|99:00|37:01)\.0' "a port whose line failed its check is PASS acs.revert"
