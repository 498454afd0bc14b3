# The readiness gate end to end (issues 9, 18, 25): a dummy kubelet.service,
# enabled, with the shipped example drop-in (Wants= + After= hostprep.service,
# ExecCondition=+hostprep gate %n; installed under
# /usr/share/doc/hostprep/examples) copied to /etc/systemd/system/kubelet.service.d/.
# Boot 1, not ready (the config expects IOMMU passthrough, the guest has no
# IOMMU): kubelet is skipped, never runs. The admin fixes the cause:
# 'systemctl start kubelet' runs hostprep again and kubelet starts. Then a
# config change that fails and 'systemctl restart hostprep' (what the docs say
# to run): hostprep fails, kubelet keeps running untouched (same PID, same
# invocation), while a unit gated with Requisite= instead is stopped by the
# same restart (why the example does not use it). A root 'check --config X'
# leaves the published report, metrics and NFD file alone. The gate holds back
# only the first start of a boot: with the host NOT READY again, 'systemctl
# restart kubelet' (a package upgrade, an Ansible handler) starts it again
# (it passed in this boot: /run/hostprep/gate/kubelet.service = this boot's
# ID; its journal says so); with that record removed the same restart is held
# back. Boot 2, ready: kubelet starts at boot, after hostprep, and the record
# is boot 2's ID. Oracles: systemd's unit properties, the kubelet's own
# process, sha256 of the published files, /proc/sys/kernel/random/boot_id.
# No emulated IOMMU: Expect=passthrough fails on a host without one just as on
# one that translates, and a loaded TCG guest with interrupt remapping now and
# then panics at boot ("timer doesn't work through Interrupt-remapped IO-APIC").
# no_timer_check: a TCG guest on a loaded host fails the kernel's early timer
# IRQ check and panics before userspace ("IO-APIC + timer doesn't work!"):
# it tests QEMU's speed, nothing hostprep touches (see 45).
KERNEL_ARGS="no_timer_check"
QEMU_DEVICES="$(qemu_rootport_nic 2)"
REBOOTS=1
TIMEOUT=480
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[IOMMU]
Expect=passthrough'

guest_prep() {
	local u
	for u in kubelet requisite-demo; do
		prep_file /usr/local/sbin/$u '#!/bin/sh' "echo \"dummy $u running\"" \
			'sleep infinity  # no exec: the process keeps the name'
		chmod 755 /usr/local/sbin/$u
	done
	prep_file /etc/systemd/system/kubelet.service \
		'[Unit]' 'Description=vmtest dummy kubelet' \
		'[Service]' 'ExecStart=/usr/local/sbin/kubelet' \
		'[Install]' 'WantedBy=multi-user.target'
	mkdir -p /etc/systemd/system/multi-user.target.wants /etc/systemd/system/kubelet.service.d \
		/var/lib/prometheus/node-exporter /etc/kubernetes/node-feature-discovery/features.d
	ln -sf /etc/systemd/system/kubelet.service /etc/systemd/system/multi-user.target.wants/
	# the shipped example, as an admin installs it
	cp /usr/share/doc/hostprep/examples/kubelet.service.d/10-hostprep.conf \
		/etc/systemd/system/kubelet.service.d/10-hostprep.conf
	# the contrast: a gate with Requisite= (not started at boot; started by hand)
	prep_file /etc/systemd/system/requisite-demo.service \
		'[Unit]' 'Description=vmtest: a workload gated with Requisite=' \
		'Requisite=hostprep.service' 'After=hostprep.service' \
		'[Service]' 'ExecStart=/usr/local/sbin/requisite-demo'
}

# kubelet_running: systemd has it active and its process is there
kubelet_running() { [ "$(unit_prop kubelet.service ActiveState)" = active ] && pgrep -f /usr/local/sbin/kubelet >/dev/null; }
published() { cat /run/hostprep/report.json /var/lib/prometheus/node-exporter/hostprep.prom \
	/etc/kubernetes/node-feature-discovery/features.d/hostprep 2>&1 | sha256sum; }

guest_check() {
	local pid inv before t0
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service ActiveState)" failed "hostprep.service failed at boot (not ready)"
	assert_match "$(unit_prop kubelet.service DropInPaths)" "kubelet\.service\.d/10-hostprep\.conf" \
		"kubelet has the example drop-in"
	assert_match "$(unit_prop kubelet.service Wants)" "hostprep\.service" "kubelet Wants= hostprep.service"
	assert_no_match "$(unit_prop kubelet.service Requires) $(unit_prop kubelet.service Requisite) $(unit_prop kubelet.service BindsTo)" \
		"hostprep" "no Requires=/Requisite=/BindsTo= on hostprep (they propagate stop and restart)"
	assert_match "$(unit_prop kubelet.service After)" "hostprep\.service" "kubelet After= hostprep.service"
	assert_match "$(unit_prop kubelet.service ExecCondition)" "hostprep gate kubelet\.service" \
		"kubelet ExecCondition= hostprep gate, %n expanded"

	# (a) not ready at boot: kubelet skipped, its process never ran
	assert_ne "$(unit_prop kubelet.service ActiveState)" active "kubelet did not start on a host that is not ready"
	assert_eq "$(unit_prop kubelet.service Result)" exec-condition "kubelet skipped by its ExecCondition (not failed)"
	assert_eq "$(unit_prop kubelet.service ExecMainStartTimestampMonotonic)" 0 "kubelet's process never ran"
	if pgrep -f /usr/local/sbin/kubelet >/dev/null; then fail "a kubelet process exists"; else ok "no kubelet process"; fi
	assert_match "$(journalctl -b -o cat -u kubelet.service)" "NOT READY: iommu\.mode:config" \
		"kubelet's journal names the failing check in one line"
	assert_eq "$(ls -A /run/hostprep/gate 2>/dev/null)" "" "a held-back start is not recorded"

	# still not ready: a manual start is skipped too (and runs hostprep again)
	run_cmd systemctl start kubelet.service
	assert_ne "$(unit_prop kubelet.service ActiveState)" active "systemctl start kubelet on a host that is not ready: still not active"

	# the admin fixes the cause; starting kubelet now passes the gate
	mkdir -p /etc/hostprep/hostprep.conf.d
	printf '[IOMMU]\nExpect=any\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	assert_rc 0 "systemctl start kubelet on a ready host" systemctl start kubelet.service
	assert_eq "$(unit_prop hostprep.service ActiveState)" active "hostprep.service ran again (Wants=) and passed"
	if wait_until 10 kubelet_running; then ok "kubelet is active and its process runs"; else fail "kubelet not running: $(unit_prop kubelet.service ActiveState)"; fi
	assert_rc 0 "hostprep status says ready" hostprep status
	assert_eq "$(cat /run/hostprep/gate/kubelet.service 2>&1)" "$(cat /proc/sys/kernel/random/boot_id)" \
		"the gate recorded kubelet's pass with this boot's ID"

	# exposure: an admin trying a config as root does not publish its verdict
	before=$(published)
	printf '[IOMMU]\nExpect=passthrough\n' >/tmp/try.conf
	assert_rc 1 "root hostprep check --config (a failing try)" hostprep --config /tmp/try.conf check
	assert_eq "$(published)" "$before" "report.json, hostprep.prom and the NFD file byte-identical after check --config"
	assert_rc 0 "hostprep status still ready" hostprep status

	# (c) a config change that fails + restart of hostprep: kubelet untouched
	pid=$(unit_prop kubelet.service MainPID)
	inv=$(unit_prop kubelet.service InvocationID)
	assert_rc 0 "the Requisite= contrast unit starts on a ready host" systemctl start requisite-demo.service
	printf '[IOMMU]\nExpect=passthrough\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	run_cmd systemctl restart hostprep.service
	assert_ne "$RC" 0 "systemctl restart hostprep with a failing config fails"
	assert_eq "$(unit_prop hostprep.service ActiveState)" failed "hostprep.service failed"
	assert_rc 1 "hostprep status: not ready (the restart published)" hostprep status
	assert_eq "$(unit_prop kubelet.service ActiveState)" active "kubelet still active after restart hostprep"
	assert_eq "$(unit_prop kubelet.service MainPID)" "$pid" "kubelet's MainPID unchanged ($pid)"
	assert_eq "$(unit_prop kubelet.service InvocationID)" "$inv" "kubelet not restarted (same InvocationID)"
	if kill -0 "$pid" 2>/dev/null; then ok "kubelet process $pid alive"; else fail "kubelet process $pid gone"; fi
	assert_ne "$(unit_prop requisite-demo.service ActiveState)" active \
		"contrast: the Requisite= unit was stopped by the restart and stays down"
	# a re-apply that passes again: kubelet still untouched
	printf '[IOMMU]\nExpect=any\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	assert_rc 0 "systemctl restart hostprep (fixed config)" systemctl restart hostprep.service
	assert_eq "$(unit_prop kubelet.service MainPID)" "$pid" "kubelet's MainPID unchanged after a passing restart"

	# (d) NOT READY again, and kubelet is restarted (a package upgrade, an Ansible
	# handler): it passed the gate in this boot, so it starts again, and says why
	printf '[IOMMU]\nExpect=passthrough\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	run_cmd systemctl restart hostprep.service
	assert_rc 1 "hostprep status: not ready again" hostprep status
	t0=$(date +%s)
	sleep 1 # the journal lines of this restart only (--since has whole seconds)
	assert_rc 0 "systemctl restart kubelet on a host that is NOT READY" systemctl restart kubelet.service
	if wait_until 10 kubelet_running; then ok "kubelet runs after its restart while NOT READY"; else fail "kubelet not running after its restart: $(unit_prop kubelet.service ActiveState) $(unit_prop kubelet.service Result)"; fi
	assert_ne "$(unit_prop kubelet.service MainPID)" "$pid" "kubelet was restarted (a new MainPID)"
	assert_ne "$(unit_prop kubelet.service InvocationID)" "$inv" "kubelet was restarted (a new invocation)"
	assert_eq "$(unit_prop kubelet.service Result)" success "kubelet's restart: Result=success"
	run_cmd journalctl -b -o cat -u kubelet.service --since "@$((t0 + 1))"
	assert_match "$OUT" "^NOT READY: iommu\.mode:config" "the restart's gate logged the verdict"
	assert_match "$OUT" "kubelet\.service already passed this gate in this boot" "... and why kubelet starts anyway"
	# the record removed: the gate holds back the next start again
	rm /run/hostprep/gate/kubelet.service
	run_cmd systemctl restart kubelet.service
	assert_ne "$(unit_prop kubelet.service ActiveState)" active "record removed: a restart while NOT READY is held back"
	assert_eq "$(unit_prop kubelet.service Result)" exec-condition "record removed: skipped by its ExecCondition"
	if pgrep -f /usr/local/sbin/kubelet >/dev/null; then fail "a kubelet process exists"; else ok "no kubelet process"; fi
	# boot 2 starts ready (the fixed drop-in back; nothing restarted)
	printf '[IOMMU]\nExpect=any\n' >/etc/hostprep/hostprep.conf.d/50-site.conf
	cat /proc/sys/kernel/random/boot_id >/var/lib/vmtest-boot1-id
}

# (b) boot 2, ready at boot (the fixed drop-in stays): kubelet started at boot, after hostprep
guest_check_boot2() {
	local t_hp t_kube
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service ActiveState)" active "boot 2: hostprep.service active (ready)"
	if wait_until 20 kubelet_running; then ok "boot 2: kubelet started at boot"; else fail "boot 2: kubelet not running: $(unit_prop kubelet.service ActiveState) $(unit_prop kubelet.service Result)"; fi
	t_hp=$(unit_prop hostprep.service ActiveEnterTimestampMonotonic)
	t_kube=$(unit_prop kubelet.service ExecMainStartTimestampMonotonic)
	if [ "${t_kube:-0}" -gt "${t_hp:-0}" ]; then ok "boot 2: kubelet started after hostprep's verdict"; else fail "boot 2: kubelet $t_kube not after hostprep $t_hp"; fi
	assert_eq "$(cat /run/hostprep/gate/kubelet.service 2>&1)" "$(cat /proc/sys/kernel/random/boot_id)" \
		"boot 2: the gate's record is boot 2's ID"
	assert_ne "$(cat /proc/sys/kernel/random/boot_id)" "$(cat /var/lib/vmtest-boot1-id 2>&1)" "boot 2 has another boot ID than boot 1"
}
