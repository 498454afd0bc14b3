# hwloc reads the same trees (lstopo-no-graphics -i ROOT/ --whole-io, Debian's hwloc; BAR
# sizes and subtractive decode from lspci): which functions are GPUs/accelerators and NICs,
# the bridges above them (the matrix recomputed from hwloc's tree), NUMA locality, the CPUs
# of each device and the link hops must agree with `topology --json`
# (tests/fake/hwloc_oracle.py). The ES1000 host also with the ES1000 made a GPU (a plain
# PCIe bridge above it, a PCI Express capability, a 256 MiB BAR) and not quite (the same
# without any capability): both readers must follow; and co-processors of the table and
# off it.
need_tool lstopo-no-graphics lspci
. "$HERE/real/lib.sh"
oracle() { # WHAT
	hp --json topology
	expect_rc 0
	python3 "$HERE/hwloc_oracle.py" "$R" "$T/out" >"$T/oracle" 2>&1 ||
		fail "$1: hwloc disagrees: $(head -c 800 "$T/oracle")"
}
for fx in $REAL_FIXTURES; do
	realroot "$fx"
	oracle "$fx"
done
newroot hp-es1000
oracle hp-es1000
python3 "$HERE/real/edit.py" "$R" prog-if 0000:00:1e.0 0x00
python3 "$HERE/real/edit.py" "$R" bar0 0000:01:03.0 0x10000000
oracle "hp-es1000 with the ES1000 behind a plain PCI bridge, 256 MiB"
[ "$(jq -r '[.devices[] | select(.address == "0000:01:03.0") | .kind][0] // "none"' "$T/out")" = none ] ||
	fail "an ES1000 without any capability is a GPU"
python3 "$HERE/real/edit.py" "$R" caps 0000:00:1e.0 pcie:4
python3 "$HERE/real/edit.py" "$R" caps 0000:01:03.0 pcie:0
oracle "hp-es1000 with the ES1000 on PCIe and 256 MiB"
[ "$(jq -r '.devices[] | select(.address == "0000:01:03.0") | .kind' "$T/out")" = gpu ] ||
	fail "the edited ES1000 is not a GPU: the oracle ran on nothing new"

# Co-processors (0b40) and processing accelerators (1200): hostprep's table of ids against
# the oracle's reading of the driver the kernel bound. 04:00.1 (an igb port) made an Intel
# QAT endpoint (qat_4xxx), a Xeon Phi (mic), an unknown 1200 part: both readers follow.
retyped() { # IDS DRIVER KIND
	newroot hp-es1000
	python3 "$HERE/real/edit.py" "$R" ids 0000:04:00.1 "$1"
	python3 "$HERE/real/edit.py" "$R" driver 0000:04:00.1 "$2"
	oracle "hp-es1000 with 04:00.1 $1 ($2)"
	[ "$(jq -r '[.devices[] | select(.address == "0000:04:00.1") | .kind][0] // "none"' "$T/out")" = "$3" ] ||
		fail "04:00.1 as $1 ($2) is not $3"
}
retyped 8086:4940:0b4000 qat_4xxx none
retyped 8086:225c:0b4000 mic gpu
retyped 1234:5678:120000 foo none
