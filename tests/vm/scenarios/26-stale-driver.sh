# A newer erdma is installed on disk (a package upgrade) while the old build
# runs: module.stale must fail "the running module is not the file on disk" (it
# cannot know which is newer), with a remedy. erdma comes up at boot in compat mode from
# modules-load.d + modprobe.d; hostprep only checks. Persist=yes with the option already in
# that modprobe.d file (as Alibaba's package ships it): module.persist passes naming
# /etc/modprobe.d/erdma.conf:1 on a live host, where libkmod's kmod_module_get_options() is
# the oracle of the walk (a disagreement would be a warning on stderr), and no
# /etc/modprobe.d/hostprep.conf is needed (issue 25 §4).
# Oracles: /sys/module/erdma/srcversion vs `modinfo -F srcversion erdma`; modprobe -c.
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Module:erdma]
Parameter=compat_mode=Y
Persist=yes'

guest_prep() {
	prep_file /etc/modules-load.d/erdma.conf erdma
	prep_file /etc/modprobe.d/erdma.conf 'options erdma compat_mode=Y'
}

guest_check() {
	local js loaded
	assert_booted_service
	assert_mod_param erdma compat_mode Y
	loaded=$(cat /sys/module/erdma/srcversion)
	assert_eq "$(modinfo_field erdma srcversion)" "$loaded" "oracle: disk and kernel agree before the upgrade"
	assert_rc 0 "hostprep check (not stale yet)" hostprep check --json
	assert_hp "$OUT" module.stale erdma pass "check: module.stale erdma before the upgrade"
	assert_match "$(modprobe_conf erdma)" '^options erdma compat_mode=Y$' "modprobe -c: kmod passes compat_mode=Y"
	assert_hp "$OUT" module.persist /etc/modprobe.d/hostprep.conf pass "check: module.persist"
	assert_hp_text "$OUT" module.persist /etc/modprobe.d/hostprep.conf actual \
		'^absent, no line needed; erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:1$' \
		"module.persist names the file that already gives compat_mode=Y"
	assert_no_match "$ERR" 'libkmod passes' "libkmod (the oracle) and the walk of modprobe.d agree"
	run_cmd hostprep apply --dry-run
	assert_match "$OUT" 'persist erdma: nothing to write: the next load gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:1' "the plan writes nothing"
	assert_eq "$([ -e /etc/modprobe.d/hostprep.conf ] && echo present || echo absent)" absent \
		"no /etc/modprobe.d/hostprep.conf"

	# the upgrade: a rebuilt erdma replaces the file modprobe resolves
	cp /usr/lib/vmtest/erdma-rebuilt.ko "/lib/modules/$KVER_GUEST/updates/erdma.ko"
	assert_ne "$(modinfo_field erdma srcversion)" "$loaded" "oracle: modinfo's srcversion differs from /sys/module/erdma/srcversion"
	assert_eq "$(modinfo_field erdma version)" 1.4.1-vmtest "oracle: on disk 1.4.1-vmtest"
	assert_eq "$(cat /sys/module/erdma/version)" 1.4.0-vmtest "oracle: running 1.4.0-vmtest"

	assert_rc 1 "hostprep check (stale)" hostprep check --json
	js=$OUT
	hp_module_results "$js"
	assert_hp "$js" module.stale erdma fail
	assert_hp_text "$js" module.stale erdma actual 'the running module is not the file on disk: srcversion [0-9A-F]+ running, [0-9A-F]+ on disk \(updates/erdma\.ko\)' \
		"module.stale says the running module is not the file on disk (no claim of newer/older)"
	assert_hp_text "$js" module.stale erdma remedy 'reload|modprobe -r|rmmod|reboot' "module.stale remedy names the reload"
	assert_hp "$js" module.param erdma.compat_mode pass "check: the running module's parameter is still right"
}
