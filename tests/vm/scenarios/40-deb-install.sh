# The .deb installed with dpkg in a fresh guest (nothing of hostprep on the
# disk before): installing enables hostprep.service for the next boot and runs
# nothing now (unit never started, no register written: setpci), and the
# catalog is indexed (systemd's dpkg trigger). After a reboot the packaged unit
# ran at boot and applied the /etc config, `hostprep status` works as an
# unprivileged user, and `journalctl -x` shows the catalog's text. The node
# exporter's textfile directory and NFD's features.d exist (as their packages
# make them): the boot run left hostprep.prom and the NFD file there, checked
# in the guest and by promtool on the host (host_check).
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
	# what prometheus-node-exporter and the NFD DaemonSet make; hostprep never creates them
	mkdir -p /var/lib/prometheus/node-exporter /etc/kubernetes/node-feature-discovery/features.d
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
	# the sinks other systems read, written by the boot run
	local prom=/var/lib/prometheus/node-exporter/hostprep.prom
	local nfd=/etc/kubernetes/node-feature-discovery/features.d/hostprep
	run_cmd cat "$prom"
	assert_match "$OUT" '^hostprep_ready 1$' "hostprep.prom: hostprep_ready 1 after the boot run"
	assert_match "$OUT" 'hostprep_check\{check="acs",object="0000:00:02.0",verdict="pass"\} 1' \
		"hostprep.prom: the port's acs result"
	cp "$prom" "$VMT_SHARE/hostprep.prom"
	run_cmd cat "$nfd"
	assert_match "$OUT" '^feature.node.kubernetes.io/hostprep.ready=true$' "NFD features.d: feature.node.kubernetes.io/hostprep.ready=true"
	assert_match "$OUT" '^feature.node.kubernetes.io/hostprep.acs=' "NFD features.d: the acs area"
	cp "$nfd" "$VMT_SHARE/hostprep.nfd"
	assert_eq "$(stat -c %a "$prom") $(stat -c %a "$nfd")" "644 644" "sink files 0644"
}

# On the host: promtool (not in the guest image) validates the exposition format.
host_check() {
	local share=$1
	promtool check metrics <"$share/hostprep.prom" || return 1
	echo "ok - promtool check metrics: hostprep.prom from the guest's boot run"
	grep -Evq '^feature\.node\.kubernetes\.io/[a-z0-9][a-z0-9._-]*=[A-Za-z0-9._-]{0,63}$' "$share/hostprep.nfd" &&
		{ echo "NFD file has a line outside NFD's name=value rules"; return 1; }
	echo "ok - NFD features.d file within NFD's name and value rules"
}
