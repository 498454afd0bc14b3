# A real kernel with an emulated PCIe switch, IOMMU on: root port 00:02.0 ->
# x3130-upstream -> two xio3130-downstream ports, an NVMe controller (class 0108,
# standing in for a GPU through [Topology] Accelerators=) under one and an e1000e
# (the NIC) under the other. Oracles: lspci -t / sysfs for the tree, setpci for ACS.
# - hostprep topology puts the pair at PIX below that switch and names its two
#   downstream ports. QEMU 7.2 (bookworm) gives xio3130-downstream no ACS capability
#   (setpci cannot find it), so the path is direct: topology says so.
# - [ACS:pair] Select=p2p:class:0108~class:0200 touches no root port: 00:02.0 keeps
#   the kernel's 0x001d, while the same pair with upstream: plans 00:02.0.
# Link speed/width per hop is the link feature's; see tests/vm/README.md.
QEMU_MACHINE=kernel-irqchip=split
# a loaded TCG host can fail the IO-APIC timer check with interrupt remapping (panic)
KERNEL_ARGS=no_timer_check
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport 2)
	-device x3130-upstream,id=up2,bus=rp2
	-device xio3130-downstream,id=sw2_1,bus=up2,chassis=21,slot=1
	-device xio3130-downstream,id=sw2_2,bus=up2,chassis=22,slot=2
	-device nvme,id=nvme0,serial=hostprep0,bus=sw2_1
	$(qemu_nic sw2_2 e1000e)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Topology]
Accelerators=class:0108
NICs=class:0200

[ACS:pair]
Select=p2p:class:0108~class:0200'

# parent BDF of a PCI function, from its sysfs path
vm_parent() { basename "$(dirname "$(readlink -f "/sys/bus/pci/devices/$1")")"; }

guest_check() {
	local t0 nvme nic dn1 dn2 up rp
	t0=$(date +%s)
	assert_booted_service
	nvme=$(lspci -D -n -d ::0108 | awk 'NR == 1 { print $1 }')
	nic=$(lspci -D -n -d 8086:10d3 | awk 'NR == 1 { print $1 }')
	assert_ne "$nvme" "" "lspci finds the NVMe controller"
	assert_ne "$nic" "" "lspci finds the e1000e"
	dn1=$(vm_parent "$nvme")
	dn2=$(vm_parent "$nic")
	up=$(vm_parent "$dn1")
	rp=$(vm_parent "$up")
	note "tree (lspci -t): $(lspci -t | tr '\n' ' ')"
	assert_eq "$(vm_parent "$dn2")" "$up" "sysfs: both downstream ports hang off one switch upstream port"
	assert_eq "$rp" 0000:00:02.0 "sysfs: the switch is below root port 00:02.0"
	assert_ne "$dn1" "$dn2" "sysfs: the endpoints are below different downstream ports"
	# oracle: the ACS capabilities as lspci sees them
	assert_eq "$(acs_ports | tr '\n' ' ')" "0000:00:02.0 " "lspci: only the root port has ACS (QEMU 7.2's xio3130 ports have none)"
	assert_acs 0000:00:02.0 001d "setpci: the p2p rule left the root port at the kernel's 0x001d"

	run_cmd hostprep --no-color topology
	assert_eq "$RC" 0 "hostprep topology: exit status"
	assert_match "$OUT" "GPU0 +X +PIX" "topology: the pair is PIX (one switch)"
	assert_match "$OUT" "GPU0 \\($nvme\\) ↔ NIC0 \\([^)]*\\) PIX: direct" "topology: no ACS on the switch ports, so the path is direct"
	run_cmd hostprep --json topology
	assert_eq "$RC" 0 "hostprep --json topology: exit status"
	note "topology json pairs: $(jq -c '.pairs' <<<"$OUT" | head -c 600)"
	assert_json "$OUT" '[.pairs[] | select(.a == "GPU0" and .b == "NIC0") | .ports[] | .address + " " + .acs] | join(",")' \
		"$dn1 none,$dn2 none" "topology names the pair's two downstream ports (lspci -t), without ACS (setpci)"

	# the least change vs upstream: on the same tree upstream: plans the root port
	printf '[ACS:gpu-paths]\nEnabled=no\n[ACS:up]\nSelect=upstream:class:0108\n' >/tmp/up.conf
	run_cmd hostprep --config /tmp/up.conf --json apply --dry-run
	assert_json "$OUT" '[.plan.ports[].address] | join(" ")' 0000:00:02.0 "upstream: plans the root port 00:02.0"
	run_cmd hostprep --json apply --dry-run
	assert_json "$OUT" '[.plan.ports[].address] | join(" ")' "" "p2p: plans no port (no ACS in the switch), no root port"
	assert_json "$OUT" '.plan.idle_rules | join(" ")' pair "p2p: the rule is reported idle"
	note "p2p scenario checks took $(($(date +%s) - t0)) s"
}
