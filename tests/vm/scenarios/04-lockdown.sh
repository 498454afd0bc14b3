# Lockdown: under lockdown=integrity the kernel refuses config-space writes
# (EPERM; setpci still exits 0). hostprep must report the write as failed and
# the host as not ready. Two independent judgements: the setpci value, and
# hostprep's verdicts (a hostprep that skipped its read-back would be caught
# by the second, one that lied about the hardware by the first).
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
KERNEL_ARGS="lockdown=integrity"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0'

guest_check() {
	assert_match "$(cat /sys/kernel/security/lockdown 2>&1)" '\[integrity\]' "kernel lockdown is integrity"
	assert_booted_service
	# oracle 1: the hardware value is unchanged
	assert_acs 0000:00:02.0 001d "setpci: selected port still has the kernel's value"
	assert_acs 0000:00:03.0 001d "setpci: unselected port"

	# judgement 2: hostprep did not claim success
	assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"
	run_cmd hostprep status --json
	local js=$OUT
	assert_json "$js" .ready false "report: not ready"
	assert_json "$js" '[.results[] | select((.check == "acs" or .check == "acs.write") and .object == "0000:00:02.0" and .verdict == "fail")] | length > 0' \
		true "report: a fail verdict for acs/acs.write on 0000:00:02.0"
	assert_json "$js" '[.results[] | select((.check == "acs" or .check == "acs.write") and .object == "0000:00:02.0" and .verdict == "pass")] | length' \
		0 "report: no pass verdict for the port that could not be written"
	assert_match "$(jq -r '.results[] | select(.check == "acs.write") | "\(.actual) \(.remedy)"' <<<"$js")" \
		'EPERM|[Oo]peration not permitted|[Ll]ockdown' "report: the write failure says EPERM/lockdown"
	assert_acs_results_match_setpci "$js"
	assert_rc 1 "hostprep apply by hand still fails" hostprep apply
	assert_rc 1 "hostprep check" hostprep check
	assert_acs 0000:00:02.0 001d "setpci: still unchanged"

	# the oracle itself: a direct write is refused too, while setpci exits 0
	assert_rc 0 "setpci write exits 0 under lockdown" setpci -s 0000:00:03.0 ECAP_ACS+0x6.w=0011
	assert_acs 0000:00:03.0 001d "setpci: the kernel refused the write"
}
