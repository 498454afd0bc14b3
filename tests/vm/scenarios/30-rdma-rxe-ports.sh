# RDMA ports on a real kernel: rdma_rxe on two virtio NICs (100 Gb/s through
# -global), the second NIC's cable out from power-on (QEMU monitor set_link
# off). Oracles: `rdma link`, `ibv_devinfo`, sysfs, the carrier bit. hostprep
# check: rdma.port rxe1/1 fails naming Polling, rxe0/1 passes; the env file
# lists only the active port.
QEMU_DEVICES="-global virtio-net-pci.speed=100000 -global virtio-net-pci.duplex=full
$(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
QEMU_LINKS_DOWN=nic-rp3
TIMEOUT=180
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
# check-only scenario: the boot run must not wait for the pulled cable
Wait=0

[Port:rxe]
Select=rxe*
LinkLayer=Ethernet
MinRate=100
RoCEv2=yes'

guest_prep() {
	prep_boot_unit rxe hostprep.service 'rxe_add rxe0 2 192.168.30.1/24; rxe_add rxe1 3 192.168.31.1/24'
}

guest_check() {
	local if0 if1 js gidx
	if0=$(nic_behind 2) if1=$(nic_behind 3)
	note "NICs: $if0 (rp2, cable in), $if1 (rp3, cable out)"
	run_cmd rdma link show
	run_cmd ip -d link show "$if1"
	run_cmd ibv_devinfo -d rxe1
	# oracles: the kernel and rdma-core, not hostprep
	assert_eq "$(carrier "$if0")" 1 "carrier of $if0"
	assert_eq "$(carrier "$if1")" 0 "carrier of $if1 (set_link off)"
	assert_eq "$(rdma_state rxe0/1)" ACTIVE "rdma link: rxe0/1 state"
	assert_eq "$(rdma_phys rxe0/1)" LINK_UP "rdma link: rxe0/1 physical_state"
	assert_eq "$(rdma_state rxe1/1)" DOWN "rdma link: rxe1/1 state"
	assert_eq "$(rdma_phys rxe1/1)" POLLING "rdma link: rxe1/1 physical_state"
	assert_match "$(ibv_port_field rxe1 1 state)" '^PORT_DOWN' "ibv_devinfo: rxe1 port 1 state"
	assert_match "$(ibv_port_field rxe1 1 phys_state)" '^POLLING' "ibv_devinfo: rxe1 port 1 phys_state"
	assert_match "$(ibv_port_field rxe0 1 state)" '^PORT_ACTIVE' "ibv_devinfo: rxe0 port 1 state"
	assert_match "$(sys_port rxe0 1 rate)" '^100 Gb/sec' "sysfs: rxe0 port 1 rate (speed=100000)"
	assert_eq "$(sys_port rxe0 1 link_layer)" Ethernet "sysfs: rxe0 port 1 link_layer"
	gidx=$(gid_index_of rxe0 1 "RoCE v2" "ffff:c0a8:1e01")
	[ -n "$gidx" ] && ok "sysfs: rxe0 port 1 has the RoCE v2 GID of 192.168.30.1 at index $gidx" ||
		fail "sysfs: no RoCE v2 GID for 192.168.30.1 on rxe0"

	# hostprep
	assert_rc 1 "hostprep check --json (one port down)" hostprep check --json
	js=$OUT
	hp_issue8_results "$js"
	assert_hp "$js" rdma.port rxe1/1 fail
	assert_hp_text "$js" rdma.port rxe1/1 actual 'Polling' "rdma.port rxe1/1 actual names Polling"
	assert_hp "$js" rdma.port rxe0/1 pass
	case $(json_result "$js" rdma.port rxe1/1 actual) in
	'<none>' | null | '') fail "no rdma.port rxe1/1 actual to look for a rate complaint in" ;;
	*) assert_no_match "$(json_result "$js" rdma.port rxe1/1 actual)" 'rate|Gb' \
		"a down port gets no rate complaint" ;;
	esac
	run_cmd cat /run/hostprep/rdma.env
	assert_match "$OUT" '^NCCL_IB_HCA=.*rxe0' "rdma.env: NCCL_IB_HCA lists rxe0"
	assert_no_match "$(grep '^NCCL_IB_HCA=' /run/hostprep/rdma.env 2>/dev/null)" 'rxe1' \
		"rdma.env: NCCL_IB_HCA does not list the Polling rxe1"
	assert_match "$OUT" "^NCCL_IB_GID_INDEX=$gidx\$" "rdma.env: NCCL_IB_GID_INDEX is the RoCE v2 IPv4 GID's ($gidx)"
	assert_rc 0 "hostprep env" hostprep env
	assert_eq "$OUT" "$(cat /run/hostprep/rdma.env 2>&1)" "hostprep env prints rdma.env"
	# Issue 17.13: one file, three readers, the same values. docker --env-file takes each
	# VAR=VAL line literally, so the lines themselves are its view; sh and systemd's
	# EnvironmentFile= must agree with them byte for byte.
	local lines shv sdv
	lines=$(grep -E '^[A-Z_]+=' /run/hostprep/rdma.env | sort)
	shv=$(env -i sh -c 'set -a; . /run/hostprep/rdma.env; env' | grep -E '^(NCCL|UCX)_' | sort)
	sdv=$(systemd-run --quiet --wait --pipe -p EnvironmentFile=/run/hostprep/rdma.env \
		/usr/bin/env 2>&1 | grep -E '^(NCCL|UCX)_' | sort)
	assert_match "$lines" '^NCCL_IB_HCA=' "rdma.env has VAR=VAL lines (docker --env-file's view)"
	assert_eq "$shv" "$lines" "sh sourcing rdma.env sees exactly its lines"
	assert_eq "$sdv" "$lines" "systemd EnvironmentFile=rdma.env sees exactly its lines"
}
