# A reload must never cut the node off (issue 18). The guest's only NIC is a virtio-net
# driven by virtio_net (unused: refcnt 0), and [Module:virtio_net] wants napi_tx=N with
# Reload=unused. While the NIC carries the default route, apply refuses (naming the
# interface) and the link stays as it was: the same netdev (ifindex: an unload and load
# would create a new one), still up, napi_tx still the kernel's Y. The positive control:
# without the default route the same apply reloads it (new ifindex, napi_tx=N), so it is
# the guard that stopped the first one.
QEMU_DEVICES="$(qemu_rootport_nic 2)"
TIMEOUT=240
HOSTPREP_CONF='# only the rules below
[ACS:gpu-paths]
Enabled=no'
NIC_CONF='[Host]
Apply=yes

[Module:virtio_net]
Parameter=napi_tx=N
Reload=unused'

guest_check() {
	local ifc idx js
	assert_booted_service
	# nic_behind waits for udev: on a loaded CI host, udev renamed eth0 to enp1s0 after
	# the name was taken, "ip link set eth0 up" failed, and without the route the guard
	# rightly let the first apply reload (CI of stop 34)
	ifc=$(nic_behind 2)
	assert_ne "$ifc" "" "a netdev driven by virtio_net"
	run_cmd sh -c "ip link set $ifc up && ip addr add 10.0.2.15/24 dev $ifc && ip route add default via 10.0.2.2 dev $ifc"
	assert_eq "$RC" 0 "default route via $ifc"
	idx=$(cat "/sys/class/net/$ifc/ifindex")
	assert_eq "$(mod_refcnt virtio_net)" 0 "virtio_net is unused (refcnt 0): only the network keeps it"
	assert_mod_param virtio_net napi_tx Y
	printf '%s\n' "$NIC_CONF" >/tmp/nic.conf

	run_cmd hostprep --config /tmp/nic.conf apply --dry-run
	assert_match "$OUT" "reload virtio_net when unused .* — refused now: unloading virtio_net takes down $ifc: $ifc carries the default route" "dry run: the reload would be refused now"

	run_cmd hostprep --config /tmp/nic.conf apply --json
	js=$OUT
	assert_eq "$RC" 1 "apply: not ready (reload refused)"
	hp_module_results "$js"
	assert_hp "$js" module.reload virtio_net fail
	assert_hp_text "$js" module.reload virtio_net actual "refused: unloading virtio_net takes down $ifc: $ifc carries the default route; nothing unloaded" "module.reload names the interface and the route"
	assert_eq "$(cat "/sys/class/net/$ifc/ifindex" 2>/dev/null)" "$idx" "$ifc is the same netdev (not re-created)"
	assert_match "$(ip -o link show "$ifc")" 'state UP|,UP' "$ifc is still up"
	assert_match "$(ip route show default)" "dev $ifc" "the default route is still there"
	assert_mod_param virtio_net napi_tx Y "napi_tx untouched"

	# positive control: no default route, no ssh session → the same apply reloads it
	run_cmd ip route del default
	run_cmd hostprep --config /tmp/nic.conf apply --json
	js=$OUT
	hp_module_results "$js"
	assert_hp "$js" module.reload virtio_net pass
	assert_mod_param virtio_net napi_tx N "after the allowed reload: napi_tx=N"
	ifc=$(nic_behind 2)
	assert_match "$(cat "/sys/class/net/$ifc/ifindex" 2>/dev/null)" '^[0-9]+$' "the reloaded NIC has a netdev"
	assert_ne "$(cat "/sys/class/net/$ifc/ifindex" 2>/dev/null)" "$idx" "the allowed reload re-created the netdev"
}
