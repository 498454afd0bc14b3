# The shipped vendor rule ([ACS:gpu-paths] in /usr/lib/hostprep/hostprep.conf:
# Select=upstream:class:0200 ... , the ACS-capable ports above every NIC) with
# only a site drop-in switching Apply on, as the vendor config's own comment
# tells operators to do. In a real kernel: the root port above a NIC, the
# root port above a switch with NICs (the emulated switch ports have no ACS),
# not the empty root port, nothing for the port without ACS.
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
	assert_acs 0000:00:02.0 0011 "setpci: root port above a NIC"
	assert_acs 0000:00:03.0 0011 "setpci: root port above a switch with NICs"
	assert_acs 0000:00:04.0 001d "setpci: empty root port untouched"
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	run_cmd hostprep status --json
	local js=$OUT
	assert_json "$js" .ready true "report: ready"
	assert_json "$js" '[.results[] | select(.check == "acs") | .object] | sort | join(" ")' \
		"0000:00:02.0 0000:00:03.0" "report: acs results for the ports above NICs"
	assert_acs_results_match_setpci "$js"
	run_cmd hostprep config
	assert_match "$OUT" "50-site\.conf" "hostprep config shows the drop-in"
}
