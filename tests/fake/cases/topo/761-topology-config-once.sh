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

# On a root bus (a VM's): two NIC functions of one device, each the end of the other's
# path, share their slot; the scan finds them by address, with no bridge above.
newroot vm-noacs
D=$R/sys/bus/pci/devices
nic=$(readlink -f "$D/0000:01:00.0")
for f in 0 1; do
	cp -a "$nic" "$R/sys/devices/pci0000:00/0000:00:05.$f"
	rm -rf "$R/sys/devices/pci0000:00/0000:00:05.$f/net"
	ln -s ../../../devices/pci0000:00/0000:00:05.$f "$D/0000:00:05.$f"
done
hp --json topology
[ "$(jqo -c '[.devices[] | select(.address | startswith("0000:00:05.")) | .kind]')" = '["nic","nic"]' ] ||
	fail "vm-noacs: the root-bus NIC functions: $(jqo -c '[.devices[].address]')"
strace -f -qq -o "$T/strace" -e trace=openat,openat2 \
	"$BIN" --root "$R" --no-color topology >"$T/out" 2>"$T/err" || fail "vm-noacs: topology exited $?"
[ -z "$(opened_twice)" ] || fail "vm-noacs: topology opened twice: $(opened_twice)"
true
