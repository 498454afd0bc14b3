# Load missing modules at boot (issue 7): hostprep.service with Load=yes loads
# an OFED-style module whose dependency (mlx_compat) nothing else loads, and
# rdma_rxe, a real Debian module with real dependencies (ib_core,
# udp_tunnel...). Nothing else loads them (no modules-load.d, no hardware).
# Oracles: lsmod, /sys/module/*/initstate and holders, modinfo (depmod's view).
# Also module.origin/module.version from evidence on a real module tree.
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Apply=yes

[Module:mlx5_ofed]
Load=yes
Origin=ofed
MinVersion=24.10-1.1.4

[Module:rdma-rxe]
Load=yes
Origin=inbox'

guest_check() {
	local js m
	# oracle: what kmod resolves on disk (the image's depmod)
	assert_match "$(modinfo_field mlx5_ofed filename)" '/updates/dkms/mlx5_ofed\.ko$' "modinfo: mlx5_ofed is the updates/dkms build"
	assert_eq "$(modinfo_field mlx5_ofed depends)" mlx_compat "modinfo: mlx5_ofed depends on mlx_compat"
	assert_match "$(modinfo_field rdma_rxe filename)" '/kernel/drivers/infiniband/sw/rxe/rdma_rxe\.ko' "modinfo: rdma_rxe is the kernel's own"

	assert_booted_service
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	# oracle: the kernel has them, loaded by hostprep at boot
	for m in mlx5_ofed mlx_compat rdma_rxe ib_core; do
		assert_mod_state $m live
		assert_lsmod $m yes
	done
	assert_eq "$(mod_holders mlx_compat)" mlx5_ofed "/sys/module/mlx_compat/holders: the dependency was resolved"
	assert_eq "$(cat /sys/module/mlx5_ofed/version 2>&1)" 24.10-1.1.4 "/sys/module/mlx5_ofed/version"
	assert_match "$(cat /sys/module/mlx5_ofed/taint 2>&1)" O "/sys/module/mlx5_ofed/taint has O (out of tree)"
	assert_no_match "$(cat /sys/module/rdma_rxe/taint 2>&1)" O "/sys/module/rdma_rxe/taint has no O"
	run_cmd journalctl -b -u hostprep.service -o cat --no-pager
	assert_no_match "$(journalctl -b -u systemd-modules-load.service -o cat --no-pager)" 'mlx5_ofed|rdma_rxe' \
		"systemd-modules-load did not load them (hostprep did)"

	run_cmd hostprep status --json
	js=$OUT
	hp_module_results "$js"
	assert_json "$js" .ready true "boot report: ready"
	for m in mlx5_ofed rdma_rxe; do
		assert_hp "$js" module.state $m pass
		assert_hp "$js" module.load $m pass "hostprep: module.load $m (apply at boot)"
		assert_hp "$js" module.origin $m pass
	done
	assert_hp_text "$js" module.state mlx5_ofed actual '^live' "module.state actual says live"
	assert_hp_text "$js" module.origin mlx5_ofed actual 'updates/dkms' "module.origin actual names the updates/dkms path"
	assert_hp_text "$js" module.origin mlx5_ofed actual 'mlx_compat' "module.origin actual names the mlx_compat dependency"
	assert_hp_text "$js" module.origin rdma_rxe actual 'kernel/' "module.origin actual names the kernel/ path"
	assert_hp "$js" module.version mlx5_ofed pass

	assert_rc 0 "hostprep check" hostprep check --json
	assert_hp "$OUT" module.state rdma_rxe pass "check: module.state rdma_rxe"

	# A load may add or drop PCI functions (a driver's probe creates SR-IOV VFs): an
	# apply that loaded a module verifies on a PCI inventory read again, not on the
	# one (and the device directories it held open) from before the load.
	assert_rc 0 "rmmod rdma_rxe" rmmod rdma_rxe
	assert_mod_state rdma_rxe "not loaded" "/sys/module/rdma_rxe gone after rmmod"
	assert_rc 0 "hostprep -v apply (loads rdma_rxe again)" hostprep -v apply
	assert_mod_state rdma_rxe live
	assert_match "$ERR" 'PCI inventory: [0-9]+ functions \(read 1 of this run\)' "apply read the PCI inventory before the load"
	assert_match "$ERR" 'PCI inventory: [0-9]+ functions \(read 2 of this run\)' "apply read the PCI inventory again after the load"
	assert_rc 0 "hostprep -v apply (nothing to load)" hostprep -v apply
	assert_no_match "$ERR" 'read 2 of this run' "an apply that loaded nothing reads the PCI inventory once"
}
