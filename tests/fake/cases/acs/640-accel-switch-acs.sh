# Accelerators beyond NVIDIA GPUs (issue 29 §2): on accel-plx (two Gaudi2, two Arc Pro
# B70, a ConnectX-7 and a QuickAssist adapter below one PLX switch, ACS redirect on) the
# vendor's [ACS:gpu-paths] selects by the table of known accelerators (accel), not by
# class: the five downstream ports of the accelerators and the NIC, never the QAT
# adapter's 02:05.0 (class 0b40) nor the root port. ExpectP2P=accel~accel names each
# redirected pair with its ports; the Arc pair's remedy (and the acs results of the Arc
# cards' ports) name the documented all-ones corruption, no other pair's does. After
# apply every pair is direct and nothing names the risk any more.
vendor() { for d in "$R" "$REF"; do install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$d/usr/lib/hostprep/hostprep.conf"; done; }
newroot accel-plx
useconf accel
vendor
hp --json check
expect_rc 1
jqo '[.results[] | select(.check=="acs" and (.object|startswith("0000:"))) | .object] | join(" ")' >"$T/ports"
[ "$(cat "$T/ports")" = "0000:02:00.0 0000:02:01.0 0000:02:02.0 0000:02:03.0 0000:02:04.0" ] ||
	fail "the vendor rule should select the 5 accelerator/NIC ports, not: $(cat "$T/ports")"
# the risk: on the Arc cards' ports and the Arc pair only
jqo '[.results[] | select((.remedy // "") | test("all-ones")) | .object] | join(",")' >"$T/risk"
[ "$(cat "$T/risk")" = "0000:02:02.0,0000:02:03.0,GPU2 (0000:05:00.0) ↔ GPU3 (0000:06:00.0)" ] ||
	fail "the all-ones risk should be named for the Arc ports and the Arc pair only: $(cat "$T/risk")"
jqo '.results[] | select(.object=="GPU2 (0000:05:00.0) ↔ GPU3 (0000:06:00.0)") | .remedy' >"$T/arc"
grep -q 'intel/compute-runtime issue 935' "$T/arc" || fail "the Arc remedy cites no source: $(cat "$T/arc")"
# every accelerator pair and each with the NIC: redirected, at both ingress ports
[ "$(jqo '[.results[] | select(.check=="topology.p2p" and .verdict=="fail")] | length')" = 10 ] ||
	fail "want 10 redirected pairs (6 accel~accel, 4 accel~NIC)"
jqo '.results[] | select(.object=="GPU0 (0000:03:00.0) ↔ GPU1 (0000:04:00.0)") | .actual' >"$T/g"
grep -q '^redirected at 0000:02:00.0 (RR CR on), 0000:02:01.0 (RR CR on) (PIX' "$T/g" ||
	fail "Gaudi2 pair: $(cat "$T/g")"
# QAT: neither endpoint nor selected, on the root bus (RCiEP) or behind the switch
hp topology
expect_no_grep out '0000:08:00\.0|0000:00:02\.0' "QAT listed as a GPU/accelerator"
expect_grep out 'GPU3: 0000:06:00\.0'
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:02.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:03.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:04.0/config +0xf2a: 1d -> 11
EOT
# the independent reader: the Arc ports cleared, the QAT adapter's port as the kernel left it
for p in 02:02.0 02:03.0; do
	v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s "0000:$p" ECAP_ACS+0x6.w)
	[ "$v" = 0011 ] || fail "setpci reads $v at $p after apply, want 0011"
done
v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s 0000:02:05.0 ECAP_ACS+0x6.w)
[ "$v" = 001d ] || fail "setpci reads $v at the QAT adapter's port 02:05.0, want 001d"
hp --json check
jqo '[.results[] | select(.check=="topology.p2p") | .verdict] | unique | join(",")' >"$T/v"
[ "$(cat "$T/v")" = pass ] || fail "after apply every pair should pass, got $(cat "$T/v")"
[ "$(jqo '[.results[] | select((.remedy // "") | test("all-ones"))] | length')" = 0 ] ||
	fail "the risk is still named after apply"
hp revert
expect_rc 0
expect_tree_same
