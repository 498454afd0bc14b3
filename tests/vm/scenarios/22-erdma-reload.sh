# erdma loaded at boot in standard mode (modules-load.d, before hostprep, as
# the driver package's modules-load.d file does) and unused: hostprep.service
# (Apply=yes, Reload=unused) unloads it and loads it with compat_mode=Y, and
# persists the option; `hostprep revert` removes the modprobe.d file.
# Oracles: the module's own kernel log lines (one load in standard mode, one
# unload, one load in compat mode), /sys/module/erdma/parameters/compat_mode,
# modprobe -c (kmod's view of modprobe.d).
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Module:erdma]
Parameter=compat_mode=Y
Reload=unused
Persist=yes'

guest_prep() {
	prep_file /etc/modules-load.d/erdma.conf erdma
}

guest_check() {
	local js
	assert_booted_service
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in standard mode')" 1 "kernel log: erdma came up in standard mode once (modules-load.d)"
	assert_eq "$(kmsg_count 'vmtest erdma compat: unloaded')" 1 "kernel log: erdma unloaded once"
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in compat mode')" 1 "kernel log: erdma loaded in compat mode once"
	assert_mod_state erdma live
	assert_mod_param erdma compat_mode Y
	assert_eq "$(mod_refcnt erdma)" 0 "/sys/module/erdma/refcnt"
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"

	run_cmd hostprep status --json
	js=$OUT
	hp_module_results "$js"
	assert_json "$js" .ready true "boot report: ready"
	assert_hp "$js" module.reload erdma pass
	assert_hp_text "$js" module.reload erdma actual 'compat_mode=Y' "module.reload actual names compat_mode=Y"
	assert_hp "$js" module.param erdma.compat_mode pass
	assert_hp_text "$js" module.param erdma.compat_mode actual '^Y$' "module.param actual is the kernel's Y"

	# persisted: a hostprep-owned modprobe.d file, as kmod reads it
	run_cmd cat /etc/modprobe.d/hostprep.conf
	assert_match "$OUT" '^options erdma compat_mode=Y$' "/etc/modprobe.d/hostprep.conf has the option"
	assert_match "$(modprobe_conf erdma)" '^options erdma compat_mode=Y$' "modprobe -c: kmod sees the option"

	assert_rc 0 "hostprep check" hostprep check --json
	assert_hp "$OUT" module.param erdma.compat_mode pass "check: module.param erdma.compat_mode"

	assert_file_removed_by /etc/modprobe.d/hostprep.conf "revert removed /etc/modprobe.d/hostprep.conf" \
		hostprep revert
	assert_eq "$RC" 0 "hostprep revert: exit status"
	assert_no_match "$(modprobe_conf erdma)" '^options erdma ' "modprobe -c: no erdma options left"
	# (what revert does to the running module is not specified: only shown)
	note "kernel log after revert: $(dmesg | grep -o 'vmtest erdma.*' | tr '\n' ';')"
}
