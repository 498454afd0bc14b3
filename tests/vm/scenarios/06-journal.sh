# Journal and report file: the boot run (hostprep.service) logs one structured
# entry per result and one summary entry with the summary MESSAGE_ID from
# src/; /run/hostprep/report.json matches `hostprep status --json`.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
# an ACS rule that passes and an IOMMU expectation that fails: mixed verdicts
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[IOMMU]
Expect=passthrough

[ACS:nics]
Select=0000:00:02.0'

guest_check() {
	assert_booted_service
	# read the journal before running hostprep by hand (only the boot run is in it)
	local jr=/tmp/journal.json rep n_res n_jr
	journalctl -u hostprep.service -o json --no-pager >"$jr"
	rep=$(cat /run/hostprep/report.json)
	note "report.json: $(jq -c . <<<"$rep")"
	n_res=$(jq '.results | length' <<<"$rep")
	n_jr=$(jq -s '[.[] | select(.HOSTPREP_CHECK != null)] | length' "$jr")
	assert_eq "$n_jr" "$n_res" "one journal entry per result"
	[ "$n_res" -ge 2 ] && ok "report has $n_res results" || fail "report has only $n_res results"
	local c o v
	while IFS=$'\t' read -r c o v; do
		assert_eq "$(jq -s --arg c "$c" --arg o "$o" --arg v "$v" \
			'[.[] | select(.HOSTPREP_CHECK == $c and .HOSTPREP_OBJECT == $o and .HOSTPREP_VERDICT == $v)] | length' "$jr")" \
			1 "journal entry for $c $o $v"
	done < <(jq -r '.results[] | [.check, .object, .verdict] | @tsv' <<<"$rep")
	assert_eq "$(jq -s '[.[] | select(.HOSTPREP_CHECK == "iommu.mode")][0].PRIORITY' "$jr")" '"3"' \
		"a fail verdict is logged at PRIORITY err"
	local id=${HOSTPREP_SUMMARY_MESSAGE_ID:-}
	if [ -z "$id" ]; then
		fail "HOSTPREP_SUMMARY_MESSAGE_ID not found in src/ on the host"
	else
		assert_eq "$(jq -s --arg id "$id" '[.[] | select(.MESSAGE_ID == $id)] | length' "$jr")" 1 \
			"one summary entry with MESSAGE_ID=$id"
		assert_match "$(jq -rs --arg id "$id" '[.[] | select(.MESSAGE_ID == $id)][0].MESSAGE' "$jr")" \
			"NOT READY" "summary entry says NOT READY"
		assert_match "$(cat /usr/lib/systemd/catalog/*.catalog 2>/dev/null)" "^-- $id" \
			"the installed catalog documents the summary MESSAGE_ID"
	fi

	run_cmd hostprep status --json
	assert_match "$RC" "^[01]$" "hostprep status exit status is 0 or 1"
	assert_eq "$(jq -S -c . <<<"$OUT" | sha256sum | cut -c1-16)" "$(jq -S -c . <<<"$rep" | sha256sum | cut -c1-16)" \
		"report.json matches hostprep status --json (hash of the sorted JSON)"
	assert_json "$rep" .schema 1 "report schema 1"
	assert_json "$rep" .host vmtest "report host"
	assert_json "$rep" '.summary.total == (.results | length)' true "summary total"
	assert_acs_results_match_setpci "$rep"
}
