# Boot-time apply: with intel-iommu the kernel sets ACSCtl 0x001d on every
# pcie-root-port; hostprep.service (enabled, [Host] Apply=yes) clears
# RR,CR,EC (default mask x0x00xx: 0x001d -> 0x0011) on exactly the two
# selected ports. Oracle: setpci on every ACS-capable device.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU
	$(qemu_rootport_nic 2) $(qemu_rootport_nic 3) $(qemu_rootport_nic 4 e1000e)
	$(qemu_switch 5 2) $(qemu_rootport_nic 6 virtio-net-pci disable-acs=on)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0 00:04.0'
SELECTED="0000:00:02.0 0000:00:04.0"

guest_check() {
	assert_booted_service
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	assert_eq "$(unit_prop hostprep.service ActiveState)" active "oneshot stays active (RemainAfterExit)"

	# oracle: every ACS-capable device, as setpci reads it
	local d want
	for d in $(acs_ports); do
		want=001d
		[[ " $SELECTED " == *" $d "* ]] && want=0011
		assert_acs "$d" "$want" "setpci ACSCtl of $d"
	done
	assert_eq "$(acs_ports | tr '\n' ' ')" \
		"0000:00:02.0 0000:00:03.0 0000:00:04.0 0000:00:05.0 " "ACS-capable ports (no ACS on disable-acs=on or on the switch)"

	run_cmd hostprep status --json
	assert_eq "$RC" 0 "hostprep status --json: exit status"
	local js=$OUT
	assert_json "$js" .ready true "report: ready"
	assert_json "$js" .command apply "report: written by apply"
	assert_json "$js" .apply true "report: apply in effect"
	for d in $SELECTED; do
		assert_eq "$(hp_verdict "$js" acs "$d")" pass "report: acs verdict of $d"
	done
	assert_json "$js" '[.results[] | select(.check == "acs") | .object] | sort | join(" ")' \
		"$SELECTED" "report: acs results only for the selected ports"
	assert_json "$js" '[.results[] | select(.check == "acs.write" and .verdict != "pass")] | length' 0 \
		"report: no failed acs.write"
	assert_acs_results_match_setpci "$js"

	# the originals record (contract: "acs <addr> <offset> <original ctrl> <devpath>")
	run_cmd cat /run/hostprep/acs-originals
	for d in $SELECTED; do
		assert_match "$OUT" "^acs $d 0x148 0x001d /sys/devices/pci0000:00/$d crc32:[0-9a-f]{8}\$" "acs-originals records $d's kernel value"
	done
	assert_eq "$(stat -c %a /run/hostprep/report.json)" 644 "report.json mode"

	assert_rc 0 "hostprep check after apply" hostprep check
}
