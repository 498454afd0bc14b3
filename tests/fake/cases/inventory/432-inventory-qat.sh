# GPUs= counts GPUs and the accelerators the table of known ones lists, not every
# co-processor (issue 25). inv-qat: a Sapphire Rapids host's four Intel QuickAssist
# endpoints (8086:4940, class 0b40) beside 8 H100, one of which fell off the bus. The QATs
# made the count 11 of 8 and hid the missing GPU; now it is 7 of 8 naming it, and the
# topology, GPUAddresses= and [AER] leave the QATs out too (one classification).
newroot inv-qat
pci() { lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" "$@" 2>/dev/null; }
# The oracle: pciutils sees four co-processors with qat_4xxx and eight 0302 (one all-ones).
[ "$(pci -n -d 8086:4940 | grep -c ' 0b40: ')" = 4 ] || fail "fixture: $(pci -n -d 8086:4940 | wc -l) QAT"
[ "$(pci -k -d 8086:4940 | grep -c 'Kernel driver in use: qat_4xxx')" = 4 ] || fail "fixture: QAT without qat_4xxx"
[ "$(pci -n -d 10de:2330 | wc -l)" = 8 ] || fail "fixture: $(pci -n -d 10de:2330 | wc -l) H100"
[ "$(setpci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -s 3b:00.0 VENDOR_ID 2>/dev/null)" = ffff ] ||
	fail "fixture: 3b:00.0 still answers"

inv() {
	{
		echo "[Inventory]"
		printf '%s\n' "$@"
	} >"$R/etc/hostprep/hostprep.conf"
	hp --json check
}
v() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .verdict' "$T/out"; }
a() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .actual' "$T/out"; }

inv GPUs=8
expect_rc 1
[ "$(a inventory.gpus host)" = "7 of 8 GPUs on the bus; 0000:3b:00.0 not responding" ] ||
	fail "GPUs=8: $(v inventory.gpus host) $(a inventory.gpus host)"
inv GPUs=7
[ "$(v inventory.gpus host)" = pass ] || fail "GPUs=7: $(a inventory.gpus host)"
inv "GPUAddresses=15:00.0"
[ "$(a inventory.address 0000:15:00.0)" = "not a GPU (8086:4940 class 0b4000)" ] ||
	fail "QAT as a GPU address: $(a inventory.address 0000:15:00.0)"

# The topology lists no QAT; a probe of the GPUs never names one.
hp --json topology
expect_rc 0
[ "$(jqo '[.devices[] | select(.address | test(":00:00.0$|^0000:(15|37|97|b7):00.0$"))] | length')" = 0 ] ||
	fail "a QAT in the topology: $(jqo -c '[.devices[] | select(.address | endswith(":00.0")) | .address]')"
[ "$(jqo '[.devices[] | select(.kind == "gpu")] | length')" = 8 ] || fail "topology GPUs: $(jqo '[.devices[] | select(.kind == "gpu")] | length')"

# [Topology] Accelerators= is the way to count a part the table does not know.
printf '[Topology]\nAccelerators=class:0302 8086:4940\n[Inventory]\nGPUs=11\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(v inventory.gpus host)" = pass ] || fail "Accelerators= with the QAT: $(a inventory.gpus host)"
true
