# The Ansible role for real (issue 21), part 1: Debian 12's ansible-core in
# the guest, local connection, the role as the .deb ships it (taken out of
# the package file with dpkg-deb -x; nothing of hostprep on the disk at boot).
# - converge: the role installs the .deb from the file, places 50-site.conf
#   (Apply=yes, an [ACS:nics] rule for both root ports) validated, enables
#   the unit (not started), runs 'hostprep apply' (the handler): setpci
#   shows 0x0011 on both ports; the facts are the published report;
# - idempotence: a second run reports changed=0 and runs no apply; the
#   report is not rewritten.
# Check mode and a refused drop-in: 72. (Two boots: each ansible-playbook run
# takes about a minute under TCG.)
HOSTPREP_INSTALL=deb
# (about 4 min of TCG on an idle host; each ansible-playbook run is 1-2 min)
TIMEOUT=360
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
# the site drop-in the role places (the vendor rule selects nothing here: no GPU)
SITE='[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0 0000:00:03.0'

guest_check() {
	local dropin=/etc/hostprep/hostprep.conf.d/50-site.conf report n
	assert_eq "$(command -v hostprep)" "" "fresh guest: no hostprep"
	an_setup || return
	an_write_play site "$SITE"
	note "ACS before: $(acs_snapshot | tr '\n' ' ')"
	assert_acs 0000:00:02.0 001d "setpci 00:02.0 before: the kernel's"

	an_play site
	assert_eq "$RC" 0 "converge: ansible-playbook exit status"
	assert_eq "$(an_recap failed)" 0 "converge: failed=0"
	assert_ne "$(an_recap changed)" 0 "converge: changed>0"
	assert_match "$(dpkg-query -W -f '${Status}' hostprep 2>/dev/null)" 'install ok installed' \
		"converge: the package installed from the file"
	assert_eq "$(head -n1 "$dropin")" "# Ansible managed" "converge: the drop-in placed"
	assert_match "$(cat "$dropin")" '^Apply=yes$' "converge: the drop-in's content"
	assert_eq "$(unit_prop hostprep.service UnitFileState)" enabled "converge: unit enabled"
	assert_eq "$(unit_prop hostprep.service ExecMainStartTimestampMonotonic)" 0 \
		"converge: the role did not start the unit"
	assert_match "$OUT" 'RUNNING HANDLER \[hostprep : Run hostprep apply\]' "converge: the apply handler ran"
	assert_acs 0000:00:02.0 0011 "converge: setpci 00:02.0 written by the apply"
	assert_acs 0000:00:03.0 0011 "converge: setpci 00:03.0 written by the apply"
	local play_out=$OUT
	assert_rc 0 "hostprep status after converge: ready" hostprep status --oneline
	n=$(hostprep status --json | jq '.results | length')
	assert_match "$play_out" "FACTS ready=True results=$n command=apply" "converge: facts = the published report"

	report=$(sha_of /run/hostprep/report.json)
	an_play site
	assert_eq "$RC" 0 "second run: exit status"
	assert_eq "$RECAP" "changed=0 unreachable=0 failed=0" "second run: changed=0"
	assert_no_match "$OUT" 'RUNNING HANDLER' "second run: no apply"
	assert_eq "$(sha_of /run/hostprep/report.json)" "$report" "second run: report not rewritten"
	assert_match "$OUT" "FACTS ready=True results=$n command=apply" "second run: the same facts"
}
