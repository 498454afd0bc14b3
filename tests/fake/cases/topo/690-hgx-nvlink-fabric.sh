# [GPU] on an HGX H100 baseboard (issue 28 §2): eight H100 SXM5 on four NVSwitches
# (hgx-h100: dgx8 plus the NVSwitch functions on the bus), NVML's answers recorded as a
# snapshot records them. Healthy, every GPU's 18 NVLinks are active and its fabric state
# completed: the fabric manager, the fabric and the links pass, the topology prints NV18
# as nvidia-smi topo -m does, and ExpectP2P= counts NVLink pairs as direct although the
# PCIe switches redirect. Each broken edge is one answer changed: the fabric manager
# inactive, not installed, or not recorded; a fabric in progress, not started, completed
# with an error; a link down (NV17 for its pairs); NVLinks= at and past the edge; links
# not answered or not supported; a GPU lost; no NVML at all. Nothing unread is a pass.
newroot hgx-h100
GPUS="0000:18:00.0 0000:19:00.0 0000:3a:00.0 0000:3b:00.0 0000:9a:00.0 0000:9b:00.0 0000:ba:00.0 0000:bb:00.0"
SW=0000:63:00.0,0000:64:00.0,0000:65:00.0,0000:66:00.0
REC=$R/run/hostprep/snapshot/nvml.txt
FM=$R/run/hostprep/snapshot/fabricmanager.txt
mkdir -p "$R/run/hostprep/snapshot" "$R/sys/module/nvidia"
echo 580.65.06 >"$R/sys/module/nvidia/version"
# record OPTION...: the HGX's NVML answers, healthy but for the options (nvml_record.py)
record() { python3 "$HERE/nvml_record.py" --links 18 --switch "$SW" "$@" $GPUS >"$REC"; }
conf() { printf '[IOMMU]\nExpect=any\n[GPU]\n%s\n' "$1" >"$T/gpu.conf"; }
run() { hp --config "$T/gpu.conf" --json check; }
# v CHECK OBJECT FIELD
v() { jqo -r "[.results[] | select(.check==\"$1\" and .object==\"$2\")][0].$3"; }
# count CHECK VERDICT: how many results of CHECK have VERDICT
count() { jqo "[.results[] | select(.check==\"$1\" and .verdict==\"$2\")] | length"; }
want() { # want RC CHECK VERDICT N what
	[ "$RC" = "$1" ] && [ "$(count "$2" "$3")" = "$4" ] ||
		fail "$5: exit $RC, $(count "$2" "$3") $2 $3; want exit $1, $4"
}

echo "loaded active" >"$FM"
record
conf ""
hp --config "$T/gpu.conf" check
expect_rc 0
golden hgx-h100-gpu-check.txt
run
want 0 gpu.nvlink pass 8 "healthy: every GPU's links"
want 0 gpu.fabric pass 8 "healthy: every GPU's fabric"
want 0 gpu.fabric-manager pass 1 "healthy: the fabric manager"
[ "$(v gpu.nvlink 0000:3a:00.0 actual)" = "18 of 18 active (recorded NVML)" ] ||
	fail "nvlink evidence: $(v gpu.nvlink 0000:3a:00.0 actual)"
[ "$(v gpu.fabric 0000:18:00.0 actual)" = "completed, clique 1 (recorded NVML)" ] ||
	fail "fabric evidence: $(v gpu.fabric 0000:18:00.0 actual)"
[ "$(v gpu.fabric-manager nvidia-fabricmanager.service actual)" = "active (systemd: LoadState=loaded)" ] ||
	fail "fabric manager evidence: $(v gpu.fabric-manager nvidia-fabricmanager.service actual)"
hp topology
expect_rc 0
golden hgx-h100-topology.txt
[ "$(grep -c '^GPU[0-7] .*NV18' "$T/out")" = 8 ] || fail "every GPU row has NV18 cells: $(grep -c '^GPU[0-7] .*NV18' "$T/out")"
[ "$(grep -c 'P2P over NVLink (NV18)$' "$T/out")" = 4 ] || fail "the GPU pairs' paths name NVLink"
expect_grep out '^  NV#  = through a bonded set of # NVLinks \(NVML\)$' "the legend's NV# line"
hp --json topology
[ "$(jqo '.matrix[0][1]')" = NV18 ] || fail "JSON matrix GPU0-GPU1: $(jqo '.matrix[0][1]')"
[ "$(jqo '.matrix[0][8]')" = PIX ] || fail "JSON matrix GPU0-NIC0 stays PCIe: $(jqo '.matrix[0][8]')"
[ "$(jqo '.nvlink_source')" = NVML ] || fail "JSON nvlink_source: $(jqo '.nvlink_source')"

# ExpectP2P=gpu:gpu: the PCIe switches redirect (RR, CR on), NVLink does not care
printf '[Topology]\nExpectP2P=gpu:gpu\n' >"$T/p2p.conf"
hp --config "$T/p2p.conf" --json check
[ "$(jqo '[.results[] | select(.check=="topology.p2p")] | map(.verdict) | unique | join(",")')" = pass ] ||
	fail "NVLink pairs: $(jqo '[.results[] | select(.check=="topology.p2p") | .verdict]')"
jqo '[.results[] | select(.check=="topology.p2p")][0].actual' | grep -q '^direct over NVLink (NV18, NVML); the PCIe path: redirected at ' ||
	fail "the NVLink pair's evidence: $(jqo '[.results[] | select(.check=="topology.p2p")][0].actual')"
mv "$REC" "$T/rec"
hp --config "$T/p2p.conf" --json check
[ "$(jqo '[.results[] | select(.check=="topology.p2p" and .verdict=="fail")] | length')" = 4 ] ||
	fail "without NVML the redirected switch pairs fail: $(jqo '[.results[] | select(.check=="topology.p2p") | .verdict]')"
mv "$T/rec" "$REC"

# the fabric manager: inactive, failed, not installed, not recorded; live over D-Bus below
echo "loaded inactive" >"$FM"; run; want 1 gpu.fabric-manager fail 1 "fabric manager inactive"
[ "$(v gpu.fabric-manager nvidia-fabricmanager.service action)" = config ] || fail "inactive: action"
echo "loaded failed" >"$FM"; run; want 1 gpu.fabric-manager fail 1 "fabric manager failed"
echo "not-found inactive" >"$FM"; run; want 1 gpu.fabric-manager fail 1 "fabric manager not installed"
[ "$(v gpu.fabric-manager nvidia-fabricmanager.service action)" = driver ] || fail "not installed: action"
rm "$FM"; run; want 1 gpu.fabric-manager unknown 1 "fabric manager not recorded"
echo "loaded active" >"$FM"

# the fabric, one GPU at a time: each state NVML can give
record --fabric 3:2; run; want 1 gpu.fabric fail 1 "fabric in progress"
[ "$(v gpu.fabric 0000:3b:00.0 actual)" = "in progress (recorded NVML)" ] || fail "in progress: $(v gpu.fabric 0000:3b:00.0 actual)"
[ "$(v gpu.fabric 0000:3b:00.0 action)" = inspect ] || fail "in progress: action"
record --fabric 3:1; run; want 1 gpu.fabric fail 1 "fabric not started"
[ "$(v gpu.fabric 0000:3b:00.0 action)" = config ] || fail "not started: action"
record --fabric 3:3:999; run; want 1 gpu.fabric fail 1 "fabric completed with an error"
[ "$(v gpu.fabric 0000:3b:00.0 actual)" = "completed with UNKNOWN (recorded NVML)" ] || fail "error: $(v gpu.fabric 0000:3b:00.0 actual)"
[ "$(v gpu.fabric 0000:3b:00.0 action)" = reset-gpu ] || fail "completed with an error: action"
record --fabric 3:3:0; run; want 0 gpu.fabric pass 8 "completed with success: the edge"
record --fabric-all 0; run; want 0 gpu.fabric skip 8 "before Hopper: no fabric state, skipped (the manager is the evidence)"
record --line "gpu3 nvmlDeviceGetGpuFabricInfo 3"; run; want 0 gpu.fabric skip 1 "fabric info NOT_SUPPORTED"
record --line "gpu3 nvmlDeviceGetGpuFabricInfo 13"; run; want 1 gpu.fabric unknown 1 "fabric info not answered"

# the links
record --down 2:5; run; want 1 gpu.nvlink fail 1 "one link down"
[ "$(v gpu.nvlink 0000:3a:00.0 actual)" = "17 of 18 active; down: link 5 (recorded NVML)" ] ||
	fail "link down evidence: $(v gpu.nvlink 0000:3a:00.0 actual)"
[ "$(v gpu.nvlink 0000:3a:00.0 action)" = reset-gpu ] || fail "link down: action"
hp topology
[ "$(grep -c '^GPU[0-7] .*NV17' "$T/out")" = 8 ] || fail "GPU2's pairs are NV17: $(grep -c '^GPU[0-7] .*NV17' "$T/out") rows"
conf "NVLinks=17"; run; want 0 gpu.nvlink pass 8 "NVLinks=17, 17 active: the edge"
conf "NVLinks=18"; run; want 1 gpu.nvlink fail 1 "NVLinks=18, 17 active"
conf "NVLinks=any"; run; want 0 gpu.nvlink pass 0 "NVLinks=any: not judged"
[ "$(jqo '[.results[] | select(.check=="gpu.nvlink")] | length')" = 0 ] || fail "NVLinks=any reports links"
record
conf "NVLinks=18"; run; want 0 gpu.nvlink pass 8 "NVLinks=18, all up"
for bad in 0 19 -1 x ""; do
	[ -z "$bad" ] && continue
	conf "NVLinks=$bad"; run
	[ "$RC" = 2 ] || fail "NVLinks=$bad: exit $RC, want 2"
	expect_grep err "gpu.conf:4: NVLinks=: invalid value '$bad'" "NVLinks=$bad: no file:line reason"
done
conf ""
python3 "$HERE/nvml_record.py" --links 0 --switch "$SW" $GPUS >"$REC"
run; want 0 gpu.nvlink skip 8 "NVSwitch host, GPUs without NVLink: skipped, never pass"
record; grep -v NvLink "$REC" >"$REC.new"; mv "$REC.new" "$REC"
run; want 1 gpu.nvlink unknown 8 "a record without link answers: unknown on an NVSwitch host"
record --line "gpu4 nvmlDeviceGetHandleByIndex_v2 15"
run; want 1 gpu.nvlink fail 1 "GPU lost: a failure"
rm "$REC"
run; want 1 gpu.nvlink unknown 8 "no NVML: links unknown"
want 1 gpu.fabric unknown 8 "no NVML: fabric unknown"
hp topology
expect_grep out '^  PCIe only: NVLink not read \(under --root' "no NVML: the legend says PCIe only"
expect_no_grep out 'NV[0-9]' "no NVML: no NV# cell"

# live over D-Bus (a fake systemd on a private bus): the bus wins over the record
. "$HERE/dbus/fakebus.sh"
record
echo "loaded active" >"$FM"
if fakebus_start nvidia-fabricmanager.service:loaded:failed:0:0; then
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	run; want 1 gpu.fabric-manager fail 1 "D-Bus: failed"
	[ "$(v gpu.fabric-manager nvidia-fabricmanager.service actual)" = "failed (systemd: LoadState=loaded)" ] ||
		fail "D-Bus evidence: $(v gpu.fabric-manager nvidia-fabricmanager.service actual)"
	fakebus_stop
	HP_ENV=()
fi
