# The topology view reads each function's config file in one open: an endpoint whose own
# ACS a path can end at (two functions of one device, a device beside a bridge) has its
# capabilities read while the scan holds the file open, not in a second open by
# topo_load_caps(). Oracle: strace's opens of every config file (2socket and l40-amd
# have such endpoints: the binary before this opened two config files twice on each).
need_tool strace
# LeakSanitizer cannot run under ptrace (its fatal error is the sanitizer exit status)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
opened_twice() {
	grep -o '"[^"]*/config"' "$T/strace" | sort | uniq -c | awk '$1 > 1 {print $2}' | tr '\n' ' '
}
for fx in 2socket l40-amd dgx8; do
	newroot "$fx"
	strace -f -qq -o "$T/strace" -e trace=openat,openat2 \
		"$BIN" --root "$R" --no-color topology >"$T/out" 2>"$T/err" ||
		fail "$fx: topology exited $?"
	[ -z "$(opened_twice)" ] || fail "$fx: topology opened twice: $(opened_twice)"
	[ "$(grep -c '/config"' "$T/strace")" -gt 10 ] || fail "$fx: no config opens traced"
	# apply with nothing to write (every ACS bit left): it publishes gpus.json, p2p.json
	printf '[Host]\nApply=yes\n\n[ACS:paths]\nMask=xxxxxxx\nSelect=upstream:10de:*\n' \
		>"$R/etc/hostprep/hostprep.conf"
	strace -f -qq -o "$T/strace" -e trace=openat,openat2 \
		"$BIN" --root "$R" --no-color apply >"$T/out" 2>"$T/err"
	[ -e "$R/run/hostprep/p2p.json" ] || fail "$fx: apply published no p2p.json"
	[ -z "$(opened_twice)" ] || fail "$fx: apply (gpus.json, p2p.json) opened twice: $(opened_twice)"
done
true
