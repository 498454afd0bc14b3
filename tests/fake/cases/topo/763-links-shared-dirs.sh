# [Links] reads both ends of each hop from the run's directory of the function (the one
# the scan, AER and the inventory share), not by opening its sysfs tree path again; only
# a function missing from the inventory is read through the tree (fake 304). Oracle:
# strace's directory opens; the judgement is fake 170's.
need_tool strace
# LeakSanitizer cannot run under ptrace (its fatal error is the sanitizer exit status)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot dgx8
useconf links
strace -f -qq -o "$T/strace" -e trace=openat2 \
	"$BIN" --root "$R" --no-color --json check >"$T/out" 2>"$T/err"
[ "$(jqo '[.results[] | select(.check == "pcie.link")] | length')" -ge 12 ] ||
	fail "fewer than 12 pcie.link results: $(jqo -c '[.results[].check] | unique')"
n=$(grep -c '"sys/devices/pci' "$T/strace")
[ "$n" = 0 ] || fail "$n tree-path opens: $(grep -o '"sys/devices/pci[^"]*"' "$T/strace" | head -3 | tr '\n' ' ')"
twice=$(grep -o '"sys/bus/pci/devices/[^"/]*"' "$T/strace" | sort | uniq -c | awk '$1 > 1 {print $2}' | tr '\n' ' ')
[ -z "$twice" ] || fail "device directories opened twice: $twice"
true
