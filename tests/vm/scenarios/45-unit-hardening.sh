# The installed hostprep.service is hardened (issue 9): systemd-analyze
# security of the unit as systemd loaded it scores <= 4.5, and the hardened
# unit still does its work at boot: a config space write (ACS, setpci), the
# report in /run/hostprep, a D-Bus read of another unit's LimitMEMLOCK
# (workload.memlock), and no syscall was refused (no SIGSYS, no audit line).
# The other scenarios (01 ACS, 21 modules, 30 RDMA netlink + verbs, 34 D-Bus)
# run the same unit and cover the rest of what it must still reach.
QEMU_MACHINE=kernel-irqchip=split
# A TCG guest on a loaded host (2 cores, many guests) fails the kernel's early
# check that the timer IRQ comes through the IO-APIC and panics before
# userspace ("timer doesn't work through Interrupt-remapped IO-APIC", or
# "IO-APIC + timer doesn't work!" without an IOMMU; seen at load 20): skip
# that check, it tests QEMU's speed, nothing hostprep touches.
KERNEL_ARGS="no_timer_check"
TIMEOUT=600
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0

[Workload]
MinMemlock=infinity'

# the most the issue allows (systemd-analyze: 0 = locked down, 10 = exposed)
MAX_EXPOSURE=4.5

# The drift here is for hostprep's commands to find and fix: switch off the
# automatic re-apply (udev rule -> hostprep-reapply.service, scenario 46),
# which would otherwise fix it within seconds of the rescan.
guest_prep() {
	mkdir -p /etc/systemd/system
	ln -sf /dev/null /etc/systemd/system/hostprep-reapply.service
	# a workload for MinMemlock= to check at boot: an admin's MinMemlock= with none of
	# MemlockUnits= installed checks nothing and fails (issue 25 §3, fail closed)
	printf '[Unit]\nDescription=dummy workload\n[Service]\nExecStart=/bin/sleep infinity\nLimitMEMLOCK=infinity\n' \
		>/etc/systemd/system/containerd.service
}

# assert_exposure UNIT: systemd-analyze security of UNIT as loaded scores <= MAX_EXPOSURE
assert_exposure() {
	local score
	run_cmd systemd-analyze security --no-pager "$1"
	score=$(sed -n "s/.*Overall exposure level for $1: \([0-9.]*\).*/\1/p" <<<"$OUT")
	if [ -z "$score" ]; then
		fail "systemd-analyze security $1 printed no exposure level"
	elif awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }'; then
		ok "systemd-analyze security $1: exposure $score <= $MAX_EXPOSURE"
	else
		fail "systemd-analyze security $1: exposure $score > $MAX_EXPOSURE"
	fi
}

guest_check() {
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service Result)" success "hostprep.service result under the hardened unit"
	assert_exposure hostprep.service
	# the re-apply request (udev, sleep hook) was 9.6 UNSAFE; it only prints a line
	assert_exposure hostprep-reapply@vmtest.service
	assert_rc 0 "the hardened request unit runs" systemctl start hostprep-reapply@vmtest.service
	assert_eq "$(unit_prop hostprep-reapply@vmtest.service Result)" success "hostprep-reapply@vmtest.service result"
	assert_match "$(journalctl -b -u hostprep-reapply@vmtest.service -o cat)" "re-apply requested by vmtest" \
		"its line is in the journal"
	assert_match "$(unit_prop hostprep.service ReadOnlyPaths)" "(^| )/proc/sys( |$)" "/proc/sys read-only for hostprep"
	assert_eq "$(unit_prop hostprep.service TimeoutStartUSec)" 2min "a start timeout (a oneshot has none by default)"
	# what the hardening must leave: each property as systemd has it loaded
	assert_eq "$(unit_prop hostprep.service ProtectKernelTunables)" no "/sys stays writable (config space)"
	assert_eq "$(unit_prop hostprep.service ProtectKernelModules)" no "module loading stays possible"
	assert_eq "$(unit_prop hostprep.service PrivateDevices)" no "/dev/infiniband stays reachable"
	assert_match "$(unit_prop hostprep.service CapabilityBoundingSet)" "cap_sys_admin" "CAP_SYS_ADMIN kept"
	assert_match "$(unit_prop hostprep.service CapabilityBoundingSet)" "cap_sys_module" "CAP_SYS_MODULE kept"
	assert_match "$(unit_prop hostprep.service RestrictAddressFamilies)" "AF_NETLINK" "AF_NETLINK kept"
	assert_match "$(unit_prop hostprep.service RestrictAddressFamilies)" "AF_UNIX" "AF_UNIX kept"

	# the boot run wrote config space and its report
	assert_acs 0000:00:02.0 0011 "setpci: the hardened boot run wrote ACS"
	assert_acs 0000:00:03.0 001d "setpci: the unselected port untouched"
	assert_eq "$(stat -c %a /run/hostprep/report.json 2>&1)" 644 "report written, world-readable (UMask)"
	assert_no_match "$(journalctl -b -u hostprep.service -o cat)" "SIGSYS|Bad system call|core-dump" \
		"no syscall refused by the filter"

	# a run under the same sandbox, on demand: drift written back, D-Bus read of a
	# unit's LimitMEMLOCK (a dummy workload), the modules path walked
	printf '[Unit]\nDescription=dummy workload\n[Service]\nExecStart=/bin/sleep infinity\nLimitMEMLOCK=8M\n' \
		>/etc/systemd/system/containerd.service
	systemctl daemon-reload
	systemctl start containerd.service
	pci_remove_rescan 0000:00:02.0
	assert_acs 0000:00:02.0 001d "remove+rescan: the kernel's value is back"
	run_cmd systemctl restart hostprep.service
	assert_acs 0000:00:02.0 0011 "setpci: a restart of the hardened unit wrote it again"
	run_cmd hostprep status --json
	assert_hp "$OUT" workload.memlock containerd.service fail \
		"the sandboxed run read containerd's LimitMEMLOCK over D-Bus (8M: fail)"
	assert_no_match "$(journalctl -b -u hostprep.service -o cat)" "SIGSYS|Bad system call|core-dump" \
		"no syscall refused by the filter (after the restart)"
}
