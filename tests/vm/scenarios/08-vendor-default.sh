# The shipped vendor rule ([ACS:gpu-paths] in /usr/lib/hostprep/hostprep.conf) with only
# a site drop-in switching Apply on, as the vendor config's own comment tells operators
# to do. Since issue 18 the rule is the least change: p2p: pairs of GPUs/accelerators
# with each other and with NICs, never a root port. This guest has NICs and no GPU, so
# the rule selects nothing: every root port keeps the kernel's ACS word, including the
# one above the NIC (before, upstream: opened it, the management NIC's port too).
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU
	$(qemu_rootport_nic 2) $(qemu_switch 3 2) $(qemu_rootport 4)
	$(qemu_rootport_nic 5 e1000e disable-acs=on)"
HOSTPREP_CONF_PATH=/etc/hostprep/hostprep.conf.d/50-site.conf
HOSTPREP_CONF='[Host]
Apply=yes'

guest_check() {
	assert_booted_service
	assert_eq "$(acs_ports | tr '\n' ' ')" "0000:00:02.0 0000:00:03.0 0000:00:04.0 " \
		"oracle: ACS-capable devices"
	assert_acs 0000:00:02.0 001d "setpci: root port above a NIC untouched (no GPU, no p2p pair)"
	assert_acs 0000:00:03.0 001d "setpci: root port above a switch with NICs untouched"
	assert_acs 0000:00:04.0 001d "setpci: empty root port untouched"
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	run_cmd hostprep status --json
	local js=$OUT
	assert_json "$js" .ready true "report: ready"
	assert_json "$js" '[.results[] | select(.check == "acs") | .object] | join(" ")' \
		"rule gpu-paths" "report: one acs result, for the rule itself"
	assert_match "$(printf '%s' "$js" | jq -r '.results[] | select(.check == "acs") | .actual')" \
		'selects no port' "report: the rule selects no port on a host without GPUs"
	run_cmd hostprep config
	assert_match "$OUT" "50-site\.conf" "hostprep config shows the drop-in"
}
