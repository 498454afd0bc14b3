# Unprivileged: `hostprep status` works as a normal user; `hostprep check`
# without CAP_SYS_ADMIN cannot read extended config space (libpci sees
# 0xffff) and must say so: verdict "unknown", "needs root" - never a skip
# or "no ACS". The report file written by root stays untouched.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0'

guest_check() {
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	assert_acs 0000:00:02.0 0011 "setpci (root): applied at boot"
	# the oracle as the user: no extended capabilities visible without root
	assert_eq "$(as_user tester setpci -s 0000:00:02.0 ECAP_ACS+0x6.w 2>/dev/null)" "" \
		"oracle: setpci as tester sees no ACS capability"
	local before
	before=$(sha256sum /run/hostprep/report.json)

	assert_rc 0 "hostprep status as tester" as_user tester /usr/bin/hostprep status
	assert_match "$OUT" "0000:00:02\.0" "status as tester shows the port"
	assert_rc 0 "hostprep status --json as tester" as_user tester /usr/bin/hostprep status --json
	assert_json "$OUT" .ready true "status --json as tester: ready (root's boot run)"

	assert_rc 1 "hostprep check --json as tester: not ready" as_user tester /usr/bin/hostprep check --json
	local js=$OUT
	assert_eq "$(hp_verdict "$js" acs 0000:00:02.0)" unknown "check as tester: acs verdict"
	assert_match "$(jq -r '.results[] | select(.check == "acs" and .object == "0000:00:02.0") | "\(.actual) \(.remedy)"' <<<"$js")" \
		"needs root" "check as tester: acs text says needs root"
	assert_json "$js" '[.results[] | select((.check == "acs" or .check == "acs.write") and (.verdict == "skip" or .verdict == "pass"))] | length' \
		0 "check as tester: no acs/acs.write result skipped or passed"
	assert_no_match "$(jq -r '.results[] | select(.check == "acs") | .actual' <<<"$js")" \
		"[Nn]o ACS|absent" "check as tester: never claims the port has no ACS"
	assert_rc 1 "hostprep check (text) as tester" as_user tester /usr/bin/hostprep -v check # -v: the table cuts at 120 columns
	assert_match "$OUT$ERR" "needs root" "check text as tester says needs root"
	assert_eq "$(sha256sum /run/hostprep/report.json)" "$before" "report.json untouched by the user's runs"
	assert_acs 0000:00:02.0 0011 "setpci (root): unchanged"
}
