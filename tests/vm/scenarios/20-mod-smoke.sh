# The module test bed itself, with kmod's tools only (no hostprep verdicts):
# the test modules are installed and depmod'ed, load in this kernel, behave
# like the drivers they stand for, and the oracles the module scenarios rely
# on see it. Boot 2 (REBOOTS=1) proves the same-disk reboot: a modprobe.d
# option and a replaced module file written at boot 1 are what boot 2 loads,
# before any test code runs.
NEEDS_HOSTPREP=0
REBOOTS=1
HOSTPREP_CONF='[ACS:gpu-paths]
Enabled=no'

guest_prep() {
	[ "$1" = 1 ] && prep_file /etc/modules-load.d/vmtest-smoke.conf erdma
	return 0
}

guest_check() {
	local m=/lib/modules/$KVER_GUEST
	# depmod's view of the image
	assert_eq "$(modinfo_field erdma filename)" "$m/updates/erdma.ko" "modinfo: erdma resolves to updates/"
	assert_eq "$(modinfo_field erdma parm)" "compat_mode:register as an IB CA with RoCE-like GIDs (default N) (bool)" "modinfo: compat_mode parm"
	assert_eq "$(modinfo_field erdma version)" 1.4.0-vmtest "modinfo: erdma version"
	assert_eq "$(modinfo -F parm "$m/kernel/drivers/infiniband/hw/erdma/erdma.ko")" "" "modinfo: mainline-like erdma has no parm"
	assert_eq "$(modinfo_field erdma_holder depends)" erdma "modinfo: erdma_holder depends on erdma"
	assert_eq "$(modinfo_field mlx5_ofed depends)" mlx_compat "modinfo: mlx5_ofed depends on mlx_compat"
	assert_match "$(modinfo_field erdma vermagic)" "^$KVER_GUEST " "modinfo: vermagic is this kernel's"

	# loaded at boot from modules-load.d (guest_prep), standard mode
	assert_mod_state erdma live
	assert_mod_param erdma compat_mode N
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in standard mode')" 1 "kernel log: loaded at boot in standard mode"
	assert_match "$(cat /sys/module/erdma/taint)" O "/sys/module/erdma/taint has O"
	assert_eq "$(cat /sys/module/erdma/srcversion)" "$(modinfo_field erdma srcversion)" "srcversion: running = on disk"

	# reload with the parameter (what Reload=unused must do, by hand)
	assert_rc 0 "modprobe -r erdma" modprobe -r erdma
	assert_rc 0 "modprobe erdma compat_mode=Y" modprobe erdma compat_mode=Y
	assert_mod_param erdma compat_mode Y
	assert_eq "$(kmsg_count 'vmtest erdma compat: unloaded')" 1 "kernel log: one unload"
	assert_eq "$(kmsg_count 'vmtest erdma compat: loaded in compat mode')" 1 "kernel log: one compat load"

	# a holder pins erdma
	assert_rc 0 "modprobe erdma_holder" modprobe erdma_holder
	assert_eq "$(mod_refcnt erdma)" 1 "refcnt with the holder"
	assert_eq "$(mod_holders erdma)" erdma_holder "holders/"
	assert_match "$(lsmod_line erdma)" ' erdma_holder$' "lsmod: used by erdma_holder"
	run_cmd modprobe -r erdma
	assert_ne "$RC" 0 "modprobe -r erdma refused while held"
	assert_mod_state erdma live "erdma still live"
	assert_rc 0 "rmmod erdma_holder" rmmod erdma_holder
	assert_eq "$(mod_refcnt erdma)" 0 "refcnt after the holder left"

	# mainline-like: the kernel ignores the unknown parameter and loads it
	assert_rc 0 "rmmod erdma" rmmod erdma
	assert_rc 0 "insmod mainline erdma compat_mode=Y" insmod "$m/kernel/drivers/infiniband/hw/erdma/erdma.ko" compat_mode=Y
	assert_mod_state erdma live
	assert_eq "$(mod_param erdma compat_mode)" "<none>" "mainline: no parameters/compat_mode"
	assert_eq "$(kmsg_count "erdma: unknown parameter 'compat_mode' ignored")" 1 "kernel log: unknown parameter ignored"
	assert_rc 0 "rmmod erdma" rmmod erdma

	# OFED-style dependency, and a real Debian RDMA module
	assert_rc 0 "modprobe mlx5_ofed" modprobe mlx5_ofed
	assert_mod_state mlx_compat live "mlx_compat pulled in"
	assert_eq "$(mod_holders mlx_compat)" mlx5_ofed "mlx_compat holders/"
	assert_eq "$(cat /sys/module/mlx5_ofed/version)" 24.10-1.1.4 "/sys/module/mlx5_ofed/version"
	assert_rc 0 "modprobe rdma_rxe" modprobe rdma_rxe
	assert_mod_state rdma_rxe live
	assert_mod_state ib_core live "ib_core pulled in"

	# stale: a rebuilt erdma replaces the file while the old one runs
	assert_rc 0 "modprobe erdma" modprobe erdma
	cp /usr/lib/vmtest/erdma-rebuilt.ko "$m/updates/erdma.ko"
	assert_ne "$(modinfo_field erdma srcversion)" "$(cat /sys/module/erdma/srcversion)" "srcversion: on disk differs from running"
	assert_eq "$(modinfo_field erdma version)" 1.4.1-vmtest "modinfo: rebuilt version"

	# for boot 2: the option persisted in modprobe.d
	prep_file /etc/modprobe.d/vmtest-smoke.conf 'options erdma compat_mode=Y'
	assert_match "$(modprobe_conf erdma)" '^options erdma compat_mode=Y$' "modprobe -c sees the option"
	sync
}

guest_check_boot2() {
	assert_eq "$(kmsg_count 'vmtest erdma rebuilt: loaded in compat mode')" 1 "boot 2 kernel log: the rebuilt erdma came up once, in compat mode"
	assert_eq "$(kmsg_count 'vmtest erdma (compat|mainline)')" 0 "boot 2 kernel log: no other erdma"
	assert_mod_param erdma compat_mode Y "boot 2: compat_mode from modprobe.d"
	assert_eq "$(cat /sys/module/erdma/version)" 1.4.1-vmtest "boot 2: running the rebuilt erdma"
	assert_lsmod mlx5_ofed no "boot 2: nothing from boot 1's session stays loaded"
}
