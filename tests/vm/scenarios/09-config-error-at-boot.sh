# A config error at boot (issue 6 item 7): hostprep.service fails with exit 2,
# touches no hardware, and the report it leaves says why, so `hostprep status`
# (any user) is NOT READY with the file:line - not "has not run", never a stale
# READY. The journal's summary entry says NOT READY too.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2)"
HOSTPREP_CONF_PATH=/etc/hostprep/hostprep.conf.d/50-site.conf
HOSTPREP_CONF='[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0
Mask=x0x00x'

guest_check() {
	assert_booted_service
	assert_eq "$(unit_prop hostprep.service ExecMainStatus)" 2 "hostprep.service exited 2 (config error)"
	assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"
	assert_acs 0000:00:02.0 001d "setpci: nothing written on a config error"
	assert_rc 1 "hostprep status as tester: not ready" as_user tester /usr/bin/hostprep status --json
	local js=$OUT
	assert_json "$js" .ready false "report: not ready"
	assert_json "$js" '.results[0].check' config "report: the result is the config error"
	assert_match "$(jq -r '.results[0].actual' <<<"$js")" '50-site\.conf:6: Mask=' "report names file:line"
	assert_no_match "$ERR" 'has not run|No report' "status does not claim hostprep never ran"
	local summary
	summary=$(journalctl -b -o json --no-pager MESSAGE_ID="$HOSTPREP_SUMMARY_MESSAGE_ID" | tail -n 1)
	assert_match "$(jq -r .MESSAGE <<<"$summary")" 'NOT READY' "journal summary says NOT READY"
}
