# The readiness gate end to end (issue 9): a dummy kubelet.service, enabled,
# with the shipped example drop-in (examples/kubelet.service.d/10-hostprep.conf,
# installed under /usr/share/doc/hostprep/examples) copied to
# /etc/systemd/system/kubelet.service.d/. The host is not ready at boot (the
# config expects IOMMU passthrough, the kernel translates): hostprep.service
# fails and kubelet never starts. Once the admin fixes the cause (here: the
# expectation), 'systemctl start kubelet' runs hostprep again and kubelet
# starts. Oracles: systemd's unit properties, the kubelet's own process.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[IOMMU]
Expect=passthrough'

guest_prep() {
	prep_file /usr/local/sbin/kubelet '#!/bin/sh' 'echo "dummy kubelet running"' 'sleep infinity  # no exec: the process keeps the name kubelet'
	chmod 755 /usr/local/sbin/kubelet
	prep_file /etc/systemd/system/kubelet.service \
		'[Unit]' 'Description=vmtest dummy kubelet' \
		'[Service]' 'ExecStart=/usr/local/sbin/kubelet' \
		'[Install]' 'WantedBy=multi-user.target'
	mkdir -p /etc/systemd/system/multi-user.target.wants /etc/systemd/system/kubelet.service.d
	ln -sf /etc/systemd/system/kubelet.service /etc/systemd/system/multi-user.target.wants/
	# the shipped example, as an admin installs it
	cp /usr/share/doc/hostprep/examples/kubelet.service.d/10-hostprep.conf \
		/etc/systemd/system/kubelet.service.d/10-hostprep.conf
}

# kubelet_running: systemd has it active and its process is there
kubelet_running() { [ "$(unit_prop kubelet.service ActiveState)" = active ] && pgrep -f /usr/local/sbin/kubelet >/dev/null; }

guest_check() {
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service ActiveState)" failed "hostprep.service failed at boot (not ready)"
	assert_match "$(unit_prop kubelet.service DropInPaths)" "kubelet\.service\.d/10-hostprep\.conf" \
		"kubelet has the example drop-in"
	assert_match "$(unit_prop kubelet.service Requires)" "hostprep\.service" "kubelet Requires= hostprep.service"
	assert_match "$(unit_prop kubelet.service After)" "hostprep\.service" "kubelet After= hostprep.service"
	assert_ne "$(unit_prop kubelet.service ActiveState)" active "kubelet did not start on a host that is not ready"
	assert_eq "$(unit_prop kubelet.service ExecMainStartTimestampMonotonic)" 0 "kubelet's process never ran"
	if pgrep -f /usr/local/sbin/kubelet >/dev/null; then fail "a kubelet process exists"; else ok "no kubelet process"; fi
	assert_match "$(journalctl -b -o cat -u kubelet.service)" "Dependency failed" "journal: kubelet's dependency failed"

	# still not ready: a manual start fails too (and runs hostprep again)
	run_cmd systemctl start kubelet.service
	assert_ne "$RC" 0 "systemctl start kubelet on a host that is not ready: refused"
	assert_ne "$(unit_prop kubelet.service ActiveState)" active "kubelet still not active"

	# the admin fixes the cause; starting kubelet now passes the gate
	mkdir -p /etc/hostprep/hostprep.conf.d
	printf '[IOMMU]\nExpect=any\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	assert_rc 0 "systemctl start kubelet on a ready host" systemctl start kubelet.service
	assert_eq "$(unit_prop hostprep.service ActiveState)" active "hostprep.service ran again and passed"
	if wait_until 10 kubelet_running; then ok "kubelet is active and its process runs"; else fail "kubelet not running: $(unit_prop kubelet.service ActiveState)"; fi
	assert_rc 0 "hostprep status says ready" hostprep status
}
