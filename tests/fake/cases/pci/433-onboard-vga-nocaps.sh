# A display controller without the PCI Express capability is conventional PCI: onboard
# graphics, no GPU, even when no BAR size can be read (issue 25). es1000-plain: the ES1000
# behind a plain PCIe bridge, its resource file gone, its header without any capability.
# It was a GPU (the BAR decided nothing, the bridge said nothing) and made GPUs=4 pass with
# three Teslas. Every edge: no capability list at all (decisive even with only the 64 bytes
# an unprivileged reader sees), a list without Express (decisive when the whole list was
# read; 64 bytes of it prove nothing), a list with Express (a GPU: the BAR cannot be read).
# The independent reading is lspci's.
newroot es1000-plain
V=0000:01:03.0
pci() { lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" "$@" 2>/dev/null; }
status() { setpci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -s 01:03.0 STATUS.w 2>/dev/null; }
edit() { python3 "$HERE/real/edit.py" "$R" "$@"; }
# (lspci -vv stops at a function without a resource file: setpci reads the header)
[ $((0x$(status) & 0x10)) = 0 ] || fail "fixture: the ES1000's header has a capability list ($(status))"
pci -vv -s 00:1e.0 | grep -q 'Express (v2) Root Port' || fail "fixture: 00:1e.0 is no PCIe bridge"
[ -e "$(realpath "$R/sys/bus/pci/devices/$V")/resource" ] && fail "fixture: the ES1000's BARs can be read"

# kind EXPECTED WHAT: the ES1000 in the topology, and GPUs= / GPUAddresses= agree
kind() {
	printf '[Inventory]\nGPUs=4\n' >"$R/etc/hostprep/hostprep.conf"
	hp --json topology
	local got
	got=$(jq -r --arg a "$V" '[.devices[] | select(.address == $a) | .kind][0] // "none"' "$T/out")
	[ "$got" = "$1" ] || fail "$2: the ES1000 is $got in the topology, expected $1"
	hp --json check
	got=$(jqo '.results[] | select(.check == "inventory.gpus") | .verdict')
	[ "$got" = "$([ "$1" = gpu ] && echo pass || echo fail)" ] ||
		fail "$2: GPUs=4 with three Teslas: $got ($(jqo '.results[] | select(.check == "inventory.gpus") | .actual'))"
	printf '[Inventory]\nGPUAddresses=%s\n' "$V" >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	got=$(jqo '.results[] | select(.check == "inventory.address") | .verdict')
	[ "$got" = "$([ "$1" = gpu ] && echo pass || echo fail)" ] || fail "$2: GPUAddresses=$V $got"
}
kind none "no capability list"
jqo '.results[] | select(.check == "inventory.address") | .actual' | grep -qx 'not a GPU (1002:515e class 030000)' ||
	fail "no capability list: $(jqo '.results[] | select(.check == "inventory.address") | .actual')"
edit caps "$V" pm
kind none "a capability list without Express"
edit caps "$V" pcie:0
kind gpu "a capability list with Express"
edit caps "$V" none

# Without root: config space cut to the 64-byte header. Status.CapList is in it.
cfg=$(realpath "$R/sys/bus/pci/devices/$V")/config
head -c 64 "$cfg" >"$cfg.64" && mv "$cfg.64" "$cfg"
kind none "no capability list, 64 bytes"
edit caps "$V" pm 2>/dev/null # writes past 64 bytes: the list points where nobody can read
head -c 64 "$cfg" >"$cfg.64" && mv "$cfg.64" "$cfg"
[ $((0x$(status) & 0x10)) = 16 ] && [ "$(stat -c %s "$cfg")" = 64 ] ||
	fail "64 bytes: no list in the header, or more than the header ($(status))"
kind gpu "a list that cannot be read, BARs unread: nothing proven"
true
