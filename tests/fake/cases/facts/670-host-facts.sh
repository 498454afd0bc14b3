# What the host is (issue 28 §6): a run that publishes writes the host's facts as
# Prometheus info metrics (hostprep_<kind>_info, value 1, facts in labels, one series per
# GPU / RDMA device) and NFD labels (hostprep.info.*), whatever the configuration declares
# (here: none, so no [GPU] and no [Port:*]). What was not read is "unknown", never a
# guess; values that differ across GPUs or devices are "mixed" in NFD; a kind nobody could
# read (no NVIDIA GPU, no driver) has no series. Exact lines: each edge is one file changed.
. "$HERE/lib-sinks.sh"
newroot ib-gpu
sink_dirs
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
NS=feature.node.kubernetes.io/hostprep.info
mkdir -p "$R/sys/module/nvidia"
echo 580.95.05 >"$R/sys/module/nvidia/version"
echo MT_0000000838 >"$R/sys/class/infiniband/mlx5_0/board_id"
for d in mlx5_2 mlx5_4 mlx5_6; do echo MT_0000000838 >"$R/sys/class/infiniband/$d/board_id"; done
# facts LINES: the _info series of the textfile (hostprep_info aside) are exactly these
facts() {
	local got
	got=$(grep -E '^hostprep_[a-z_]+_info[{ ]' "$P")
	[ "$got" = "$1" ] || fail "$2: the info series differ:
$(diff <(printf '%s\n' "$1") <(printf '%s\n' "$got"))"
}
# The same facts in report.json's "facts" (null: not read), rendered as the textfile's lines
# by jq, and `status --json` reading them back byte for byte (docs/report-schema.md)
J=$R/run/hostprep/report.json
jfacts() {
	local got
	got=$(jq -r '.facts[] | "hostprep_\(.kind)_info{" + ([
		(if .kind == "gpu" then "gpu=\"\(.object)\"" elif .kind == "rdma_device"
		 then "device=\"\(.object)\"" else empty end),
		(to_entries[] | select(.key != "kind" and .key != "object") |
		 "\(.key)=\"\(.value // "unknown")\"")] | join(",")) + "} 1"' "$J")
	[ "$got" = "$1" ] || fail "$2: report.json's facts differ from the textfile's:
$(diff <(printf '%s\n' "$1") <(printf '%s\n' "$got"))"
	hp status --json
	cmp -s "$T/out" "$J" || fail "$2: status --json does not give report.json back: $(diff "$J" "$T/out" | head -5)"
}
GPUS=$(for b in 18 19 3a 3b 9a 9b ba bb; do
	printf 'hostprep_gpu_info{gpu="0000:%s:00.0",model="NVIDIA H100 80GB HBM3",vbios="96.00.74.00.11"} 1\n' $b
done)
rdma() { # rdma FW2: the four devices of a PCI function, mlx5_2's firmware given
	printf 'hostprep_rdma_device_info{device="mlx5_0",firmware="28.39.1002",board_id="MT_0000000838"} 1\n'
	printf 'hostprep_rdma_device_info{device="mlx5_2",firmware="%s",board_id="MT_0000000838"} 1\n' "$1"
	printf 'hostprep_rdma_device_info{device="mlx5_4",firmware="28.39.1002",board_id="MT_0000000838"} 1\n'
	printf 'hostprep_rdma_device_info{device="mlx5_6",firmware="28.39.1002",board_id="MT_0000000838"} 1\n'
}
TOPO='hostprep_pcie_topology_info{digest="fca7215980c953c4"} 1'
hp check
expect_rc 0
expect_promtool "$P"
expect_nfd_rules "$N"
facts "hostprep_kernel_info{release=\"6.1.0-27-amd64\"} 1
hostprep_nvidia_driver_info{version=\"580.95.05\"} 1
$GPUS
$(rdma 28.39.1002)
$TOPO" "all read"
jfacts "$(grep -E '^hostprep_[a-z_]+_info[{ ]' "$P")" "all read"
sink_golden "$P" sink-ib-gpu-facts.prom # fleet/prometheus's rules read these metrics
# the devices of functions outside the topology (mlx5_1 ... on 1a:00.1, absent from the
# bus; the bond's) have no series: one per device of a PCI endpoint, bounded
expect_no_grep "$P" 'device="mlx5_(1|3|5|7|bond_0)"' "a device that is no PCI endpoint"
[ "$(grep "^$NS\." "$N")" = "$NS.nvidia-driver=580.95.05
$NS.gpu-model=NVIDIA_H100_80GB_HBM3
$NS.gpu-vbios=96.00.74.00.11
$NS.rdma-firmware=28.39.1002
$NS.rdma-board-id=MT_0000000838
$NS.pcie-topology=fca7215980c953c4" ] || fail "NFD labels when all agree: $(grep "^$NS" "$N")"

# unread: a firmware file gone, a GPU's entry without its VBIOS line, the driver's
# version file gone (the GPUs are still on the bus): "unknown", and "mixed" in NFD
rm "$R/sys/class/infiniband/mlx5_2/fw_ver"
sed -i '/^Video BIOS/d' "$R/proc/driver/nvidia/gpus/0000:3a:00.0/information"
rm "$R/sys/module/nvidia/version"
hp check
expect_rc 0
expect_promtool "$P"
expect_nfd_rules "$N"
facts "hostprep_kernel_info{release=\"6.1.0-27-amd64\"} 1
hostprep_nvidia_driver_info{version=\"unknown\"} 1
${GPUS/gpu=\"0000:3a:00.0\",model=\"NVIDIA H100 80GB HBM3\",vbios=\"96.00.74.00.11\"/gpu=\"0000:3a:00.0\",model=\"NVIDIA H100 80GB HBM3\",vbios=\"unknown\"}
$(rdma unknown)
$TOPO" "unread values"
jfacts "$(grep -E '^hostprep_[a-z_]+_info[{ ]' "$P")" "unread values"
[ "$(jq -c '[.facts[] | select(.kind == "nvidia_driver")][0].version' "$J")" = null ] ||
	fail "an unread value is null in report.json"
expect_grep "$N" "^$NS\.nvidia-driver=unknown$"
expect_grep "$N" "^$NS\.gpu-vbios=mixed$"
expect_grep "$N" "^$NS\.rdma-firmware=mixed$"
expect_grep "$N" "^$NS\.gpu-model=NVIDIA_H100_80GB_HBM3$"

# a GPU without its driver entry: model and VBIOS unknown, still one series
rm -r "$R/proc/driver/nvidia/gpus/0000:bb:00.0"
hp check
expect_grep "$P" '^hostprep_gpu_info\{gpu="0000:bb:00\.0",model="unknown",vbios="unknown"\} 1$'
expect_grep "$N" "^$NS\.gpu-model=mixed$"

# an NVIDIA GPU on the bus without the driver (a VM's passthrough GPU): the driver's
# version and the GPU's facts are unknown, not absent
newroot vm-noacs
sink_dirs
hp check
expect_promtool "$P"
expect_grep "$P" '^hostprep_nvidia_driver_info\{version="unknown"\} 1$'
expect_grep "$P" '^hostprep_gpu_info\{gpu="0000:03:00\.0",model="unknown",vbios="unknown"\} 1$'

# no NVIDIA GPU and no driver (accelerators of other vendors): no GPU or driver series,
# no such label; the host's own facts stay
newroot accel-plx
sink_dirs
hp check
expect_promtool "$P"
expect_nfd_rules "$N"
expect_no_grep "$P" '^hostprep_(gpu|nvidia_driver)_info' "a kind nobody read"
expect_no_grep "$N" "^$NS\.(gpu|nvidia)" "a label of a kind nobody read"
expect_grep "$P" '^hostprep_kernel_info\{release="[^"]+"\} 1$'
expect_grep "$P" '^hostprep_pcie_topology_info\{digest="[0-9a-f]{16}"\} 1$'

# a run that does not publish (another configuration, no --publish) writes none of it
rm -f "$P" "$N"
printf '[IOMMU]\nExpect=any\n' >"$T/other.conf"
hp --config "$T/other.conf" check
[ -e "$P" ] && fail "a run of another configuration published its facts"
hp --config "$T/other.conf" --json check
jq -e 'has("facts") | not' "$T/out" >/dev/null || fail "a run that read no facts prints \"facts\""
true
