# The RDMA devices are one per-run view (issue 26): with [Port:*] rules, [Inventory] counts
# of RDMA ports and the port counters all in one check, the RDMA class directory is listed
# once and each port's state read once (strace), and the verdicts are those of the rules.
need_tool strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot ib-gpu
useconf inventory-ports
strace -f -e trace=open,openat,openat2 -o "$T/trace" "$BIN" --root "$R" --no-color check >"$T/out" 2>&1
expect_exited $? "check under strace"
grep -q 'inventory\.ports' "$T/out" || fail "no inventory.ports result: $(head -c 300 "$T/out")"
grep -q 'rdma\.port ' "$T/out" || fail "no rdma.port result"
n=$(grep -c '"[^"]*sys/class/infiniband", ' "$T/trace")
[ "$n" = 1 ] || fail "class/infiniband opened $n times, not once"
n=$(grep -c 'infiniband/mlx5_0/ports/1/state"' "$T/trace")
[ "$n" = 1 ] || fail "mlx5_0/1 state read $n times, not once"
n=$(grep -c 'infiniband/mlx5_bond_0/ports/1/state"' "$T/trace")
[ "$n" = 1 ] || fail "mlx5_bond_0/1 (no rule, counted by [Inventory]) state read $n times, not once"
true
