# A counter that cannot be read is unknown (NOT READY), never a pass; a port without a
# counters/ directory is not judged (soft devices); hw_counters/ are reported, never
# judged; only a run that publishes moves the baseline: a trial check --config, a dry run
# and an unprivileged run read it and leave it.
newroot ib-gpu
useconf rdma-ib-gpu
mkdir -p "$R/proc/sys/kernel/random"
echo 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
echo "4: ACTIVE" >"$R/sys/class/infiniband/mlx5_3/ports/1/state"
echo "5: LinkUp" >"$R/sys/class/infiniband/mlx5_3/ports/1/phys_state"
echo "400 Gb/sec (4X NDR)" >"$R/sys/class/infiniband/mlx5_3/ports/1/rate"
for d in 0 1 2 3 4 5 6; do ib_counters mlx5_$d 1; done # mlx5_7 and the bond: no counters/
mkdir -p "$R/sys/class/infiniband/mlx5_0/ports/1/hw_counters"
echo 3 >"$R/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer"
echo 0 >"$R/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rnr_nak_retry_err"
hp -v check
expect_rc 0
expect_no_grep out 'rdma\.(flap|counters) +mlx5_7/1' 'a port without counters/ judged'
expect_no_grep out 'rdma\.(flap|counters) +mlx5_bond_0/1' 'a port without counters/ judged'
expect_grep out 'PASS +rdma\.counters +mlx5_0/1 .*; hw_counters \(reported only\): out_of_buffer=3$'
expect_no_grep "$R/run/hostprep/rdma-counters" 'mlx5_7|mlx5_bond_0'
rm "$R/sys/class/infiniband/mlx5_2/ports/1/counters/port_rcv_errors"
mkdir "$R/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed.new"
rm "$R/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed"
mv "$R/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed.new" "$R/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed"
echo "12 x" >"$R/sys/class/infiniband/mlx5_4/ports/1/counters/symbol_error"
rm "$R/sys/class/infiniband/mlx5_5/ports/1/counters/port_xmit_discards"
hp -v check
expect_rc 1
expect_grep out 'UNKNOWN +rdma\.counters +mlx5_2/1 .*port_rcv_errors unreadable: No such file or directory'
expect_grep out 'UNKNOWN +rdma\.flap +mlx5_3/1 .*link_downed unreadable: Is a directory'
expect_grep out 'UNKNOWN +rdma\.counters +mlx5_4/1 .*symbol_error unreadable: Bad message'
# reported only: not read is no pass either, and no unknown
expect_grep out 'SKIP +rdma\.counters +mlx5_5/1 .*port_xmit_discards unreadable'
# an unread counter keeps no value: the next run has nothing to compare it with
expect_grep "$R/run/hostprep/rdma-counters" '^mlx5_2 1 symbol_error=0 link_error_recovery=0 link_downed=0 port_rcv_remote_physical_errors=0 '
# runs that do not publish compare without moving the baseline
S=$R/run/hostprep/rdma-counters
cp "$S" "$T/state.before"
ib_counters mlx5_6 1 symbol_error=9
hp -v check --config "$R/etc/hostprep/hostprep.conf"
expect_grep out 'WARN +rdma\.counters +mlx5_6/1 .*symbol_error \+9'
cmp -s "$S" "$T/state.before" || fail "check --config moved the baseline"
hp apply --dry-run
cmp -s "$S" "$T/state.before" || fail "apply --dry-run moved the baseline"
if command -v setpriv >/dev/null; then
	chmod -R a+rX "$R"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --root "$R" --no-color check >"$T/out" 2>&1
	cmp -s "$S" "$T/state.before" || fail "an unprivileged check moved the baseline"
fi
hp -v check
expect_grep out 'WARN +rdma\.counters +mlx5_6/1 .*symbol_error \+9'
cmp -s "$S" "$T/state.before" && fail "a publishing check left the baseline"
true
