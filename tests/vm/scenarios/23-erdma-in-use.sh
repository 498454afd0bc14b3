# erdma in standard mode and in use (erdma_holder, loaded at boot through
# modules-load.d, takes a reference): hostprep.service (Apply=yes,
# Reload=unused) unloads nothing, names the holder, the unit is not ready.
# Oracles: lsmod ("Used by"), /sys/module/erdma/{refcnt,holders,parameters},
# the module's kernel log lines (no unload, one load).
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Module:erdma]
Parameter=compat_mode=Y
Reload=unused'

guest_prep() {
	prep_file /etc/modules-load.d/erdma.conf erdma_holder
}

guest_check() {
	local js
	assert_booted_service
	# oracle: the holder pins erdma
	assert_mod_state erdma_holder live
	assert_eq "$(mod_refcnt erdma)" 1 "/sys/module/erdma/refcnt"
	assert_eq "$(mod_holders erdma)" erdma_holder "/sys/module/erdma/holders"
	assert_match "$(lsmod_line erdma)" ' erdma_holder$' "lsmod: erdma used by erdma_holder"
	# nothing unloaded, parameter untouched
	assert_mod_param erdma compat_mode N
	assert_eq "$(kmsg_count 'vmtest erdma compat: unloaded')" 0 "kernel log: erdma never unloaded"
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded')" 1 "kernel log: erdma loaded once"
	assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"

	run_cmd hostprep status --json
	js=$OUT
	hp_module_results "$js"
	assert_json "$js" .ready false "boot report: not ready"
	assert_hp "$js" module.reload erdma fail
	assert_hp_text "$js" module.reload erdma actual 'erdma_holder' "module.reload names the holder"
	assert_hp_text "$js" module.reload erdma remedy '.' "module.reload has a remedy"
	assert_hp "$js" module.param erdma.compat_mode fail
	assert_hp_text "$js" module.param erdma.compat_mode actual '^N$' "module.param actual is the kernel's N"

	assert_rc 1 "hostprep check" hostprep check --json
	assert_hp "$OUT" module.param erdma.compat_mode fail "check: module.param erdma.compat_mode"
	assert_hp_text "$OUT" module.state erdma actual 'erdma_holder' "check: module.state names the holder"
	# an explicit apply refuses the same way and still unloads nothing
	assert_rc 1 "hostprep apply (in use)" hostprep apply --json
	assert_hp "$OUT" module.reload erdma fail "apply: module.reload refused"
	assert_eq "$(kmsg_count 'vmtest erdma compat: unloaded')" 0 "kernel log: still never unloaded"
	assert_mod_state erdma_holder live "erdma_holder still live"
}
