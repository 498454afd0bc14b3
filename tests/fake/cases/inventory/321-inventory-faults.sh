# [Inventory] on a host with the faults a fleet sees (inv-faults, see net/inventory_fixtures.py):
# a GPU gone from the bus (its slot and its switch port empty), a GPU whose config space reads
# all-ones, a GPU without a driver, a NIC whose driver bound but made no RDMA device or netdev.
# The fixture's faults are first confirmed with pciutils, independently of hostprep; then each
# is named where it belongs, the dead GPU counts as missing, and the edges of the count hold.
newroot inv-faults
pci() { lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" "$@" 2>/dev/null; }

# The oracle: lspci lists 6 + 1 dead H100 (its sysfs ids remain), config space of the dead one
# reads ffff, 3b:00.0 is not there and 39:01.0 is slot 33; ba:00.0 has no driver in use.
[ "$(pci -n -d 10de:2330 | wc -l)" = 7 ] || fail "fixture: lspci lists $(pci -n -d 10de:2330 | wc -l) H100"
[ "$(setpci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -s 9b:00.0 VENDOR_ID 2>/dev/null)" = ffff ] ||
	fail "fixture: 9b:00.0 config space is not all-ones"
[ -z "$(pci -s 3b:00.0)" ] || fail "fixture: 3b:00.0 still listed"
pci -vv -s 39:01.0 | grep -q 'Slot #33,' || fail "fixture: 39:01.0 is not slot 33"
pci -vv -s 39:01.0 | grep -q 'Bus: primary=39, secondary=3b,' || fail "fixture: 39:01.0 does not hand out bus 3b"
[ "$(cat "$R/sys/bus/pci/slots/33/address")" = 0000:3b:00 ] || fail "fixture: slot 33's address"
pci -k -s ba:00.0 | grep -q 'Kernel driver in use' && fail "fixture: ba:00.0 has a driver"
pci -k -s bc:00.0 | grep -q 'Kernel driver in use: mlx5_core' || fail "fixture: bc:00.0 without mlx5_core"

actual() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .actual' "$T/out"; }
verdict() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .verdict' "$T/out"; }
inv() {
	{
		echo "[Inventory]"
		printf '%s\n' "$@"
	} >"$R/etc/hostprep/hostprep.conf"
	hp --json check
}

# Where the missing GPUs are: the dead one, the empty slot, the empty switch port with the bus
# it hands out (its siblings hold a GPU and a NIC: a GPU's place by the count that is short).
inv GPUs=8
expect_rc 1
[ "$(actual inventory.gpus host)" = "6 of 8 GPUs on the bus; 0000:9b:00.0 not responding; slot 33 (0000:3b:00) empty; nothing below switch port 0000:39:01.0 (bus 3b; a sibling port holds GPUs)" ] ||
	fail "GPUs=8: $(actual inventory.gpus host)"
# the next steps of a function present without a working driver
[ "$(verdict inventory.probe 0000:ba:00.0)" = fail ] || fail "ba:00.0 without driver not failed"
[ "$(actual inventory.probe 0000:ba:00.0)" = "no driver bound" ] || fail "ba:00.0: $(actual inventory.probe 0000:ba:00.0)"
jqo '.results[] | select(.object == "0000:ba:00.0") | .remedy' | grep -qF 'dmesg | grep 0000:ba:00.0' ||
	fail "ba:00.0: no dmesg step"
jqo '.results[] | select(.object == "0000:ba:00.0") | .remedy' | grep -qF 'lspci -vv -s 0000:ba:00.0' ||
	fail "ba:00.0: no lspci step"
# the dead GPU is missing, not a probe problem; the GPUs with drivers have no probe result;
# the NICs are out of scope (no key is about them)
[ "$(jqo '[.results[] | select(.check == "inventory.probe")] | map(.object) | join(" ")')" = "0000:ba:00.0" ] ||
	fail "probe results: $(jqo '[.results[] | select(.check == "inventory.probe")] | map(.object) | join(" ")')"

# The dead GPU is not on the bus: 6 present is one short of 7, enough for 6.
inv GPUs=7
[ "$(verdict inventory.gpus host)" = fail ] || fail "GPUs=7 with 6 responding: $(verdict inventory.gpus host)"
inv GPUs=6
[ "$(verdict inventory.gpus host)" = pass ] || fail "GPUs=6: $(verdict inventory.gpus host)"
[ "$(actual inventory.gpus host)" = "6 of 6 GPUs on the bus" ] || fail "GPUs=6: $(actual inventory.gpus host)"
expect_rc 1 # the driverless GPU still fails the host

# The NIC whose probe failed: named by the probe and by the RDMA count, not by the NIC count.
inv NICs=4 RDMADevices=9
[ "$(verdict inventory.nics host)" = pass ] || fail "NICs=4: $(verdict inventory.nics host)"
[ "$(actual inventory.probe 0000:bc:00.0)" = "mlx5_core bound, but no RDMA device and no netdev (a failed probe?)" ] ||
	fail "bc:00.0: $(actual inventory.probe 0000:bc:00.0)"
[ "$(actual inventory.rdma host)" = "8 of 9 RDMA devices; 0000:bc:00.0 no RDMA device or netdev" ] ||
	fail "RDMADevices=9: $(actual inventory.rdma host)"
# GPUs are out of scope when no key is about them: no probe result for ba:00.0
[ "$(verdict inventory.probe 0000:ba:00.0)" = "" ] || fail "ba:00.0 judged without a GPU key"

# Listed addresses: absent, not responding, not a GPU, present.
inv "GPUAddresses=3b:00.0 9b:00.0 01:00.0 bb:00.0"
[ "$(actual inventory.address 0000:3b:00.0)" = "absent: no PCI function at this address" ] || fail "3b:00.0: $(actual inventory.address 0000:3b:00.0)"
[ "$(actual inventory.address 0000:9b:00.0)" = "not responding (config space reads all-ones)" ] || fail "9b:00.0: $(actual inventory.address 0000:9b:00.0)"
[ "$(actual inventory.address 0000:01:00.0)" = "not a GPU (144d:a80a class 010802)" ] || fail "01:00.0: $(actual inventory.address 0000:01:00.0)"
[ "$(verdict inventory.address 0000:bb:00.0)" = pass ] || fail "bb:00.0: $(verdict inventory.address 0000:bb:00.0)"
[ "$(jqo '[.results[] | select(.check == "inventory.gpus")] | length')" = 0 ] || fail "a GPU count without GPUs="

# Without the slots the switch port still says where; without a switch (a GPU missing under a
# root port) nothing is guessed.
rm -r "$R/sys/bus/pci/slots"
inv GPUs=8
[ "$(actual inventory.gpus host)" = "6 of 8 GPUs on the bus; 0000:9b:00.0 not responding; nothing below switch port 0000:39:01.0 (bus 3b; a sibling port holds GPUs)" ] ||
	fail "no slots: $(actual inventory.gpus host)"
true
