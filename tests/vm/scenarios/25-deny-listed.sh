# Deny-listed modules are reported and not loaded: erdma by a modprobe.d
# blacklist line, mlx_compat by the kernel command line (module_blacklist=).
# hostprep.service has Load=yes for both. Oracles: modprobe -c, lsmod,
# /sys/module, and the kernel refusing `modprobe mlx_compat` (EPERM).
KERNEL_ARGS="module_blacklist=mlx_compat"
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Module:erdma]
Load=yes

[Module:mlx_compat]
Load=yes'

guest_prep() {
	prep_file /etc/modprobe.d/deny-erdma.conf '# site policy: no eRDMA here' 'blacklist erdma'
}

guest_check() {
	local js
	assert_match "$(modprobe_conf erdma)" '^blacklist erdma$' "modprobe -c: erdma blacklisted"
	assert_booted_service
	assert_lsmod erdma no
	assert_lsmod mlx_compat no
	assert_mod_state erdma "not loaded"
	assert_mod_state mlx_compat "not loaded"
	assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"

	run_cmd hostprep status --json
	js=$OUT
	hp_module_results "$js"
	assert_hp "$js" module.state erdma fail
	assert_hp_text "$js" module.state erdma actual 'deny-listed.*/etc/modprobe\.d/deny-erdma\.conf:2' \
		"module.state erdma: deny-listed by deny-erdma.conf:2"
	assert_hp "$js" module.state mlx_compat fail
	assert_hp_text "$js" module.state mlx_compat actual 'deny-listed.*module_blacklist' \
		"module.state mlx_compat: deny-listed by module_blacklist="
	assert_json "$js" '[.results[] | select(.check == "module.load" and .verdict == "pass")] | length' 0 \
		"no module.load pass"

	# the kernel itself refuses mlx_compat (what hostprep reported)
	run_cmd modprobe mlx_compat
	assert_ne "$RC" 0 "modprobe mlx_compat is refused by the kernel"
	assert_match "$ERR" 'Operation not permitted' "modprobe: EPERM from module_blacklist="
	assert_lsmod erdma no "erdma still not loaded"
}
