# Real machines (tests/fake/real/README.md) and the ES1000 host built from hwloc's XML:
# `hostprep topology` text and JSON against goldens reviewed by hand against the machines'
# parts (0b40 Vector Engines and a Xeon Phi are accelerators with no nvidia-smi index;
# QLogic 0c06 and ConnectX-3 0280 HCAs are NICs; Matrox, ASPEED and ES1000 onboard VGA are
# no GPUs; the Teslas keep nvidia-smi 0-2). Nothing below the root changes.
. "$HERE/real/lib.sh"
for fx in $REAL_FIXTURES hp-es1000; do
	if [ "$fx" = hp-es1000 ]; then newroot "$fx"; else realroot "$fx"; fi
	hp topology
	expect_rc 0
	golden "real-$fx-topology.txt"
	hp --json topology
	expect_rc 0
	golden "real-$fx-topology.json"
	expect_tree_same
done
