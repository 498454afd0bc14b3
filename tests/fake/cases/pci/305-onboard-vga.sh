# Onboard graphics (hp-es1000: ATI ES1000 1002:515e, class 0300, conventional PCI without any
# capability, behind the ICH's subtractive-decode bridge 00:1e.0, 128 MiB BAR) is no GPU;
# each piece of evidence alone keeps it out: the legacy bridge (with a 256 MiB BAR), a bridge
# without the PCI Express capability, the ES1000's own missing capability, or the small BAR.
# With all of them gone (a PCIe bridge, the ES1000 on PCIe, 256 MiB) it is a GPU, and
# nvidia-smi's index still counts only the NVIDIA functions (the ES1000 sorts first, has no
# index; the Teslas stay 0, 1, 2). A BAR that cannot be read decides nothing; a missing PCI
# Express capability still does (every edge: 433-onboard-vga-nocaps).
V=0000:01:03.0
kind() { # EXPECTED WHAT
	hp --json topology
	expect_rc 0
	local got
	got=$(jq -r --arg a "$V" '[.devices[] | select(.address == $a) | .kind][0] // "none"' "$T/out")
	[ "$got" = "$1" ] || fail "$2: the ES1000 is $got, expected $1"
}
edit() { python3 "$HERE/real/edit.py" "$R" "$@"; }
newroot hp-es1000
kind none "as built (legacy bridge, no capability, 128 MiB)"
jq -e '[.gpu_map.gpus[] | [.pci, .index]] == [["0000:06:00.0",0],["0000:11:00.0",1],["0000:14:00.0",2]]' \
	"$T/out" >/dev/null || fail "nvidia-smi indexes: $(jq -c '.gpu_map.gpus' "$T/out")"
edit bar0 "$V" 0x10000000
edit caps "$V" pcie:0
edit caps 0000:00:1e.0 pcie:4
kind none "legacy bridge, 256 MiB"
edit prog-if 0000:00:1e.0 0x00
kind gpu "PCIe bridge, PCIe, 256 MiB"
jq -e '[.gpu_map.gpus[] | [.pci, .index]] ==
	[["0000:01:03.0",null],["0000:06:00.0",0],["0000:11:00.0",1],["0000:14:00.0",2]]' \
	"$T/out" >/dev/null || fail "an AMD display shifted nvidia-smi's index: $(jq -c '.gpu_map.gpus' "$T/out")"
hp topology
expect_grep out '^  -     0000:01:03\.0 ' "the ES1000 without an index in the text table"
expect_grep out '^  0     0000:06:00\.0 ' "the first Tesla as index 0"
edit caps 0000:00:1e.0 pm
kind none "a bridge without PCIe, 256 MiB"
edit caps 0000:00:1e.0 pcie:4
edit caps "$V" pm
kind none "the ES1000 without PCIe, 256 MiB"
edit caps "$V" pcie:0
edit bar0 "$V" 0x0fffffff
kind none "PCIe, 256 MiB - 1"
edit bar0 "$V" 0x8000000
kind none "PCIe, 128 MiB"
rm "$(realpath "$R/sys/bus/pci/devices/$V")/resource"
kind gpu "PCIe, resource unreadable"
edit caps "$V" none
kind none "no capability at all, resource unreadable"
