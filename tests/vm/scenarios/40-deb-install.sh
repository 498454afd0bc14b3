# The .deb installed with dpkg in a fresh guest (nothing of hostprep on the
# disk before): installing enables hostprep.service for the next boot and runs
# nothing now (unit never started, no register written: setpci), and the
# catalog is indexed (systemd's dpkg trigger). After a reboot the packaged unit
# ran at boot and applied the /etc config, `hostprep status` works as an
# unprivileged user, and `journalctl -x` shows the catalog's text.
HOSTPREP_INSTALL=deb
REBOOTS=1
TIMEOUT=180
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='# only the rule below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0'

guest_check() {
	assert_eq "$(command -v hostprep)" "" "fresh guest: no hostprep before dpkg"
	local acs
	acs=$(acs_snapshot)
	assert_match "$acs" "0000:00:02.0 001d" "setpci: the kernel's ACS on the port before"
	assert_rc 0 "dpkg -i $(basename "$(deb_file deb)")" dpkg -i "$(deb_file deb)"
	assert_eq "$(unit_prop hostprep.service UnitFileState)" enabled "installed: enabled for the next boot"
	assert_eq "$(unit_prop hostprep.service ActiveState)" inactive "installed: not started"
	assert_eq "$(unit_prop hostprep.service ExecMainStartTimestampMonotonic)" 0 "installed: never ran"
	assert_eq "$(acs_snapshot)" "$acs" "setpci: installing wrote no ACS register"
	assert_eq "$(test -e /run/hostprep/report.json && echo present)" "" "installed: no report (no run)"
	run_cmd journalctl --list-catalog
	assert_match "$OUT" "^${HOSTPREP_SUMMARY_MESSAGE_ID} hostprep: Host readiness summary" \
		"the catalog is indexed after dpkg -i (trigger ran journalctl --update-catalog)"
	sync
}

guest_check_boot2() {
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service Result)" success "hostprep.service result"
	assert_acs 0000:00:02.0 0011 "setpci: the packaged unit applied the /etc config at boot"
	assert_acs 0000:00:03.0 001d "setpci: the unselected port untouched"
	assert_rc 0 "hostprep status as tester" as_user tester /usr/bin/hostprep status
	assert_match "$OUT" "0000:00:02\.0" "status as tester shows the port"
	run_cmd journalctl -b -x --no-pager -u hostprep.service "MESSAGE_ID=$HOSTPREP_SUMMARY_MESSAGE_ID"
	assert_match "$OUT" "hostprep prepares this server for NCCL/RDMA" "journalctl -x: the catalog text"
	assert_match "$OUT" "hostprep status " "journalctl -x: the catalog's what-to-do lines"
}
