# The persisted option survives a reboot of the same disk (REBOOTS=1): boot 1,
# hostprep.service reloads erdma (standard at boot from modules-load.d) in
# compat mode and writes /etc/modprobe.d/hostprep.conf; the check then masks
# hostprep.service. Boot 2: erdma comes up in compat mode from modules-load.d
# + that file alone (hostprep never ran), and `hostprep revert` after the
# reboot removes the file. Oracles: the module's kernel log lines,
# /sys/module/erdma/parameters/compat_mode, modprobe -c, systemctl.
REBOOTS=1
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
	[ "$1" = 1 ] && prep_file /etc/modules-load.d/erdma.conf erdma
	return 0
}

guest_check() {
	assert_booted_service
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in standard mode')" 1 "boot 1 kernel log: standard mode first"
	assert_mod_param erdma compat_mode Y "boot 1: compat_mode after hostprep's reload"
	run_cmd cat /etc/modprobe.d/hostprep.conf
	assert_match "$OUT" '^options erdma compat_mode=Y$' "boot 1: /etc/modprobe.d/hostprep.conf has the option"
	# boot 2 must owe nothing to hostprep
	run_cmd systemctl mask hostprep.service
	sync
}

guest_check_boot2() {
	assert_eq "$(unit_prop hostprep.service LoadState)" masked "boot 2: hostprep.service masked"
	assert_eq "$(unit_prop hostprep.service ExecMainStartTimestampMonotonic)" 0 "boot 2: hostprep.service did not run"
	assert_match "$(modprobe_conf erdma)" '^options erdma compat_mode=Y$' "boot 2: modprobe -c has the persisted option"
	assert_mod_state erdma live
	assert_mod_param erdma compat_mode Y "boot 2: compat_mode at boot, from modprobe.d"
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in compat mode')" 1 "boot 2 kernel log: loaded once, in compat mode"
	assert_eq "$(kmsg_count 'vmtest erdma compat: (unloaded|loaded in standard mode)')" 0 "boot 2 kernel log: never standard, never unloaded"
	assert_rc 0 "boot 2: hostprep check" hostprep check --json
	assert_hp "$OUT" module.param erdma.compat_mode pass "boot 2 check: module.param erdma.compat_mode"

	# revert after the reboot: the record of the persisted file must survive it
	assert_file_removed_by /etc/modprobe.d/hostprep.conf "boot 2: revert removed /etc/modprobe.d/hostprep.conf" \
		hostprep revert
	assert_eq "$RC" 0 "boot 2: hostprep revert: exit status"
	assert_no_match "$(modprobe_conf erdma)" '^options erdma ' "boot 2: modprobe -c: no erdma options left"
}
