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

# On a root bus (a VM's): two NIC functions of one device share their slot; the scan finds
# them by address, with no bridge above. Each is the end of the other's path, but the view
# judges pairs with a GPU at one end only: a NIC's own capabilities are read only beside a
# GPU (below).
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

# A GPU beside them in the slot (00:05.2), and NIC 00:05.0 with an ACS capability that
# redirects (Control 0x001d: SV RR CR UF): the pair GPU <-> 00:05.0 ends at the NIC's own
# ACS, which must be read (in a second open: the scan did not ask for a NIC's), or the
# pair would pass as direct. 00:05.1 stays without ACS: its pair with the GPU is direct.
gpu=$(readlink -f "$D/0000:03:00.0")
cp -a "$gpu" "$R/sys/devices/pci0000:00/0000:00:05.2"
ln -s ../../../devices/pci0000:00/0000:00:05.2 "$D/0000:00:05.2"
printf '\015\000\001\000\037\000\035\000' |
	dd of="$R/sys/devices/pci0000:00/0000:00:05.0/config" bs=1 seek=256 conv=notrunc status=none
pair() { # GPU address, NIC address: "p2p ports' acs"
	jqo -r --arg g "$1" --arg n "$2" '(.devices[] | select(.address == $g) | .id) as $a |
		(.devices[] | select(.address == $n) | .id) as $b |
		.pairs[] | select(.a == $a and .b == $b) | "\(.p2p) \([.ports[].acs] | join(","))"'
}
hp --json topology
[ "$(pair 0000:00:05.2 0000:00:05.0)" = "redirected none,known" ] ||
	fail "vm-noacs: GPU <-> NIC with ACS: $(pair 0000:00:05.2 0000:00:05.0)"
[ "$(pair 0000:00:05.2 0000:00:05.1)" = "direct none,none" ] ||
	fail "vm-noacs: GPU <-> NIC without ACS: $(pair 0000:00:05.2 0000:00:05.1)"
true
