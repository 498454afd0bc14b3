# An NVIDIA GPU of display class (0300: RTX A6000, RTX 6000 Ada, an A40 in display mode)
# that a VM puts on its root bus (i440fx; a q35 guest with the GPU on pcie.0) is a GPU: the
# root-bus exclusion is for onboard VGA, and NVIDIA makes none. gpus.json gives it
# nvidia-smi's index 0 (PCI order) and the H100 behind the root port index 1 (not 0), no
# driver entry is left without its GPU, [Inventory] GPUs=2 counts both and [GPU] judges
# both. An AMD display controller at the same place stays onboard graphics, and so does an
# NVIDIA one without the PCI Express capability (conventional PCI).
newroot vm-noacs
E=$HERE/real/edit.py
A6000=0000:00:01.0
H100=$(cd "$R/sys/bus/pci/devices" && for d in *; do
	[ "$(cat "$d/vendor")" = 0x10de ] && echo "$d"
done)
[ "$H100" = 0000:03:00.0 ] || fail "vm-noacs: the H100 is at 03:00.0, not '$H100'"
# QEMU's std-VGA at 00:01.0 becomes a passed-through RTX A6000 (10de:2230, class 030000,
# a PCI Express endpoint) bound to nvidia
python3 "$E" "$R" ids $A6000 10de:2230:030000
python3 "$E" "$R" caps $A6000 pcie:0
python3 "$E" "$R" driver $A6000 nvidia
python3 "$E" "$R" bar0 $A6000 0x1000000
for a in $A6000 $H100; do
	mkdir -p "$R/proc/driver/nvidia/gpus/$a"
	printf 'Model: \t\t NVIDIA GPU\nGPU UUID: \t GPU-%s\nBus Location: \t %s\nDevice Minor: \t %s\nGPU Excluded:\t No\n' \
		"$(echo $a | tr -d ':.')" "$a" "$([ $a = $A6000 ] && echo 0 || echo 1)" \
		>"$R/proc/driver/nvidia/gpus/$a/information"
done
mkdir -p "$R/sys/module/nvidia"
echo 580.65.06 >"$R/sys/module/nvidia/version"

hp --json topology
expect_rc 0
[ "$(jqo -c '[.gpu_map.gpus[] | [.pci, .index]]')" = '[["0000:00:01.0",0],["0000:03:00.0",1]]' ] ||
	fail "gpus.json: want the A6000 index 0 and the H100 index 1, got $(jqo -c '[.gpu_map.gpus[] | [.pci, .index]]')"
[ "$(jqo -c '.gpu_map.driver_entries_without_pci')" = '[]' ] ||
	fail "a driver entry left without its GPU: $(jqo -c '.gpu_map.driver_entries_without_pci')"

printf '[IOMMU]\nExpect=any\n[Inventory]\nGPUs=2\n[GPU]\nPersistence=any\n' >"$T/inv.conf"
hp --config "$T/inv.conf" --json check
jqo -e '[.results[] | select(.check=="inventory.gpus")][0] | .verdict == "pass" and
	(.actual | test("2 of 2"))' >/dev/null ||
	fail "GPUs=2 counts both: $(jqo -c '.results[] | select(.check=="inventory.gpus")')"
[ "$(jqo -c '[.results[] | select(.check=="gpu.present") | .object]')" = '["0000:00:01.0","0000:03:00.0"]' ] ||
	fail "[GPU] judges both: $(jqo -c '[.results[] | select(.check=="gpu.present") | .object]')"

# without the PCI Express capability it is conventional PCI: no GPU, even NVIDIA's
python3 "$E" "$R" caps $A6000 none
hp --json topology
[ "$(jqo -c '[.gpu_map.gpus[] | .pci]')" = '["0000:03:00.0"]' ] ||
	fail "a conventional PCI display controller is no GPU: $(jqo -c '[.gpu_map.gpus[] | .pci]')"

# an AMD display controller on the root bus is onboard graphics (ES1000-like), a big BAR
# or not
python3 "$E" "$R" caps $A6000 pcie:0
python3 "$E" "$R" ids $A6000 1002:515e:030000
python3 "$E" "$R" bar0 $A6000 0x20000000
rm -rf "$R/proc/driver/nvidia/gpus/$A6000"
hp --json topology
[ "$(jqo -c '[.gpu_map.gpus[] | [.pci, .index]]')" = '[["0000:03:00.0",0]]' ] ||
	fail "AMD VGA on a root bus is not a GPU: $(jqo -c '[.gpu_map.gpus[] | [.pci, .index]]')"
