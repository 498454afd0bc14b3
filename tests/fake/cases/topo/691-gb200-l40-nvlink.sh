# [GPU] NVLink and fabric where no NVSwitch is on the bus (issue 28 §2). A GB200-like
# tray: its four Blackwell GPUs reach the NVLink switch trays outside the node, so NVML's
# fabric info (a clique) is the evidence and there is no fabric manager to ask; healthy
# they pass and the topology prints NV18 between them, a fabric still in progress or a
# link down fails, two cliques are not one NVLink domain. An L40 box: no NVLink, so
# nothing about links is reported unless NVLinks= asks (then it is the config's mistake),
# and the topology's legend says NVLink was read (no NV# cell).
GB="0008:01:00.0 0009:01:00.0 0018:01:00.0 0019:01:00.0"
setup() { # setup FIXTURE GPU...: the driver loaded and each GPU initialised
	newroot "$1"
	shift
	REC=$R/run/hostprep/snapshot/nvml.txt
	mkdir -p "$R/run/hostprep/snapshot" "$R/sys/module/nvidia"
	echo 580.65.06 >"$R/sys/module/nvidia/version"
	for g in "$@"; do
		mkdir -p "$R/proc/driver/nvidia/gpus/$g"
		printf 'Model: \t\t NVIDIA GB200\nBus Location: \t %s\nDevice Minor: \t 0\n' "$g" \
			>"$R/proc/driver/nvidia/gpus/$g/information"
	done
}
conf() { printf '[IOMMU]\nExpect=any\n[GPU]\n%s\n' "$1" >"$T/gpu.conf"; }
run() { hp --config "$T/gpu.conf" --json check; }
count() { jqo "[.results[] | select(.check==\"$1\" and .verdict==\"$2\")] | length"; }
want() { # want RC CHECK VERDICT N what
	[ "$RC" = "$1" ] && [ "$(count "$2" "$3")" = "$4" ] ||
		fail "$5: exit $RC, $(count "$2" "$3") $2 $3; want exit $1, $4"
}
gb() { python3 "$HERE/nvml_record.py" --links 18 --switch 0000:ff:00.0,0000:fe:00.0 "$@" $GB >"$REC"; }

setup gb200 $GB
conf ""
gb
run
want 0 gpu.fabric pass 4 "GB200 healthy: fabric from NVML"
want 0 gpu.nvlink pass 4 "GB200 healthy: links"
[ "$(jqo '[.results[] | select(.check=="gpu.fabric-manager")] | length')" = 0 ] ||
	fail "no NVSwitch on the bus: no fabric manager result"
hp topology
expect_rc 0
golden gb200-nvlink-topology.txt
[ "$(grep -c '^GPU[0-3] .*NV18 .*NV18 .*NV18' "$T/out")" = 4 ] || fail "GB200: NV18 between the four GPUs"
gb --fabric 2:2
run; want 1 gpu.fabric fail 1 "GB200: a fabric still in progress"
gb --down 1:17
run; want 1 gpu.nvlink fail 1 "GB200: a link down"
gb --clique 2:2 --clique 3:2
hp topology
grep -q '^GPU0     X     NV18   SYS    SYS' "$T/out" || fail "two cliques: $(grep '^GPU0' "$T/out")"
gb --fabric-all 0
run; want 0 gpu.fabric pass 0 "fabric NOT_SUPPORTED without NVSwitch: nothing judged"
[ "$(jqo '[.results[] | select(.check=="gpu.fabric")] | length')" = 0 ] ||
	fail "fabric info not supported and no NVSwitch: no gpu.fabric line"

L40="0000:01:00.0 0000:41:00.0 0000:81:00.0 0000:c1:00.0"
setup l40-amd $L40
python3 "$HERE/nvml_record.py" --links 0 $L40 >"$REC"
conf ""
run
[ "$(jqo '[.results[] | select(.check=="gpu.nvlink" or .check=="gpu.fabric" or .check=="gpu.fabric-manager")] | length')" = 0 ] ||
	fail "L40: no NVLink, nothing declared: no link or fabric lines"
conf "NVLinks=4"
run; want 1 gpu.nvlink fail 4 "L40 with NVLinks=4: the config's mistake"
[ "$(jqo '[.results[] | select(.check=="gpu.nvlink")][0].action')" = config ] || fail "L40 NVLinks=: action"
hp topology
expect_grep out '^  NV#  = through a bonded set of # NVLinks \(NVML\)$' "L40: NVLink read"
expect_no_grep out 'NV[0-9]' "L40: no NV# cell"
