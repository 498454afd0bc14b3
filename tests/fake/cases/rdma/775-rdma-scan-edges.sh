# What the RDMA scan reads on real hosts that the fixtures did not have (an audit found a
# READY over each): a device whose node_type cannot be read keeps its ports (its down
# port fails), a selected device whose ports cannot be listed is one unknown, not left
# out; a device with more than 64 ports (mlx5 in switchdev mode: a port per VF/SF
# representor) is read whole, not cut in readdir order; RoCEv2= on a port whose link
# layer cannot be read is unknown unless a RoCE v2 GID with an address shows it is
# Ethernet; the kernel's "Unknown" link layer (AWS EFA) is a layer, not an unread file;
# a netdev's master that is no bond (a VRF) is not its bond in the table or rdma.env.
newroot ib-gpu
D=$R/sys/class/infiniband
rm "$D/mlx5_6/node_type"
mkdir "$D/mlx5_6/node_type" # read() fails (EISDIR), as an unreadable attribute does
echo "1: DOWN" >"$D/mlx5_6/ports/1/state"
echo "2: Polling" >"$D/mlx5_6/ports/1/phys_state"
printf '[Port:rails]\nSelect=mlx5_[4-7]\nLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^FAIL +rdma\.port +mlx5_6/1 .*DOWN/Polling'
hp rdma
expect_grep out '^mlx5_6 +1 +DOWN/Polling '
# the device's ports gone between the listing and the read: unknown, in the count
rm -rf "$(readlink -f "$D/mlx5_6")/ports"
printf 'MinActive=4\n' >>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^UNKNOWN +rdma\.port +mlx5_6 +its ports readable +mlx5_6: ports unreadable: No such file or directory'
expect_grep out '^UNKNOWN +rdma\.ports +Port:rails .*3 of 4 selected ports active'

# 130 ports on one device, the uplink (1) down: every port read and judged
newroot ib-gpu
D=$R/sys/class/infiniband
python3 - "$(readlink -f "$D/mlx5_0")" "$HERE/net" <<'PY'
import os, shutil, sys
sys.path.insert(0, sys.argv[2])
import netsys
shutil.rmtree(os.path.join(sys.argv[1], "ports"))
for n in range(1, 131):
    netsys.add_rdma_port(sys.argv[1], n, rate="100 Gb/sec (4X EDR)", link_layer="Ethernet",
                         slots=1, state="1: DOWN" if n == 1 else "4: ACTIVE",
                         phys="3: Disabled" if n == 1 else "5: LinkUp")
PY
printf '[Port:uplink]\nSelect=mlx5_0\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check == "rdma.port")] | length')" = 130 ] ||
	fail "not all 130 ports judged: $(jqo '[.results[] | select(.check == "rdma.port")] | length')"
[ "$(jqo '.results[] | select(.object == "mlx5_0/1") | .verdict')" = fail ] || fail "down uplink not failed"
printf '[Port:uplink]\nSelect=mlx5_0\nPorts=1 130\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^FAIL +rdma\.port +mlx5_0/1 '
expect_grep out '^PASS +rdma\.port +mlx5_0/130 '
expect_no_grep out 'selects no RDMA port'

# RoCEv2= with the link layer unread: unknown without a RoCE v2 GID, a pass with one
newroot ib-gpu
P=$R/sys/class/infiniband/mlx5_bond_0/ports/1
rm "$P/link_layer"
mkdir "$P/link_layer"
printf '[Port:lag]\nSelect=mlx5_bond_*\nRoCEv2=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep out '^PASS +rdma\.port +mlx5_bond_0/1 '
for i in 2 3; do echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$P/gids/$i"; done
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.object == "mlx5_bond_0/1") | .verdict + ": " + .actual')" = \
	"unknown: mlx5_bond_0 port 1: ACTIVE/LinkUp — link layer unreadable: RoCEv2= cannot be judged [sysfs]" ] ||
	fail "RoCEv2= over an unread link layer: $(jqo '.results[] | select(.object == "mlx5_bond_0/1")')"

# "Unknown" as the kernel prints it for EFA: known, and not InfiniBand
newroot ib-gpu
echo Unknown >"$R/sys/class/infiniband/mlx5_7/ports/1/link_layer"
printf '[Port:ib]\nSelect=mlx5_*\nSelectLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_no_grep out 'mlx5_7/1'
expect_no_grep out '^UNKNOWN'
hp rdma
expect_grep out '^mlx5_7 +1 +ACTIVE/LinkUp +400 Gb/sec \(4X NDR\) +unspecified '
printf '[Port:ib]\nSelect=mlx5_7\nLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.object == "mlx5_7/1") | .verdict + ": " + .actual')" = \
	"fail: mlx5_7 port 1: ACTIVE/LinkUp — link layer unspecified, the rule wants InfiniBand [sysfs]" ] ||
	fail "LinkLayer= on an unspecified layer: $(jqo '.results[] | select(.object == "mlx5_7/1")')"

# a RoCE netdev in a VRF: the VRF is no bond, the netdev stays NCCL's socket interface
newroot ib-gpu
P=$R/sys/class/infiniband/mlx5_bond_0/ports/1
for i in 0 1 2 3; do echo ens6f0np0 >"$P/gid_attrs/ndevs/$i"; done
N=$(readlink -f "$R/sys/class/net/ens6f0np0")
rm -f "$N/master" "$N/upper_bond0"
V=$R/sys/devices/virtual/net/vrf-rdma
mkdir -p "$V"
echo up >"$V/operstate"
echo 9000 >"$V/mtu"
ln -s ../../devices/virtual/net/vrf-rdma "$R/sys/class/net/vrf-rdma"
ln -s "$(realpath --relative-to="$N" "$V")" "$N/master"
mkdir -p "$R/run/hostprep/snapshot"
printf 'ens6f0np0 inet global\nlo inet host\n' >"$R/run/hostprep/snapshot/addresses.txt"
printf '[Port:roce]\nSelect=mlx5_bond_*\nRoCEv2=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp rdma
expect_grep out '^mlx5_bond_0 +1 +ACTIVE/LinkUp .* ens6f0np0 +- '
hp env
expect_grep out '^NCCL_SOCKET_IFNAME==ens6f0np0$'
