# The hwloc oracle can fail: each way topology --json could be wrong on a real machine is
# caught (a Vector Engine filed as a NIC, an HCA dropped, a PIX pair called PXB, a wrong
# NUMA node, the hop below the unlisted bridge lost, a hop under a bridge that is not
# above its device).
need_tool lstopo-no-graphics lspci
. "$HERE/real/lib.sh"
must_fail() { # FIXTURE WHAT JQ-FILTER
	jq "$3" "$T/good.json" >"$T/bad.json" || { fail "$1: jq $3"; return; }
	python3 "$HERE/hwloc_oracle.py" "$R" "$T/bad.json" >"$T/oracle" 2>&1 &&
		fail "$1: the oracle accepts $2"
	[ -s "$T/oracle" ] || fail "$1: the oracle failed on $2 without saying why"
}
realroot vector-engines
hp --json topology
cp "$T/out" "$T/good.json"
python3 "$HERE/hwloc_oracle.py" "$R" "$T/good.json" >/dev/null || fail "the unedited JSON fails"
must_fail vector-engines "a Vector Engine as a NIC" '.devices[0].kind = "nic"'
must_fail vector-engines "GPU0-GPU1 as PXB" '.matrix[0][1] = "PXB"'
must_fail vector-engines "the hop below 0000:5f:03.0 lost" 'del(.links[] | select(.device == "0000:60:00.0"))'
must_fail vector-engines "an unlisted port not named so" '(.links[] | select(.device == "0000:60:00.0")) |= del(.unlisted)'
must_fail vector-engines "a hop under the wrong port" '(.links[] | select(.device == "0000:1b:00.0")).port = "0000:3c:04.0"'
must_fail vector-engines "a wrong CPU list" '.devices[0].cpulist = "0-7"'
realroot qlogic-4socket
hp --json topology
cp "$T/out" "$T/good.json"
must_fail qlogic-4socket "the QLogic HCA dropped" 'del(.devices[] | select(.address == "0000:43:00.0"))'
realroot xeonphi-mlx4
hp --json topology
cp "$T/out" "$T/good.json"
must_fail xeonphi-mlx4 "the Xeon Phi on node 0" '(.devices[] | select(.address == "0000:83:00.0")).numa_node = 0'
