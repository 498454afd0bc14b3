# A real GPU host (tests/fake/real/README.md, h100-firecracker): one H100 80GB HBM3
# passed through to a Firecracker VM, driver 580.159.04, captured by `hostprep snapshot`
# on the lent device and completed with /proc/driver/nvidia and the GPU's sysfs attributes
# (tests/device/capture.sh). The snapshot replays to the verdicts the device printed,
# result for result, and the topology the device printed, byte for byte; and the GPU map
# read from sysfs and /proc/driver/nvidia agrees with what NVML answered there (nvml.txt,
# itself checked against NVIDIA's pynvml: nvml-pynvml.txt) and with nvidia-smi -q.
. "$HERE/real/lib.sh"
FX=$HERE/real/h100-firecracker
realroot h100-firecracker
hp --config "$FX/hostprep.conf" --json check
expect_rc 0
want=$(jq -c '[.results[] | [.check, .object, .verdict, .expected, .actual]]' "$FX/device-check.json")
got=$(jq -c '[.results[] | [.check, .object, .verdict, .expected, .actual]]' "$T/out")
[ "$got" = "$want" ] || fail "replay: $got, on the device: $want"
hp --config "$FX/hostprep.conf" topology
expect_rc 0
# The device printed its topology before the NVLink legend line existed; this root holds
# no NVML record, so the replay says NVLink was not read (and nothing else differs).
grep -qx '  PCIe only: NVLink not read (under --root .* recorded in /run/hostprep/snapshot/nvml.txt)' "$T/out" ||
	fail "the replay does not say that NVLink was not read"
grep -v '^  PCIe only: NVLink not read' "$T/out" >"$T/out.pcie"
cmp -s "$T/out.pcie" "$FX/device-topology.txt" || fail "topology differs from the device's: $(diff "$FX/device-topology.txt" "$T/out.pcie" | head -5)"
hp --json topology
expect_rc 0
# the independent readers: NVML (C declarations) = pynvml (NVIDIA's binding) = nvidia-smi
cmp -s <(grep -v '^nvmlInit_v2\|^nvmlShutdown\|HandleByIndex\|NvLinkState' "$FX/nvml.txt") \
	<(grep -v 'NvLinkState' "$FX/nvml-pynvml.txt" | sed 's/^\(gpu0 nvmlDeviceGetRetiredPagesPendingStatus 3\)$/\1 -1/') ||
	fail "nvml.txt and nvml-pynvml.txt disagree"
nv() { awk -v k="gpu0 $1" 'index($0, k " 0 ") == 1 { print substr($0, length(k) + 4) }' "$FX/nvml.txt"; }
bus=$(nv nvmlDeviceGetPciInfo_v3 | cut -d' ' -f1)
[ "$(jqo '.gpu_map.gpus | length')" = "$(awk '$1 == "nvmlDeviceGetCount_v2" { print $3 }' "$FX/nvml.txt")" ] ||
	fail "GPU count differs from NVML's"
[ "$(jqo '.gpu_map.gpus[0].pci')" = "${bus#0000}" ] || fail "GPU0 at $(jqo '.gpu_map.gpus[0].pci'), NVML: $bus"
[ "$(jqo '.gpu_map.gpus[0].uuid')" = "$(nv nvmlDeviceGetUUID)" ] || fail "GPU0 UUID differs from NVML's"
[ "$(jqo '.gpu_map.gpus[0].model')" = "$(nv nvmlDeviceGetName)" ] || fail "GPU0 model differs from NVML's"
[ "$(jqo '.gpu_map.gpus[0].id')" = "10de:$(nv nvmlDeviceGetPciInfo_v3 | cut -d' ' -f2 | cut -c3-6)" ] ||
	fail "GPU0 device id differs from NVML's"
grep -q "GPU UUID *: $(jqo '.gpu_map.gpus[0].uuid')\$" "$FX/nvidia-smi-q.txt" || fail "UUID not nvidia-smi's"
grep -q "Minor Number *: $(jqo '.gpu_map.gpus[0].minor')\$" "$FX/nvidia-smi-q.txt" || fail "minor not nvidia-smi's"
expect_tree_same
