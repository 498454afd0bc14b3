# The PCIe topology's digest (hostprep_pcie_topology_info, src/topo/topo-digest.h): two
# roots of one box that differ only in what changes from boot to boot (IRQs, IOMMU group
# numbers, the trained link, NUMA node, driver names) give the same digest; a card moved
# behind another switch port, a card that can do less, or another part gives another.
. "$HERE/lib-sinks.sh"
P=$PROM_DIR/hostprep.prom
digest() { # digest: the digest of the last run, from the textfile
	sed -n 's/^hostprep_pcie_topology_info{digest="\([0-9a-f]\{16\}\)"} 1$/\1/p' "$R/$P"
}
run_digest() {
	hp check
	D=$(digest)
	[ -n "$D" ] || fail "no topology digest in $P"
}
newroot dgx8
sink_dirs
run_digest
BASE=$D
[ "$BASE" = fca7215980c953c4 ] || fail "dgx8's digest is $BASE (the shape text changed?)"

# another boot of the same box: every IRQ, IOMMU group and trained link different
SYS=$R/sys/bus/pci/devices
for d in "$SYS"/*; do
	[ -f "$d/irq" ] && echo $(($(cat "$d/irq") + 100)) >"$d/irq"
	[ -f "$d/current_link_width" ] && echo 4 >"$d/current_link_width"
	[ -f "$d/current_link_speed" ] && echo "2.5 GT/s PCIe" >"$d/current_link_speed"
	[ -f "$d/numa_node" ] && echo -1 >"$d/numa_node"
done
G=$(readlink "$SYS/0000:18:00.0/iommu_group")
mv "$R/sys/kernel/iommu_groups/${G##*/}" "$R/sys/kernel/iommu_groups/999"
ln -sfn "${G%/*}/999" "$SYS/0000:18:00.0/iommu_group"
run_digest
[ "$D" = "$BASE" ] || fail "per-boot differences changed the digest: $BASE -> $D"

# a card that can do less (x8 where x16 was)
echo 8 >"$SYS/0000:19:00.0/max_link_width"
run_digest
[ "$D" != "$BASE" ] || fail "a x8 card gave the same digest"
echo 16 >"$SYS/0000:19:00.0/max_link_width"
run_digest
[ "$D" = "$BASE" ] || fail "back to x16: $D, not $BASE"

# another part in the slot (the device id as libpci reads it: config space, and sysfs)
echo 0x2324 >"$SYS/0000:19:00.0/device"
printf '\x24\x23' | dd of="$SYS/0000:19:00.0/config" bs=1 seek=2 conv=notrunc status=none
run_digest
[ "$D" != "$BASE" ] || fail "another GPU part gave the same digest"

# the same cards, the GPU and the NIC of the first switch swapped between its ports
newroot dgx8
sink_dirs
SW=$R/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0
mv "$SW/0000:17:01.0/0000:19:00.0" "$SW/0000:17:02.0/"
mv "$SW/0000:17:02.0/0000:1a:00.0" "$SW/0000:17:01.0/"
ln -sfn ../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:02.0/0000:19:00.0 \
	"$R/sys/bus/pci/devices/0000:19:00.0"
ln -sfn ../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:1a:00.0 \
	"$R/sys/bus/pci/devices/0000:1a:00.0"
run_digest
[ "$D" != "$BASE" ] || fail "a card moved behind another switch port gave the same digest"
hp --json topology
[ "$(jqo '[.. | objects | select(.address? == "0000:19:00.0")] | length')" -ge 1 ] ||
	fail "the moved GPU is not in the topology"
