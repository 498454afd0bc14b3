# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the hostprep snapshot cases (340-349), sourced by them after lib.sh.

# Every fixture of mkroot.py --list, with the configs the other cases run it with
# ("-": no configuration at all). A fixture missing here fails 340/341: add it.
declare -A SNAP_CONFIGS=(
	[dgx8]="- audit gpu-p2p ec-on iommu-pt iommu-translated kmod-erdma links p2p-gpu-nic switch-ids topo-expect"
	[l40-amd]="- bond-lacp iommu-off l40 links-fail"
	[vm-noacs]="- gpu-p2p vm iommu-translated"
	[dgx8-nonroot]="- gpu-p2p"
	[dgx8-nommconf]="- gpu-p2p vm"
	[2socket]="- gpu-p2p topo-expect-fixed"
	[ofed-gpu]="- kmod-erdma kmod-ofed"
	[ofed-mixed]="- kmod-erdma kmod-ofed"
	[ofed-inbox]="- kmod-ofed"
	[erdma-std]="- gpu-p2p kmod-erdma kmod-ofed kmod-persist-two"
	[erdma-inuse]="- kmod-erdma kmod-virtio-nic"
	[erdma-compat]="- kmod-erdma kmod-persist-two"
	[erdma-mainline]="- kmod-erdma kmod-ofed"
	[erdma-absent]="- kmod-erdma"
	[erdma-nccl]="- kmod-erdma"
	[virtio-nic]="- kmod-erdma kmod-virtio-nic"
	[bond-lacp]="- bond-ab bond-lacp bond-notabond"
	[bond-lacp-split]="- bond-lacp"
	[bond-lacp-nocap]="- bond-lacp"
	[bond-ab]="- bond-ab"
	[bond-ab1]="-"
	[dgx8-gpu-lost]="- gpu-p2p topo-expect"
	[dgx8-kmsg]="- xid"
	[dgx8-kmsg-xid]="- xid"
	[accel-plx]="-"
	[ib-gpu]="- rdma-allowdown rdma-erdma rdma-ib-gpu inventory"
	[ib-gpu-lag]="- ib-gpu-lag bond-lacp"
	[ib-gpu-lag-split]="- ib-gpu-lag bond-lacp"
	[erdma-vm]="- rdma-erdma rdma-ib-gpu"
	[hp-es1000]="- topo-expect links"
	[gb200]="- topo-expect links"
	[hgx-h100]="- topo-expect"
	[vmd]="- gpu-p2p links inventory"
	[vmd-ib]="- rdma-ib-gpu inventory"
	[inv-faults]="- inventory"
	[inv-disabled]="- inventory-ports"
	[inv-vf]="- inventory"
	[inv-qat]="- inventory"
	[es1000-plain]="- inventory-es1000"
	[aer-dgx8]="- aer aer-strict"
	[aer-broken]="- aer"
	[workload-ib]="- workload:DeviceNodes=yes workload:NetnsMode=shared"
	[workload-ib-excl]="- workload:NetnsMode=exclusive"
	[workload-ib-nomad]="- workload:DeviceNodes=yes"
)

# snap_conf CONF: install one entry of SNAP_CONFIGS in $R
snap_conf() {
	case $1 in
	-) ;;
	workload:*) printf '[Workload]\n%s\n' "${1#workload:}" >"$R/etc/hostprep/hostprep.conf" ;;
	*) useconf "$1" ;;
	esac
}

# snap_norm FILE ROOT: a --json report without what says when it ran and under which root,
# and without the processes that hold an RDMA device (/proc/PID is not captured: erdma-inuse)
snap_norm() {
	jq 'del(.time)' "$1" | sed -E -e "s|$2|@ROOT@|g" -e 's/, pid [0-9]+ \([^)]*\) holds [^)]*//'
}

# snap_extract TAR DIR: a fresh DIR with the tar unpacked (zstd or gzip, tar decides)
snap_extract() {
	rm -rf "$2"
	mkdir -p "$2"
	tar --warning=no-unknown-keyword -xf "$1" -C "$2" || fail "tar -xf $(basename "$1") failed"
}

# roundtrip FIXTURE CONF: check the fixture, snapshot it, check the extract: the same
# report (but its time and root), the same exit status
roundtrip() {
	local what="$1 with ${2}" rc_host rc_replay
	newroot "$1"
	snap_conf "$2"
	hp --json check
	rc_host=$RC
	cp "$T/out" "$T/host.json"
	hp snapshot -o "$T/snap.tar.zst"
	[ "$RC" = 0 ] || { fail "$what: snapshot exit $RC: $(head -c 300 "$T/err")"; return; }
	snap_extract "$T/snap.tar.zst" "$T/x"
	"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
	rc_replay=$?
	[ "$rc_host" = "$rc_replay" ] || fail "$what: check exit $rc_host on the host, $rc_replay on the replay"
	if ! diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/rt.diff"; then
		fail "$what: the replay's report differs (diff host replay):"
		head -30 "$T/rt.diff" | sed 's/^/    /'
	fi
	# the replay read the same things: nothing is left unread for lack of a file
	grep -q 'No such file' "$T/replay.err" && ! grep -q 'No such file' "$T/err.$((HPN - 1))" &&
		fail "$what: the replay misses files: $(grep 'No such file' "$T/replay.err" | head -3)"
	return 0
}

# roundtrip_all PATTERN: every fixture whose name matches, with each of its configs
roundtrip_all() {
	local fx c n=0
	for fx in $(python3 "$HERE/mkroot.py" --list); do
		# shellcheck disable=SC2254 # a glob on purpose
		case $fx in $1) ;; *) continue ;; esac
		[ -n "${SNAP_CONFIGS[$fx]:-}" ] || { fail "fixture $fx has no entry in SNAP_CONFIGS (lib-snapshot.sh)"; continue; }
		for c in ${SNAP_CONFIGS[$fx]}; do
			roundtrip "$fx" "$c"
			n=$((n + 1))
		done
	done
	note "$n round trips"
	[ "$n" -gt 0 ] || fail "no fixture matches $1"
}
