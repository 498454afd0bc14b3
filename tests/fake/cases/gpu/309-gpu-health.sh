# [GPU] (issue 28 §1, §3) on the real H100 host's snapshot (tests/fake/real/h100-firecracker)
# with NVML's answers recorded as a snapshot records them (/run/hostprep/snapshot/nvml.txt,
# first the real ones): every verdict of the driver, the GPU's initialisation, persistence,
# MIG, VBIOS and memory health, from the answer NVML gives (errors included) — each edge
# one line of the record changed. Nothing NVML did not answer is a pass; nothing is written.
. "$HERE/real/lib.sh"
FX=$HERE/real/h100-firecracker
realroot h100-firecracker
REC=$R/run/hostprep/snapshot/nvml.txt
mkdir -p "$(dirname "$REC")"
conf() { printf '[IOMMU]\nExpect=any\n[GPU]\n%s\n' "$1" >"$T/gpu.conf"; }
# record LINE...: the real record with each "gpu0 CALL ..." line given replaced (or added)
record() {
	cp "$FX/nvml.txt" "$REC"
	for l in "$@"; do
		key=$(printf '%s' "$l" | cut -d' ' -f1-2)
		grep -v "^$key " "$REC" >"$REC.new"
		printf '%s\n' "$l" >>"$REC.new"
		mv "$REC.new" "$REC"
	done
}
# verdicts CHECK... : "check=verdict ..." of the last run, in report order
verdicts() { jq -r '[.results[] | select(.check | startswith("gpu.")) | "\(.check)=\(.verdict)"] | join(" ")' "$T/out"; }
run() { hp --config "$T/gpu.conf" --json check; }
want() { # want RC "check=verdict ..." what
	[ "$RC" = "$1" ] && [ "$(verdicts)" = "$2" ] || fail "$3: exit $RC, $(verdicts); want $1, $2"
}
ALLPASS="gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.ecc=pass gpu.row-remap=pass"

conf ""
record
hp --config "$T/gpu.conf" check
expect_rc 0
golden real-h100-gpu-check.txt
run; want 0 "$ALLPASS" "the real answers"
jq -e '[.results[] | select(.check == "gpu.ecc")][0].actual == "0 since the driver loaded (recorded NVML)"' "$T/out" >/dev/null ||
	fail "the evidence names the recorded NVML"

# what hostprep itself recorded through the real NVML on the device (its snapshot of a
# live [GPU] check, tests/device/capture-gpu.sh) replays to the verdicts it printed there
cp "$FX/nvml-recorded.txt" "$REC"
hp --config "$FX/hostprep-gpu.conf" --json check
expect_rc 0
[ "$(jq -c '[.results[] | [.check, .object, .verdict]]' "$T/out")" = \
	"$(jq -c '[.results[] | [.check, .object, .verdict]]' "$FX/device-gpu-check.json")" ] ||
	fail "the recorded NVML does not replay to the device's live verdicts"
record

# the driver
conf "MinDriver=580.159.04"; run; want 0 "$ALLPASS" "MinDriver= equal"
conf "MinDriver=580.159.05"; run; want 1 "${ALLPASS/gpu.driver=pass/gpu.driver=fail}" "MinDriver= one above"
conf "MinDriver=580.65"; run; want 0 "$ALLPASS" "MinDriver= fields compared as numbers (65 < 159)"
conf "Driver=580.159.04"; run; want 0 "$ALLPASS" "Driver= exact"
conf "Driver=580.159.03"; run; want 1 "${ALLPASS/gpu.driver=pass/gpu.driver=fail}" "Driver= another"
conf ""
record "nvmlInit_v2 18"
run; want 1 "gpu.driver=fail gpu.present=pass gpu.persistence=unknown gpu.ecc=unknown gpu.row-remap=unknown" \
	"library and module of different versions (upgraded without a reboot)"
expect_grep out "reboot" "the mismatch's remedy"
record
mv "$R/sys/module/nvidia/version" "$T/version"
run; want 1 "gpu.driver=fail" "module not loaded: one cause, no line per GPU"
mv "$T/version" "$R/sys/module/nvidia/version"

# the GPU the driver did not bring up
mv "$R/proc/driver/nvidia/gpus/0000:00:06.0" "$T/gpu0"
run; want 1 "${ALLPASS/gpu.present=pass/gpu.present=fail}" "no /proc/driver/nvidia entry"
mv "$T/gpu0" "$R/proc/driver/nvidia/gpus/0000:00:06.0"
record "gpu0 nvmlDeviceGetHandleByIndex_v2 15"
run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=fail gpu.ecc=fail gpu.row-remap=fail" \
	"GPU_IS_LOST: a failure, not an open question"

# persistence
record "gpu0 nvmlDeviceGetPersistenceMode 0 0"
run; want 1 "${ALLPASS/gpu.persistence=pass/gpu.persistence=fail}" "persistence off"
conf "Persistence=any"; run; want 0 "gpu.driver=pass gpu.present=pass gpu.ecc=pass gpu.row-remap=pass" \
	"Persistence=any: not checked"
conf ""
record "gpu0 nvmlDeviceGetPersistenceMode 4"
run; want 1 "${ALLPASS/gpu.persistence=pass/gpu.persistence=unknown}" "NO_PERMISSION: unknown"

# MIG
record
conf "MIG=off"; run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=pass gpu.ecc=pass gpu.row-remap=pass" "MIG off as wanted"
conf "MIG=on"; run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=fail gpu.ecc=pass gpu.row-remap=pass" "MIG off, on wanted"
record "gpu0 nvmlDeviceGetMigMode 0 1 1"
run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=pass gpu.ecc=pass gpu.row-remap=pass" "MIG on"
record "gpu0 nvmlDeviceGetMigMode 0 1 0"
run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=fail gpu.ecc=pass gpu.row-remap=pass" "MIG on, off pending"
record "gpu0 nvmlDeviceGetMigMode 3"
run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=fail gpu.ecc=pass gpu.row-remap=pass" "no MIG, on wanted"
conf "MIG=off"; run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.mig=pass gpu.ecc=pass gpu.row-remap=pass" "no MIG, off wanted"

# VBIOS (NVML's; /proc/driver/nvidia's without NVML)
record
conf "MinVBIOS=96.00.DA.00.0C"; run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.vbios=pass gpu.ecc=pass gpu.row-remap=pass" "VBIOS equal"
conf "MinVBIOS=96.00.DA.00.0D"; run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.vbios=fail gpu.ecc=pass gpu.row-remap=pass" "VBIOS one below"
conf "MinVBIOS=96.00.9F"; run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.vbios=pass gpu.ecc=pass gpu.row-remap=pass" "VBIOS fields as hex (DA > 9F)"

# memory health
conf ""
record "gpu0 nvmlDeviceGetTotalEccErrors 0 uncorrected volatile 1"
run; want 1 "${ALLPASS/gpu.ecc=pass/gpu.ecc=fail}" "one uncorrectable ECC error"
record "gpu0 nvmlDeviceGetTotalEccErrors 3 uncorrected volatile 0"
run; want 0 "${ALLPASS/gpu.ecc=pass/gpu.ecc=skip}" "ECC not supported: skip"
record "gpu0 nvmlDeviceGetRemappedRows 0 2 1 1 0"
run; want 1 "${ALLPASS/gpu.row-remap=pass/gpu.row-remap=fail}" "row remap pending"
expect_grep out "nvidia-smi -r -i 0000:00:06.0" "the reset names the GPU"
[ "$(jqo '.results[] | select(.check == "gpu.row-remap") | .action')" = reset-gpu ] ||
	fail "a pending remap's action is reset-gpu"
record "gpu0 nvmlDeviceGetRemappedRows 0 0 1 0 1"
run; want 1 "${ALLPASS/gpu.row-remap=pass/gpu.row-remap=fail}" "row remap failed"
expect_grep out "serviced" "a failed remap is field service"
[ "$(jqo '.results[] | select(.check == "gpu.row-remap") | .action')" = hardware ] ||
	fail "a failed remap's action is hardware (field service)"
record "gpu0 nvmlDeviceGetRemappedRows 0 5 0 0 0"
run; want 0 "$ALLPASS" "remapped rows, none pending: pass"
record "gpu0 nvmlDeviceGetRemappedRows 3" "gpu0 nvmlDeviceGetRetiredPagesPendingStatus 0 1"
run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.ecc=pass gpu.retired-pages=fail" \
	"before A100: page retirement pending"
record "gpu0 nvmlDeviceGetRemappedRows 3" "gpu0 nvmlDeviceGetRetiredPagesPendingStatus 0 0"
run; want 0 "gpu.driver=pass gpu.present=pass gpu.persistence=pass gpu.ecc=pass gpu.retired-pages=pass" \
	"before A100: nothing pending"
record "gpu0 nvmlDeviceGetRemappedRows 13"
run; want 1 "${ALLPASS/gpu.row-remap=pass/gpu.row-remap=unknown}" "a library without the call: unknown"

# no NVML under --root: unknown, never a pass
rm -f "$REC"
run; want 1 "gpu.driver=pass gpu.present=pass gpu.persistence=unknown gpu.ecc=unknown gpu.row-remap=unknown" \
	"nothing recorded"
expect_grep out "no answers are recorded" "the unknown says why"

# a host without NVIDIA GPUs that declares [GPU]
mv "$R/sys/bus/pci/devices/0000:00:06.0" "$T/gpudev"
mv "$R/sys/module/nvidia/version" "$T/version"
run; want 1 "gpu.driver=fail" "no GPU, no driver"
mv "$T/gpudev" "$R/sys/bus/pci/devices/0000:00:06.0"
mv "$T/version" "$R/sys/module/nvidia/version"
rm -rf "$R/run"
expect_tree_same
