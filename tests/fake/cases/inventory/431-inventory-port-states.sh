# ActivePorts= counts a port only when rdma.port would call it up (issue 25): ACTIVE and
# LinkUp, one judgement for both. On ib-gpu (8 InfiniBand ports, mlx5_3/1 the one that
# moves), every logical state the kernel prints against every physical state: the count's
# verdict follows rdma.port's (pass, fail, unknown for ACTIVE over an unreadable physical
# state), and the port is named when it does not count. inv-disabled (mlx5_3/1
# ACTIVE/Disabled) was counted active before: the count passed while rdma.port failed it.
newroot inv-disabled
useconf inventory-ports
hp --json check
expect_rc 1
v() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .verdict' "$T/out"; }
a() { jq -r --arg c "$1" --arg o "$2" '.results[] | select(.check == $c and .object == $o) | .actual' "$T/out"; }
[ "$(v inventory.ports InfiniBand)" = fail ] || fail "ACTIVE/Disabled counted: $(a inventory.ports InfiniBand)"
[ "$(a inventory.ports InfiniBand)" = "7 of 8 InfiniBand ports active; mlx5_3/1 ACTIVE (Disabled)" ] ||
	fail "ACTIVE/Disabled: $(a inventory.ports InfiniBand)"
[ "$(v rdma.port mlx5_3/1)" = fail ] || fail "rdma.port passes ACTIVE/Disabled"
[ "$(v inventory.ports Ethernet)" = pass ] || fail "the Ethernet count moved: $(a inventory.ports Ethernet)"

# The kernel's words (drivers/infiniband/core/sysfs.c state_show, phys_state_show).
STATES=("0: NOP" "1: DOWN" "2: INIT" "3: ARMED" "4: ACTIVE" "5: ACTIVE_DEFER")
PHYS=("0: <unknown>" "1: Sleep" "2: Polling" "3: Disabled" "4: PortConfigurationTraining"
	"5: LinkUp" "6: LinkErrorRecovery" "7: Phy Test")
d=$(realpath "$R/sys/class/infiniband/mlx5_3/ports/1")
chmod u+w "$d/state" "$d/phys_state"
for st in "${STATES[@]}"; do
	for ph in "${PHYS[@]}"; do
		echo "$st" >"$d/state"
		echo "$ph" >"$d/phys_state"
		hp --json check
		port=$(v rdma.port mlx5_3/1)
		count=$(v inventory.ports InfiniBand)
		want=fail
		[ "$st/$ph" = "4: ACTIVE/5: LinkUp" ] && want=pass
		[ "$st/$ph" = "4: ACTIVE/0: <unknown>" ] && want=unknown
		[ "$port" = "$want" ] || fail "$st/$ph: rdma.port $port, want $want"
		[ "$count" = "$port" ] || fail "$st/$ph: ActivePorts=InfiniBand:8 $count, rdma.port $port"
		if [ "$want" = fail ]; then
			a inventory.ports InfiniBand | grep -qF "; mlx5_3/1 ${st#* } (" ||
				fail "$st/$ph: not named: $(a inventory.ports InfiniBand)"
		fi
	done
done
true
