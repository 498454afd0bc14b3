# Every example configuration shipped in conf/ runs against a host shaped for it and must
# be READY there, and against a broken variant of that host it must be NOT READY naming the
# right cause (issue 25 §4: the eRDMA example drained a healthy eRDMA VM). The examples are
# found, not listed: tests/fake/conf_examples.py extracts each "# Example" block and each
# commented-out section of conf/*.conf, each other conf/*.conf and conf/examples/*.conf, and
# the shipped default itself. Each is layered as an admin's drop-in over the shipped default
# in /usr/lib/hostprep (as installed). An example without a host here fails this case until
# ready_ID and broken_ID are written below; a host whose example is gone fails too.
EX=$T/examples
python3 "$HERE/conf_examples.py" "$HERE/../../conf" "$EX" >"$T/index" ||
	{ fail "conf_examples.py failed"; exit 1; }
SKIPPED=()

example() { # ID: the shipped default as installed, the example as a drop-in
	install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$R/usr/lib/hostprep/hostprep.conf"
	[ "$1" = shipped-default ] && return
	install -D -m 0644 "$EX/$1.conf" "$R/etc/hostprep/hostprep.conf.d/50-example.conf"
}
expect_ready() { # ID
	hp -v check
	expect_rc 0
	expect_grep out '^READY: ' "$1: not READY on its host: $(tail -1 "$T/out")"
	expect_no_grep out '^(FAIL|UNKNOWN) ' "$1 on its host"
}
expect_not_ready() { # ID CAUSE
	hp -v check
	expect_rc 1
	expect_grep out '^NOT READY: ' "$1 broken: $(tail -1 "$T/out")"
	expect_grep out "$2" "$1 broken: the cause /$2/ is not named"
}
# shape_acs: the host after the shipped rule was applied once (an admin's Apply=yes)
shape_acs() {
	mkdir -p "$R/etc/hostprep/hostprep.conf.d"
	printf '[Host]\nApply=yes\n' >"$R/etc/hostprep/hostprep.conf.d/10-shape.conf"
	hp apply
	rm "$R/etc/hostprep/hostprep.conf.d/10-shape.conf"
}
port_up() { # DEV: port 1 ACTIVE/LinkUp at 400G NDR, as its neighbours
	local p=$R/sys/class/infiniband/$1/ports/1
	echo "4: ACTIVE" >"$p/state"
	echo "5: LinkUp" >"$p/phys_state"
	echo "400 Gb/sec (4X NDR)" >"$p/rate"
}

# ---- the hosts -----------------------------------------------------------------------

# the vendor file alone: its ACS rule passes once applied; unreadable ACS is unknown
ready_shipped-default() {
	newroot dgx8
	example shipped-default
	shape_acs
	expect_ready shipped-default
	expect_grep out '^PASS +acs +0000:17:02\.0 '
}
broken_shipped-default() {
	newroot dgx8-nonroot
	example shipped-default
	expect_not_ready shipped-default '^UNKNOWN +acs\.cmdline +host .*only 64 bytes of config space'
}

ready_an-ofed-gpu-node() {
	newroot ofed-gpu
	example an-ofed-gpu-node
	expect_ready an-ofed-gpu-node
	expect_grep out '^PASS +module\.devices +mlx5_core '
	expect_grep out '^PASS +gpudirect +host +either '
}
broken_an-ofed-gpu-node() { # OFED upgraded on disk, the old mlx5_core still runs
	newroot ofed-mixed
	example an-ofed-gpu-node
	expect_not_ready an-ofed-gpu-node '^FAIL +module\.version +mlx5_core .*23\.10-1\.1\.9 \(running; the file on disk has 24\.10-1\.1\.4\)'
}

# an eRDMA VM in compat mode from the package's erdma.conf, NCCL's modules only (no rdma_cm)
ready_an-alibaba-cloud-erdma-gpu() {
	newroot erdma-nccl
	example an-alibaba-cloud-erdma-gpu
	expect_ready an-alibaba-cloud-erdma-gpu
	expect_grep out '^PASS +module\.devices +erdma +RDMA devices with uverbs nodes +erdma_0 \(uverbs0\)$'
	expect_grep out '^PASS +module\.persist .*erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'
}
broken_an-alibaba-cloud-erdma-gpu() { # erdma came up in standard mode
	newroot erdma-nccl
	example an-alibaba-cloud-erdma-gpu
	echo N >"$R/sys/module/erdma/parameters/compat_mode"
	expect_not_ready an-alibaba-cloud-erdma-gpu '^FAIL +module\.param +erdma\.compat_mode +Y +N$'
}

# the commented [Port:rails] template: eight 400G InfiniBand rails. The active MTU of an
# InfiniBand port is only known through verbs (sysfs has none), which a --root run does not
# open: those results are unknown here, and nothing else may fail.
ready_commented-port-rails() {
	newroot ib-gpu
	example commented-port-rails
	port_up mlx5_3
	hp -v check
	expect_grep out '^PASS +rdma\.ports +Port:rails +at least 8 active'
	grep -E '^(FAIL|UNKNOWN) ' "$T/out" |
		grep -Ev '^UNKNOWN +rdma\.port +mlx5_[0-7]/1 .*active MTU unknown \(sysfs has none for InfiniBand ports without a netdev\) \[sysfs\]$' >"$T/other"
	[ -s "$T/other" ] && fail "commented-port-rails on its host: $(head -3 "$T/other")"
}
broken_commented-port-rails() { # one rail without a cable
	newroot ib-gpu
	example commented-port-rails
	expect_not_ready commented-port-rails '^FAIL +rdma\.ports +Port:rails .*7 of 8 selected ports active \(down: mlx5_3/1\)'
}

# a Kubernetes GPU node: the runtimes at LimitMEMLOCK=infinity on the (fake) system bus,
# every /dev/infiniband node as udev makes it, the shared netns mode
k8s_host() { # FIXTURE
	newroot "$1"
	example a-kubernetes-gpu-node-with
	mkdir -p "$R/dev/infiniband"
	local d name
	for d in "$R"/sys/class/infiniband_verbs/uverbs* "$R"/sys/class/infiniband_mad/umad* \
		"$R"/sys/class/infiniband_mad/issm* "$R"/sys/class/misc/rdma_cm; do
		[ -e "$d/dev" ] || continue
		name=$(basename "$d")
		rm -f "$R/dev/infiniband/$name"
		mknod "$R/dev/infiniband/$name" c "$(cut -d: -f1 "$d/dev")" "$(cut -d: -f2 "$d/dev")"
		case $name in umad* | issm*) chmod 0600 "$R/dev/infiniband/$name" ;;
		*) chmod 0666 "$R/dev/infiniband/$name" ;; esac
	done
	local u units=()
	for u in containerd docker crio kubelet; do
		units+=("$u.service:loaded:active:infinity:infinity")
	done
	fakebus_start "${units[@]}" || return 1
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
}
ready_a-kubernetes-gpu-node-with() {
	if [ "$(id -u)" != 0 ]; then
		SKIPPED+=("a-kubernetes-gpu-node-with (mknod needs root)")
		return
	fi
	. "$HERE/dbus/fakebus.sh"
	k8s_host workload-ib || { SKIPPED+=("a-kubernetes-gpu-node-with (no fake bus)"); return; }
	expect_ready a-kubernetes-gpu-node-with
	expect_grep out '^PASS +workload\.memlock +kubelet\.service '
	HP_ENV=()
	fakebus_stop
}
broken_a-kubernetes-gpu-node-with() { # ib_core in exclusive netns mode
	[ "$(id -u)" = 0 ] || return
	k8s_host workload-ib-excl || return
	expect_not_ready a-kubernetes-gpu-node-with '^FAIL +workload\.netns +rdma +shared +exclusive'
	HP_ENV=()
	fakebus_stop
}

ready_topology() {
	newroot dgx8
	example topology
	shape_acs
	expect_ready topology
	expect_grep out '^PASS +topology\.p2p +GPU0 '
}
broken_topology() { # ACS as the kernel left it
	newroot dgx8
	example topology
	expect_not_ready topology '^FAIL +topology\.p2p +GPU0 \(0000:18:00\.0\) ↔ NIC0 .*redirected at'
}

ready_a-roce-lag-over-both() {
	newroot bond-lacp
	example a-roce-lag-over-both
	expect_ready a-roce-lag-over-both
	expect_grep out '^PASS +bond\.lag +mlx5_bond_0 '
}
broken_a-roce-lag-over-both() { # one switch port not in the LAG
	newroot bond-lacp-split
	example a-roce-lag-over-both
	expect_not_ready a-roce-lag-over-both '^FAIL +bond\.slave +bond0/ens2f1np1 .*in aggregator 2'
}

ready_active-backup-where-one-link() { # the backup slave's link is down: MinSlavesUp=1
	newroot bond-ab1
	example active-backup-where-one-link
	expect_ready active-backup-where-one-link
	expect_grep out '^PASS +bond +bond1 '
}
broken_active-backup-where-one-link() { # the active slave's link is down too
	newroot bond-ab1
	example active-backup-where-one-link
	echo down >"$R/sys/class/net/ens2f0np0/bonding_slave/mii_status"
	expect_not_ready active-backup-where-one-link '^FAIL +bond +bond1 '
}

ready_links() {
	newroot dgx8
	example links
	expect_ready links
	expect_grep out '^PASS +pcie\.link +0000:18:00\.0 '
}
broken_links() { # an L40 trained at x8 in a x16 slot
	newroot l40-amd
	example links
	expect_not_ready links '^FAIL +pcie\.link +0000:41:00\.0 .*16\.0 GT/s x8, link can do 16\.0 GT/s x16'
}

ready_what-p2p-and-rdma-guides() {
	newroot dgx8
	example what-p2p-and-rdma-guides
	echo 0 >"$R/proc/sys/kernel/numa_balancing"
	expect_ready what-p2p-and-rdma-guides
	expect_grep out '^PASS +sysctl +kernel\.numa_balancing +0 '
}
broken_what-p2p-and-rdma-guides() {
	newroot dgx8
	example what-p2p-and-rdma-guides
	echo 1 >"$R/proc/sys/kernel/numa_balancing"
	expect_not_ready what-p2p-and-rdma-guides '^FAIL +sysctl +kernel\.numa_balancing +0 +1'
}

ready_an-hgx-h100-node-with() {
	newroot ib-gpu
	example an-hgx-h100-node-with
	port_up mlx5_3
	expect_ready an-hgx-h100-node-with
	expect_grep out '^PASS +inventory\.ports +InfiniBand '
}
broken_an-hgx-h100-node-with() { # one rail without a cable
	newroot ib-gpu
	example an-hgx-h100-node-with
	expect_not_ready an-hgx-h100-node-with '^FAIL +inventory\.ports +InfiniBand .*7 of 8 InfiniBand ports active; mlx5_3/1 DOWN'
}

# gpu_host MODEL GPU...: the nvidia module loaded, each GPU initialised by the driver, and
# the NVML answers a snapshot records in $NVML (write it with nvml_record.py)
NVML=
gpu_host() {
	local model=$1 g
	shift
	NVML=$R/run/hostprep/snapshot/nvml.txt
	mkdir -p "$R/run/hostprep/snapshot" "$R/sys/module/nvidia"
	echo 580.65.06 >"$R/sys/module/nvidia/version"
	for g in "$@"; do
		mkdir -p "$R/proc/driver/nvidia/gpus/$g"
		printf 'Model: \t\t %s\nBus Location: \t %s\nDevice Minor: \t 0\n' "$model" "$g" \
			>"$R/proc/driver/nvidia/gpus/$g/information"
	done
}

L40S="0000:01:00.0 0000:41:00.0 0000:81:00.0 0000:c1:00.0"
l40_host() {
	newroot l40-amd
	example an-l40-pcie-box-four
	gpu_host "NVIDIA L40" $L40S
	python3 "$HERE/nvml_record.py" --links 0 $L40S >"$NVML"
}
ready_an-l40-pcie-box-four() {
	l40_host
	expect_ready an-l40-pcie-box-four
	expect_grep out '^PASS +gpu\.driver +host +nvidia >= 550\.54\.14 loaded +nvidia 580\.65\.06 loaded$'
	expect_grep out '^PASS +inventory\.gpus +host .*4 of 4 GPUs'
	expect_grep out '^PASS +iommu\.mode +host +passthrough '
	expect_no_grep out 'gpu\.nvlink' "an L40 has no NVLink to judge"
}
broken_an-l40-pcie-box-four() { # the driver did not initialise one L40
	l40_host
	rm -r "$R/proc/driver/nvidia/gpus/0000:41:00.0"
	expect_not_ready an-l40-pcie-box-four '^FAIL +gpu\.present +0000:41:00\.0 '
}

# the whole HGX H100 8-rail drop-in (conf/examples/): dgx8's eight H100 and eight NDR
# ports (ib-gpu; no NVSwitch function on its bus: no fabric manager asked for), NVML
# answering 18 NVLinks per GPU; apply once with the example (its Apply=yes, Mask=0000000)
HGXS="0000:18:00.0 0000:19:00.0 0000:3a:00.0 0000:3b:00.0 0000:9a:00.0 0000:9b:00.0 0000:ba:00.0 0000:bb:00.0"
hgx_host() { # NVML_RECORD_OPTION...
	newroot ib-gpu
	example hgx-h100-8rail
	gpu_host "NVIDIA H100 80GB HBM3" $HGXS
	python3 "$HERE/nvml_record.py" --links 18 "$@" $HGXS >"$NVML"
	port_up mlx5_3
	# booted with iommu=pt: every IOMMU group in passthrough
	for t in "$R"/sys/kernel/iommu_groups/*/type; do echo identity >"$t"; done
	sed -i 's/$/ iommu=pt/' "$R/proc/cmdline"
	hp apply # its exit is the verdict: 1 on the broken host
}
ready_hgx-h100-8rail() {
	hgx_host
	expect_ready hgx-h100-8rail
	expect_grep out '^PASS +acs +0000:17:00\.0 +0000000: '
	expect_grep out '^PASS +inventory\.ports +InfiniBand .*8 of 8'
	expect_grep out '^PASS +rdma\.port +mlx5_7/1 '
	expect_grep out '^PASS +gpu\.nvlink +0000:bb:00\.0 .*18 of 18 active'
	expect_grep out '^PASS +topology\.p2p '
}
broken_hgx-h100-8rail() { # one NVLink of GPU 5 down
	hgx_host --down 5:3
	expect_not_ready hgx-h100-8rail '^FAIL +gpu\.nvlink +0000:9b:00\.0 .*17 of 18'
}

# a GB200-like tray: four NDR ports on its four ConnectX-7 (the fixture has the RDMA
# devices only), NVML answering for four Blackwell GPUs on the rack's NVLink switches
GB200S="0008:01:00.0 0009:01:00.0 0018:01:00.0 0019:01:00.0"
gb200_host() { # NVML_RECORD_OPTION...
	newroot gb200
	example a-gb200-like-tray-four
	gpu_host "NVIDIA GB200" $GB200S
	python3 "$HERE/nvml_record.py" --links 18 --switch 0000:ff:00.0,0000:fe:00.0 "$@" \
		$GB200S >"$NVML"
	python3 - "$R" "$HERE/net" <<-'PY'
		import os, sys
		sys.path.insert(0, sys.argv[2])
		import netsys
		for n in range(4):
		    d = os.path.realpath(os.path.join(sys.argv[1], "sys/class/infiniband/mlx5_%d" % n))
		    netsys.add_rdma_port(d, 1)
	PY
}
ready_a-gb200-like-tray-four() {
	gb200_host
	expect_ready a-gb200-like-tray-four
	expect_grep out '^PASS +gpu\.fabric +0018:01:00\.0 .*completed, clique 1'
	expect_grep out '^PASS +gpu\.nvlink +0019:01:00\.0 .*18 of 18 active'
	expect_grep out '^PASS +inventory\.ports +InfiniBand .*4 of 4'
}
broken_a-gb200-like-tray-four() { # GPU 2's fabric registration still in progress
	gb200_host --fabric 2:2
	expect_not_ready a-gb200-like-tray-four '^FAIL +gpu\.fabric +0018:01:00\.0 .*in progress'
}

# [AER] Correctable=1000 leaves Exceeded=warn: counters above a threshold warn; only
# counters that cannot be read make the host NOT READY
ready_aer() {
	newroot aer-dgx8
	example aer
	expect_ready aer
	expect_grep out '^PASS +pcie\.aer +0000:18:00\.0 '
}
broken_aer() {
	newroot aer-broken
	example aer
	expect_not_ready aer '^UNKNOWN +pcie\.aer +0000:9c:00\.0 .*aer_dev_fatal unreadable'
}

# [Sinks] names no check: the example only moves the Prometheus file and drops NFD's. Its
# broken host (no node_exporter directory) cannot be NOT READY by design: nothing is
# written, nothing is created, the verdict is the rest's.
# [Xid] on a dgx8 whose kernel log has this boot's lines and no Xid, then Xid 79 and 13
ready_xid() {
	newroot dgx8-kmsg
	example xid
	shape_acs
	expect_ready xid
	expect_grep out '^PASS +xid\.gpu +host +.*no Xid since boot \(kmsg: [0-9]+ records read\)'
}
broken_xid() { # a GPU fell off the bus (Xid 79: reboot)
	newroot dgx8-kmsg-xid
	example xid
	shape_acs
	expect_not_ready xid '^FAIL +xid\.gpu +0000:3b:00\.0 .*Xid 79 at '
}

ready_node-exporter-reads-another-directory() {
	newroot dgx8
	example node-exporter-reads-another-directory
	mkdir -p "$R/var/lib/node_exporter/textfile_collector" \
		"$R/etc/kubernetes/node-feature-discovery/features.d"
	expect_ready node-exporter-reads-another-directory
	[ -s "$R/var/lib/node_exporter/textfile_collector/hostprep.prom" ] ||
		fail "node-exporter-reads-another-directory: no hostprep.prom in its directory"
	[ -z "$(ls -A "$R/etc/kubernetes/node-feature-discovery/features.d")" ] ||
		fail "node-exporter-reads-another-directory: NFD=no, but features.d was written"
}
broken_node-exporter-reads-another-directory() {
	newroot dgx8
	example node-exporter-reads-another-directory
	expect_ready node-exporter-reads-another-directory
	[ -e "$R/var/lib/node_exporter" ] && fail "a sink made node_exporter's directory"
}

# ---- every example, every host -------------------------------------------------------
while IFS=$'\t' read -r -u 3 id where; do
	if ! declare -F "ready_$id" >/dev/null || ! declare -F "broken_$id" >/dev/null; then
		fail "$where: example '$id' has no host: write ready_$id and broken_$id in $(basename "$BASH_SOURCE")"
		continue
	fi
	"ready_$id"
	"broken_$id"
done 3<"$T/index"
for f in $(declare -F | awk '{print $3}' | grep -E '^(ready|broken)_'); do
	grep -q "^${f#*_}	" "$T/index" || fail "$f: conf/ has no example '${f#*_}' any more"
done
[ "${#SKIPPED[@]}" = 0 ] || skip "not run here: ${SKIPPED[*]}"
