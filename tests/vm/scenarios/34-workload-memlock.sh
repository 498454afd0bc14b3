# Workload prerequisites: a dummy container runtime, containerd.service with
# LimitMEMLOCK=8M, installed and started at boot. Oracles: systemd's own
# LimitMEMLOCK property and the kernel's limit of the running process
# (/proc/PID/limits). hostprep (MinMemlock=infinity) fails naming the unit and
# a drop-in; after a drop-in LimitMEMLOCK=infinity + daemon-reload the unit
# says infinity but the running process keeps 8M: hostprep fails asking for a
# restart; after the restart the oracles say unlimited and hostprep passes. kubelet/docker/crio are not
# loaded here: no results for them, or skips.
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Wait=0

[Workload]
MinMemlock=infinity'

guest_prep() {
	prep_file /etc/systemd/system/containerd.service \
		'[Unit]' 'Description=vmtest dummy container runtime (LimitMEMLOCK=8M)' \
		'[Service]' 'Type=exec' 'ExecStart=/bin/sleep infinity' 'LimitMEMLOCK=8M' \
		'[Install]' 'WantedBy=multi-user.target'
	mkdir -p /etc/systemd/system/multi-user.target.wants
	ln -sf /etc/systemd/system/containerd.service /etc/systemd/system/multi-user.target.wants/
}

# memlock_of_main UNIT: the kernel's "Max locked memory" soft limit of the unit's main process
memlock_of_main() {
	local pid
	pid=$(unit_prop "$1" MainPID)
	awk '/^Max locked memory/ { print $4 }' "/proc/$pid/limits" 2>/dev/null
}

guest_check() {
	local js u
	assert_eq "$(unit_prop containerd.service ActiveState)" active "containerd.service (dummy) runs"
	assert_eq "$(unit_prop containerd.service LimitMEMLOCK)" 8388608 "systemd: containerd LimitMEMLOCK"
	assert_eq "$(memlock_of_main containerd.service)" 8388608 "kernel: /proc/PID/limits of containerd"
	for u in kubelet.service docker.service crio.service; do
		assert_eq "$(unit_prop $u LoadState)" not-found "$u is not installed"
	done

	assert_rc 1 "hostprep check, LimitMEMLOCK=8M" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" workload.memlock containerd.service fail "workload.memlock containerd.service"
	assert_hp_text "$js" workload.memlock containerd.service actual '8M|8388608|8 ?MiB' \
		"actual names the 8M limit"
	assert_hp_text "$js" workload.memlock containerd.service remedy 'containerd\.service\.d/[^ ]+\.conf' \
		"remedy names the drop-in"
	assert_hp_text "$js" workload.memlock containerd.service remedy 'LimitMEMLOCK' \
		"remedy says what the drop-in sets (LimitMEMLOCK)"
	for u in kubelet.service docker.service crio.service; do
		case $(hp_verdict "$js" workload.memlock $u) in
		'<none>' | skip) ok "no verdict against the absent $u" ;;
		*) fail "a verdict against the absent $u: $(hp_verdict "$js" workload.memlock $u)" ;;
		esac
	done

	# the fix an admin applies
	mkdir -p /etc/systemd/system/containerd.service.d
	printf '[Service]\nLimitMEMLOCK=infinity\n' >/etc/systemd/system/containerd.service.d/50-memlock.conf
	systemctl daemon-reload
	# reloaded, not restarted: the unit says infinity, the running process keeps 8M
	assert_eq "$(unit_prop containerd.service LimitMEMLOCK)" infinity "systemd: LimitMEMLOCK after daemon-reload"
	assert_eq "$(memlock_of_main containerd.service)" 8388608 "kernel: still 8M before the restart"
	assert_rc 1 "hostprep check, reloaded but not restarted" hostprep check --json
	assert_hp "$OUT" workload.memlock containerd.service fail "workload.memlock before the restart"
	assert_hp_text "$OUT" workload.memlock containerd.service actual 'MainPID [0-9]+\) has 8M' \
		"actual names the running process's 8M"
	assert_hp_text "$OUT" workload.memlock containerd.service remedy '^systemctl restart containerd\.service' \
		"remedy restarts containerd"
	systemctl restart containerd.service
	assert_eq "$(unit_prop containerd.service LimitMEMLOCK)" infinity "systemd: containerd LimitMEMLOCK after the drop-in"
	assert_eq "$(memlock_of_main containerd.service)" unlimited "kernel: /proc/PID/limits after the restart"
	assert_rc 0 "hostprep check, LimitMEMLOCK=infinity" hostprep check --json
	hp_issue8_results "$OUT"
	assert_hp "$OUT" workload.memlock containerd.service pass "workload.memlock after the drop-in"
}
