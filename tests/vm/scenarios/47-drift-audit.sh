# Drift re-apply (issue 9) with the config's Apply=no: the udev rule still
# fires on the rescanned bridge, but hostprep-reapply.service's condition
# skips (the journal says Apply=no) and nothing is written: setpci keeps the
# kernel's 0x001d, the boot report is not replaced.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[ACS:nics]
Select=0000:00:02.0'

guest_check() {
	local before
	assert_booted_service
	assert_acs 0000:00:02.0 001d "after boot: audit only, nothing written"
	before=$(stat -c %Y.%s /run/hostprep/report.json)
	pci_remove_rescan 0000:00:02.0
	assert_acs 0000:00:02.0 001d "remove+rescan: the kernel's value is back"
	wait_until 30 sh -c "journalctl -b -u hostprep-reapply.service -o cat | grep -q 'Apply=no'"
	sleep 3
	run_cmd journalctl -b -o cat -u 'hostprep-reapply@0000:00:02.0.service' -u hostprep-reapply.service
	assert_match "$OUT" "requested by 0000:00:02\.0" "journal: the udev rule fired for the bridge"
	assert_match "$OUT" "skip: \[Host\] Apply=no" "journal: the condition says why nothing runs"
	assert_no_match "$OUT" "hostprep apply on" "hostprep apply did not run"
	assert_acs 0000:00:02.0 001d "setpci: nothing written"
	assert_eq "$(stat -c %Y.%s /run/hostprep/report.json)" "$before" "the boot report was not replaced"
	assert_ne "$(unit_prop hostprep-reapply.service ActiveState)" failed "a skip is not a failure"
}
