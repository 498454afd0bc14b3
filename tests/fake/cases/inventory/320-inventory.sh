# [Inventory] on a healthy host (ib-gpu: 8 H100, 4 ConnectX-7 functions, 9 RDMA devices, 7 of
# 8 InfiniBand ports up, the RoCE LAG's Ethernet port up): every count at, above and one
# past its edge, the link layers counted apart, an unreadable RDMA class, and no section at
# all (nothing read, nothing reported). The counts are checked against independent readers:
# lspci's class list and the RDMA class directory.
newroot ib-gpu

# inv KEY=VALUE...: an [Inventory] section of these lines; runs --json check, leaves
# "CHECK OBJECT VERDICT" lines of the inventory results in $T/inv.
inv() {
	{
		echo "[Inventory]"
		printf '%s\n' "$@"
	} >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	jq -r '.results[] | select(.check | startswith("inventory.")) | "\(.check) \(.object) \(.verdict)"' \
		"$T/out" >"$T/inv"
}
# actual CHECK OBJECT: the actual text of that result
actual() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .actual' "$T/out"; }
want() { grep -qx "$1" "$T/inv" || fail "want '$1', got: $(tr '\n' ';' <"$T/inv")"; }

# Independent counts: GPUs and NICs as lspci lists their classes, RDMA devices as directories.
ngpu=$(lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -n | awk '$2 ~ /^(0302|1200):$/ || ($2 == "0300:" && $3 ~ /^(10de|1002|8086):/)' | wc -l)
nnic=$(lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -n | awk '$2 ~ /^02..:$/ || $2 == "0c06:"' | wc -l)
nrdma=$(find "$R/sys/class/infiniband" -mindepth 1 -maxdepth 1 | wc -l)
[ "$ngpu/$nnic/$nrdma" = 8/4/9 ] || fail "fixture: lspci sees $ngpu GPUs, $nnic NICs; $nrdma RDMA devices"

inv "GPUs=$ngpu" "NICs=$nnic" "RDMADevices=$nrdma" "ActivePorts=InfiniBand:7 Ethernet:1"
expect_rc 0
[ "$(wc -l <"$T/inv")" = 5 ] || fail "5 results expected: $(cat "$T/inv")"
[ "$(grep -c ' pass$' "$T/inv")" = 5 ] || fail "not all pass: $(cat "$T/inv")"
[ "$(actual inventory.gpus host)" = "8 of 8 GPUs on the bus" ] || fail "gpus: $(actual inventory.gpus host)"

# One more than there is: fail, naming the count (no slot, no empty port: nothing to point at).
inv "GPUs=9"
expect_rc 1
want "inventory.gpus host fail"
[ "$(actual inventory.gpus host)" = "8 of 9 GPUs on the bus" ] || fail "GPUs=9: $(actual inventory.gpus host)"
# Fewer than there is: at least N, a pass. 0 is a count too.
inv "GPUs=7" "NICs=0"
expect_rc 0
want "inventory.gpus host pass"
want "inventory.nics host pass"
[ "$(actual inventory.gpus host)" = "8 GPUs on the bus (7 expected)" ] || fail "GPUs=7: $(actual inventory.gpus host)"

inv "RDMADevices=10"
want "inventory.rdma host fail"
[ "$(actual inventory.rdma host)" = "9 of 10 RDMA devices" ] || fail "RDMADevices=10: $(actual inventory.rdma host)"
inv "RDMADevices=9"
want "inventory.rdma host pass"

# Ports per link layer: mlx5_3/1 is DOWN (Polling), named; the Ethernet count is its own.
inv "ActivePorts=InfiniBand:8"
expect_rc 1
want "inventory.ports InfiniBand fail"
[ "$(wc -l <"$T/inv")" = 1 ] || fail "only InfiniBand asked: $(cat "$T/inv")"
[ "$(actual inventory.ports InfiniBand)" = "7 of 8 InfiniBand ports active; mlx5_3/1 DOWN (Polling)" ] ||
	fail "IB:8: $(actual inventory.ports InfiniBand)"
inv "ActivePorts=Ethernet:2"
want "inventory.ports Ethernet fail"
[ "$(actual inventory.ports Ethernet)" = "1 of 2 Ethernet ports active" ] || fail "Eth:2: $(actual inventory.ports Ethernet)"
inv "ActivePorts=InfiniBand:7" "ActivePorts=Ethernet:1"
expect_rc 0
want "inventory.ports InfiniBand pass"
want "inventory.ports Ethernet pass"
# A port whose link layer cannot be read could be the missing one: unknown, not fail.
rm "$R/sys/class/infiniband/mlx5_3/ports/1/link_layer"
inv "ActivePorts=InfiniBand:8"
want "inventory.ports InfiniBand unknown"
inv "ActivePorts=InfiniBand:9"
want "inventory.ports InfiniBand fail"

# An RDMA class that cannot be read (here: not a directory): unknown, never a count of 0.
newroot ib-gpu
rm -r "$R/sys/class/infiniband"
echo >"$R/sys/class/infiniband"
inv "RDMADevices=9" "GPUs=8"
want "inventory.rdma host unknown"
want "inventory.gpus host pass"

# An empty section expects nothing: no result. No section: nothing read, nothing reported.
inv
[ -s "$T/inv" ] && fail "results from an empty [Inventory]: $(cat "$T/inv")"
rm "$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(jqo '[.results[] | select(.check | startswith("inventory."))] | length')" = 0 ] ||
	fail "inventory results without [Inventory]"
true
