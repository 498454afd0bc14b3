# Mainline-like erdma (the kernel tree's: no parameters) is the one modprobe
# resolves. hostprep.service (Load=yes, compat_mode=Y) loads it - the kernel
# ignores the unknown parameter and the load succeeds - and must fail
# module.param saying which driver to install, never "compat mode on".
# Oracles: modinfo (no parm, kernel/ path), /sys/module/erdma/parameters
# absent, the kernel's "unknown parameter" line.
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Module:erdma]
Load=yes
Parameter=compat_mode=Y'

guest_prep() {
	prep_select_mainline_erdma
}

guest_check() {
	local js
	assert_match "$(modinfo_field erdma filename)" '/kernel/drivers/infiniband/hw/erdma/erdma\.ko$' "modinfo: erdma resolves to the kernel tree's"
	assert_eq "$(modinfo_field erdma parm)" "" "modinfo: mainline erdma declares no parameters"
	assert_booted_service
	assert_mod_state erdma live
	assert_eq "$(kmsg_count 'vmtest erdma mainline: loaded')" 1 "kernel log: mainline erdma loaded"
	assert_eq "$(test -e /sys/module/erdma/parameters/compat_mode && echo present || echo absent)" absent \
		"/sys/module/erdma/parameters/compat_mode does not exist"
	assert_eq "$(kmsg_count "erdma: unknown parameter 'compat_mode' ignored")" 1 \
		"kernel log: compat_mode=Y was passed and ignored"
	assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"

	run_cmd hostprep status --json
	js=$OUT
	hp_module_results "$js"
	assert_json "$js" .ready false "boot report: not ready"
	assert_hp "$js" module.param erdma.compat_mode fail
	assert_hp_text "$js" module.param erdma.compat_mode actual '[Nn]o (such )?parameter|not a parameter|declares no|has no' \
		"module.param actual: the loaded erdma has no compat_mode"
	assert_hp_text "$js" module.param erdma.compat_mode remedy '[Dd]river|[Aa]libaba|out-of-tree' \
		"module.param remedy says which driver to install"
	assert_json "$js" '[.results[] | select(.object == "erdma.compat_mode" and .verdict == "pass")] | length' 0 \
		"no pass for erdma.compat_mode"

	assert_rc 1 "hostprep check" hostprep check --json
	assert_hp "$OUT" module.param erdma.compat_mode fail "check: module.param erdma.compat_mode"
}
