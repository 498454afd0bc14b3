# RDMADevices= and ActivePorts= count the host's own devices and ports (issue 25): a device
# of an SR-IOV virtual function whose physical function is on this host (a physfn link) is
# a second view of a port the PF already has, and does not count. On inv-vf a VF's device
# (mlx5_8, port up) stood in for a PF's lost one (mlx5_7): both counts passed. Then: a VM
# given the VF (no physfn link there: its own function) counts it; a device link that
# leads nowhere is unknown (it may be either); a device without a PCI function (rxe)
# counts. The fixture is first read independently: the links themselves.
newroot inv-vf
cls=$R/sys/class/infiniband
nvf=0
npf=0
for d in "$cls"/*; do
	if [ -L "$d/device/physfn" ]; then nvf=$((nvf + 1)); else npf=$((npf + 1)); fi
done
[ "$npf/$nvf" = 8/1 ] || fail "fixture: $npf devices of physical functions, $nvf of VFs, want 8/1"
[ "$(cat "$cls/mlx5_8/ports/1/state")" = "4: ACTIVE" ] || fail "fixture: the VF's port is not ACTIVE"

inv() {
	{
		echo "[Inventory]"
		printf '%s\n' "$@"
	} >"$R/etc/hostprep/hostprep.conf"
	hp --json check
}
v() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .verdict' "$T/out"; }
a() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .actual' "$T/out"; }

inv RDMADevices=9 "ActivePorts=InfiniBand:7"
expect_rc 1
[ "$(a inventory.rdma host)" = "8 of 9 RDMA devices (and 1 of SR-IOV virtual functions, not counted)" ] ||
	fail "RDMADevices=9: $(v inventory.rdma host) $(a inventory.rdma host)"
[ "$(v inventory.rdma host)" = fail ] || fail "RDMADevices=9 with a VF standing in: $(v inventory.rdma host)"
[ "$(v inventory.ports InfiniBand)" = fail ] || fail "IB:7 with the VF's port: $(a inventory.ports InfiniBand)"
[ "$(a inventory.ports InfiniBand)" = "6 of 7 InfiniBand ports active; mlx5_3/1 DOWN (Polling)" ] ||
	fail "IB:7: $(a inventory.ports InfiniBand)"
# the edges: what the PFs have passes
inv RDMADevices=8 "ActivePorts=InfiniBand:6"
expect_rc 0
[ "$(v inventory.rdma host)/$(v inventory.ports InfiniBand)" = pass/pass ] ||
	fail "RDMADevices=8, IB:6: $(a inventory.rdma host); $(a inventory.ports InfiniBand)"

# A VM given the VF: no physfn link, the guest's own function, counted.
rm "$cls/mlx5_8/device/physfn"
inv RDMADevices=9 "ActivePorts=InfiniBand:7"
expect_rc 0
[ "$(a inventory.rdma host)" = "9 of 9 RDMA devices" ] || fail "VM's VF: $(a inventory.rdma host)"
[ "$(v inventory.ports InfiniBand)" = pass ] || fail "VM's VF port: $(a inventory.ports InfiniBand)"

# A device link that leads nowhere: the device may be a VF or not; its up port may be padding.
newroot inv-vf
cls=$R/sys/class/infiniband
dev=$(realpath "$cls/mlx5_8")
rm "$dev/device"
ln -s ../../../0000:1a:00.7 "$dev/device"
inv RDMADevices=9 "ActivePorts=InfiniBand:7"
[ "$(v inventory.rdma host)" = unknown ] || fail "dangling link: $(v inventory.rdma host) $(a inventory.rdma host)"
[ "$(a inventory.rdma host)" = "8 of 9 RDMA devices; 1 whose PCI function cannot be read" ] ||
	fail "dangling link: $(a inventory.rdma host)"
[ "$(v inventory.ports InfiniBand)" = unknown ] || fail "dangling link, port: $(a inventory.ports InfiniBand)"
inv RDMADevices=10 "ActivePorts=InfiniBand:8"
[ "$(v inventory.rdma host)/$(v inventory.ports InfiniBand)" = fail/fail ] ||
	fail "dangling link, two short: $(a inventory.rdma host); $(a inventory.ports InfiniBand)"

# No device link at all (a software device, rxe): a device of its own, counted.
rm "$dev/device"
inv RDMADevices=9 "ActivePorts=InfiniBand:7"
[ "$(v inventory.rdma host)/$(v inventory.ports InfiniBand)" = pass/pass ] ||
	fail "no device link: $(a inventory.rdma host); $(a inventory.ports InfiniBand)"
true
