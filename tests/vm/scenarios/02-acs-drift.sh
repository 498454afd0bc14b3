# Drift: remove + rescan of a selected root port makes the kernel write
# ACSCtl 0x001d again. `hostprep check` must see it (exit 1, fail naming the
# port); `hostprep apply` fixes it. Oracle: setpci.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU
	$(qemu_rootport_nic 2) $(qemu_rootport_nic 3) $(qemu_rootport_nic 4) $(qemu_rootport_nic 5)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0 0000:00:04.0'

# The drift here is for hostprep's commands to find and fix: switch off the
# automatic re-apply (udev rule -> hostprep-reapply.service, scenario 46),
# which would otherwise fix it within seconds of the rescan.
guest_prep() {
	mkdir -p /etc/systemd/system
	ln -sf /dev/null /etc/systemd/system/hostprep-reapply.service
}

guest_check() {
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	assert_acs 0000:00:02.0 0011 "after boot: selected port"
	assert_acs 0000:00:04.0 0011 "after boot: selected port"

	pci_remove_rescan 0000:00:02.0
	assert_acs 0000:00:02.0 001d "after remove+rescan the kernel's value is back (drift)"
	assert_acs 0000:00:04.0 0011 "the other selected port is untouched"

	assert_rc 1 "hostprep check sees the drift" hostprep check
	assert_match "$OUT$ERR" "0000:00:02\.0" "check output names the drifted port"
	assert_match "$(grep -i '0000:00:02\.0' <<<"$OUT")" "[Ff][Aa][Ii][Ll]" "check output fails that port"
	run_cmd hostprep check --json
	assert_eq "$RC" 1 "hostprep check --json: exit status"
	assert_eq "$(hp_verdict "$OUT" acs 0000:00:02.0)" fail "check --json: acs verdict of drifted port"
	assert_eq "$(hp_verdict "$OUT" acs 0000:00:04.0)" pass "check --json: acs verdict of the other port"
	assert_match "$(json_result "$OUT" acs 0000:00:02.0 actual)" "^0x001d" "check --json: actual shows 0x001d"
	assert_json "$OUT" .ready false "check --json: not ready"
	assert_acs 0000:00:02.0 001d "check is read-only"

	assert_rc 0 "hostprep apply fixes the drift" hostprep apply
	assert_acs 0000:00:02.0 0011 "after apply: drifted port fixed"
	assert_acs 0000:00:04.0 0011 "after apply: other selected port"
	assert_acs 0000:00:03.0 001d "after apply: unselected port untouched"
	assert_acs 0000:00:05.0 001d "after apply: unselected port untouched"
	assert_rc 0 "hostprep check after re-apply" hostprep check
}
