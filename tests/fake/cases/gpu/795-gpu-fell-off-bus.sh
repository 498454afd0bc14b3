# [GPU] on an HGX H100 baseboard when a GPU falls off the bus (Xid 79): its config space
# reads all-ones (PCI_DEV_DEAD) or cannot be read at all (PCI_DEV_GONE), while its sysfs
# vendor/class (kept by the kernel) and its /proc/driver/nvidia entry remain. The GPU is
# still one of the [GPU] section's GPUs: gpu.present fails for it, as the one line for that
# GPU (nothing asked of NVML, whose recorded answers may be stale), and the host is NOT
# READY; the GPU map keeps its index and [Inventory] GPUs= counts it as not present. An
# NVSwitch that stops answering still makes the host an NVSwitch host (the fabric manager
# is judged).
newroot hgx-h100
GPUS="0000:18:00.0 0000:19:00.0 0000:3a:00.0 0000:3b:00.0 0000:9a:00.0 0000:9b:00.0 0000:ba:00.0 0000:bb:00.0"
SW=0000:63:00.0,0000:64:00.0,0000:65:00.0,0000:66:00.0
REC=$R/run/hostprep/snapshot/nvml.txt
mkdir -p "$R/run/hostprep/snapshot" "$R/sys/module/nvidia"
echo 580.65.06 >"$R/sys/module/nvidia/version"
echo "loaded active" >"$R/run/hostprep/snapshot/fabricmanager.txt"
python3 "$HERE/nvml_record.py" --links 18 --switch "$SW" $GPUS >"$REC"
printf '[IOMMU]\nExpect=any\n[GPU]\n[Inventory]\nGPUs=8\n' >"$T/gpu.conf"
run() { hp --config "$T/gpu.conf" --json check; }
# of OBJECT: "check=verdict ..." of the results naming OBJECT
of() { jqo "[.results[] | select(.object==\"$1\") | \"\(.check)=\(.verdict)\"] | join(\" \")"; }
cfgof() { readlink -f "$R/sys/bus/pci/devices/$1"; }
allones() {
	chmod u+w "$(cfgof "$1")/config"
	python3 -c "import sys; open(sys.argv[1], 'wb').write(b'\xff' * 4096)" "$(cfgof "$1")/config"
}

run
expect_rc 0
[ "$(of 0000:3a:00.0)" = "gpu.present=pass gpu.persistence=pass gpu.ecc=pass gpu.row-remap=pass gpu.fabric=pass gpu.nvlink=pass" ] ||
	fail "healthy 3a:00.0: $(of 0000:3a:00.0)"

# Xid 79: config space reads all-ones; NVML (recorded before) still answers for it
allones 0000:3a:00.0
run
expect_rc 1
[ "$(of 0000:3a:00.0)" = "gpu.present=fail" ] ||
	fail "a GPU that fell off the bus: one gpu.present fail, got '$(of 0000:3a:00.0)'"
jqo -e '[.results[] | select(.check=="gpu.present" and .object=="0000:3a:00.0")][0] |
	(.actual | test("not responding: config space reads all-ones")) and
	(.actual | test("Xid 79")) and .action == "reboot"' >/dev/null ||
	fail "its actual names all-ones and Xid 79, its action is reboot: $(jqo -c '.results[] | select(.object=="0000:3a:00.0")')"
[ "$(jqo '[.results[] | select(.check=="gpu.present" and .verdict=="pass")] | length')" = 7 ] ||
	fail "the other seven GPUs are still judged present"
[ "$(jqo '.ready')" = false ] || fail "the host is not ready"
jqo -e '[.results[] | select(.check=="inventory.gpus")][0] | .verdict == "fail" and
	(.actual | test("7 of 8"))' >/dev/null ||
	fail "[Inventory] GPUs=8 counts it as not present: $(jqo -c '.results[] | select(.check=="inventory.gpus")')"
# the GPU map keeps it at its PCI-order index (nvidia-smi's), the GPU check judges it
hp --json topology
[ "$(jqo -c '[.gpu_map.gpus[] | select(.pci=="0000:3a:00.0") | .index]')" = "[2]" ] ||
	fail "gpus.json keeps 3a:00.0 at index 2: $(jqo -c '[.gpu_map.gpus[] | [.pci, .index]]')"

# the same GPU with NVML saying GPU_IS_LOST: still the one line, before NVML is asked
python3 "$HERE/nvml_record.py" --links 18 --switch "$SW" \
	--line "gpu2 nvmlDeviceGetHandleByIndex_v2 15" $GPUS >"$REC"
run
expect_rc 1
[ "$(of 0000:3a:00.0)" = "gpu.present=fail" ] ||
	fail "lost in NVML too: one gpu.present fail, got '$(of 0000:3a:00.0)'"

# config space that cannot be read at all (its sysfs entry dangles): unreadable, a fail
python3 "$HERE/nvml_record.py" --links 18 --switch "$SW" $GPUS >"$REC"
rm -f "$(cfgof 0000:bb:00.0)/config"
run
expect_rc 1
[ "$(of 0000:bb:00.0)" = "gpu.present=fail" ] ||
	fail "an unreadable GPU: one gpu.present fail, got '$(of 0000:bb:00.0)'"
jqo -e '[.results[] | select(.object=="0000:bb:00.0")][0].actual | test("config space unreadable")' \
	>/dev/null || fail "its actual says the config space is unreadable"

# every NVSwitch stops answering: still an NVSwitch host, the fabric manager judged
for s in ${SW//,/ }; do allones "$s"; done
run
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="gpu.fabric-manager")] | length')" = 1 ] ||
	fail "NVSwitches that do not answer still make the fabric manager a check"
