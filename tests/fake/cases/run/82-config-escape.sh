# issue 6 item 14: no raw control bytes, ESC, CR, DEL or invalid UTF-8 from a
# config file reach stderr; an indented line is reported as an unsupported
# continuation line, not as "expected '='... not ':'".
newroot dgx8
printf '[Host]\nApply=\033]0;owned\007\033[2J\rREADY\n[IOMMU]\nExp\177ect=\377\n[ACS:g\033[31mp]\n[ACS:gpu]\nSelect=class:03\302\2331m\n' >"$T/evil.conf"
for mode in apply validate; do
	if [ $mode = apply ]; then hp --config "$T/evil.conf" apply; else hp config --validate "$T/evil.conf"; fi
	expect_rc 2
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177\200-\237\377]')" "$T/err"; then
		fail "$mode: raw control or non-UTF-8 bytes on stderr: $(od -c "$T/err" | head -5)"
	fi
	expect_grep err "evil\.conf:2: .*'\\\\x1b\]0;owned\\\\x07\\\\x1b\[2J\\\\rREADY'" "$mode: value not shown escaped"
	expect_grep err "evil\.conf:4: unknown key 'Exp\\\\x7fect'" "$mode: key not shown escaped"
	expect_grep err 'evil\.conf:5: invalid rule name .g\\x1b\[31mp.' "$mode: section name not shown escaped"
	expect_grep err "evil\.conf:7: .*'class:03\\\\xc2\\\\x9b1m'" "$mode: selector not shown escaped"
done
# a file name with an escape sequence in it
cp "$T/evil.conf" "$T/$(printf 'x\033[8my.conf')"
hp --config "$T/$(printf 'x\033[8my.conf')" check
expect_rc 2
expect_grep err 'x\\x1b\[8my\.conf:2:' "file name not shown escaped"
if grep -q "$(printf '\033')" "$T/err"; then fail "raw ESC on stderr from a file name"; fi
# continuation line after Select=
printf '[ACS:gpu]\nSelect=upstream:class:0302\n    upstream:class:0300\n' >"$T/cont.conf"
hp config --validate "$T/cont.conf"
expect_rc 2
expect_grep err "cont\.conf:3: continuation lines are not supported: put the value on the 'Select=' line \(line 2\) or repeat 'Select='" "continuation line not explained"
expect_no_grep err "not ':'" "continuation reported as a ':' separator"
