# Revert: `hostprep revert` puts every selected port back to the value the
# kernel had set before hostprep wrote it (0x001d). Oracle: setpci.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU
	$(qemu_rootport_nic 2) $(qemu_rootport_nic 3) $(qemu_rootport_nic 4)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:gpus]
Select=0000:00:02.0

[ACS:nics]
Select=0000:00:03.0'

guest_check() {
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	assert_acs 0000:00:02.0 0011 "after boot: selected port"
	assert_acs 0000:00:03.0 0011 "after boot: selected port"
	assert_acs 0000:00:04.0 001d "after boot: unselected port"
	assert_match "$(cat /run/hostprep/acs-originals 2>&1)" "0000:00:03\.0" "originals recorded"

	assert_rc 0 "hostprep revert" hostprep revert
	assert_acs 0000:00:02.0 001d "after revert: kernel's value back"
	assert_acs 0000:00:03.0 001d "after revert: kernel's value back"
	assert_acs 0000:00:04.0 001d "after revert: unselected port untouched"
	if [ -e /run/hostprep/acs-originals ]; then
		fail "acs-originals still present after a complete revert: $(cat /run/hostprep/acs-originals)"
	else
		ok "acs-originals removed by a complete revert"
	fi
	run_cmd hostprep revert
	assert_acs 0000:00:02.0 001d "a second revert changes nothing"
	assert_ne "$RC" 3 "a second revert is no internal error"

	# and apply works again after a revert
	assert_rc 0 "hostprep apply after revert" hostprep apply
	assert_acs 0000:00:02.0 0011 "re-applied"
	assert_acs 0000:00:03.0 0011 "re-applied"
}
