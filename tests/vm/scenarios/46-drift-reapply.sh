# Drift re-apply (issue 9), [Host] Apply=yes: a remove + rescan of a selected
# root port makes the kernel write ACSCtl 0x001d again; the installed udev rule
# (70-hostprep.rules) starts hostprep-reapply@BRIDGE.service, which pulls in
# hostprep-reapply.service (hostprep apply): within seconds setpci shows the
# policy value again, no reboot, no command typed. Only the drifted port is
# written (the other selected port is "already" right). The system-sleep hook
# does the same on resume. The unit's rate limit refuses the 11th run in 5 min.
# Oracles: setpci, journalctl, systemctl's unit properties.
# remove+rescan, the sleep hook and up to 12 applies for the rate limit
TIMEOUT=240
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3) $(qemu_rootport_nic 4)"
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0 0000:00:04.0'

acs_is() { [ "$(acs_ctl "$1")" = "$2" ]; }
# runs of hostprep-reapply.service's main process so far (journal: one
# "hostprep apply on" header per run)
reapply_runs() { journalctl -b -u hostprep-reapply.service -o cat | grep -c '^hostprep apply on'; }

guest_check() {
	local t0 n0 log
	assert_eq "$(unit_prop hostprep.service Result)" success "hostprep.service result"
	assert_acs 0000:00:02.0 0011 "after boot: selected port"
	assert_acs 0000:00:04.0 0011 "after boot: selected port"
	# coldplug "add" events for the bridges came while hostprep.service ran:
	# the condition skips them (the boot run applies); say what happened
	note "reapply runs during boot: $(reapply_runs)"
	n0=$(reapply_runs)

	t0=$EPOCHREALTIME
	pci_remove_rescan 0000:00:02.0
	if wait_until 30 acs_is 0000:00:02.0 0011; then
		ok "remove+rescan: 0000:00:02.0 back to 0x0011 without a command, $(bc_sub "$EPOCHREALTIME" "$t0") s after the rescan"
	else
		fail "remove+rescan: 0000:00:02.0 still $(acs_ctl 0000:00:02.0) 30 s after the rescan"
	fi
	assert_acs 0000:00:04.0 0011 "the other selected port"
	assert_acs 0000:00:03.0 001d "the unselected port untouched"
	wait_until 15 unit_state_not hostprep-reapply.service activating
	run_cmd journalctl -b -o cat -u 'hostprep-reapply@0000:00:02.0.service'
	assert_match "$OUT" "hostprep re-apply requested by 0000:00:02.0" "journal: the request names the bridge"
	log=$(journalctl -b -o cat -u hostprep-reapply.service)
	assert_eq "$(( $(reapply_runs) - n0 ))" 1 "one re-apply run for the rescan"
	assert_match "$log" "re-apply: \[Host\] Apply=yes" "journal: why it ran (condition)"
	assert_match "$log" "acs\.write +0000:00:02\.0 .*0x001d -> 0x0011" "journal: the drifted port was written"
	assert_no_match "$log" "acs\.write +0000:00:04\.0 .*->" "journal: the port that had not drifted was not written"
	assert_eq "$(unit_prop hostprep-reapply.service Result)" success "hostprep-reapply.service result"
	assert_eq "$(unit_prop hostprep-reapply.service ActiveState)" inactive "hostprep-reapply.service is done (not kept active)"
	assert_rc 0 "hostprep check after the re-apply" hostprep check

	# resume: the kernel restores saved PCI state; the sleep hook re-applies
	setpci -s 0000:00:04.0 ECAP_ACS+0x6.w=001d
	assert_acs 0000:00:04.0 001d "drift by hand (as a resume restores it)"
	assert_rc 0 "the system-sleep hook (post suspend)" /usr/lib/systemd/system-sleep/hostprep post suspend
	if wait_until 30 acs_is 0000:00:04.0 0011; then
		ok "after the sleep hook: 0000:00:04.0 back to 0x0011"
	else
		fail "after the sleep hook: 0000:00:04.0 still $(acs_ctl 0000:00:04.0)"
	fi
	assert_match "$(journalctl -b -o cat -u 'hostprep-reapply@resume-suspend.service')" \
		"requested by resume-suspend" "journal: the request says resume"
	assert_rc 0 "the hook does nothing before sleep" /usr/lib/systemd/system-sleep/hostprep pre suspend

	# rate limit: StartLimitBurst=10 in 5 min; the runs so far count
	local i refused=0
	wait_until 15 unit_state_not hostprep-reapply.service activating
	for i in $(seq 1 12); do
		systemctl start hostprep-reapply.service 2>/dev/null || { refused=$i; break; }
	done
	assert_ne "$refused" 0 "the rate limit refuses a start (refused at start $refused of 12)"
	assert_eq "$(unit_prop hostprep-reapply.service Result)" start-limit-hit "hostprep-reapply.service: start-limit-hit"
	assert_match "$(journalctl -b -o cat -u hostprep-reapply.service)" "[Ss]tart request repeated too quickly" \
		"journal: the limit is logged"
}
