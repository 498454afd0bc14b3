# RDMA link health over time (issue 28 §5): the first run of a boot judges the counts since
# boot and keeps them (run/hostprep/rdma-counters, with the boot id); the next run judges
# the rise: rising symbol errors warn (the host stays READY), with the counter, the rise,
# the limit and the time of the previous run; golden for the healthy and the broken run
# (a rise over a rule's :fail limit, the same rise warning under the defaults, a flap).
# ports/N/counters/ is made here: the fixtures have none (a port without it is not judged).
newroot ib-gpu
useconf rdma-ib-gpu
mkdir -p "$R/proc/sys/kernel/random"
echo 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
echo "4: ACTIVE" >"$R/sys/class/infiniband/mlx5_3/ports/1/state"
echo "5: LinkUp" >"$R/sys/class/infiniband/mlx5_3/ports/1/phys_state"
echo "400 Gb/sec (4X NDR)" >"$R/sys/class/infiniband/mlx5_3/ports/1/rate"
for d in 0 1 2 3 4 5 6 7; do ib_counters mlx5_$d 1; done
ib_counters mlx5_bond_0 1 symbol_error=4
hp -v check
expect_rc 0
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 .*mlx5_0 port 1: no link-down since boot \(no earlier run in this boot\) \(link_downed 0\)'
# since boot, the count is the rise: 4 symbol errors since the driver loaded warn
expect_grep out 'WARN +rdma\.counters +mlx5_bond_0/1 .*since boot \(no earlier run in this boot\): symbol_error \+4 \(limit 0\)'
S=$R/run/hostprep/rdma-counters
[ -f "$S" ] || fail "no rdma-counters state"
expect_grep "$S" '^boot 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d$'
expect_grep "$S" '^time 1700000000$'
expect_grep "$S" '^mlx5_bond_0 1 symbol_error=4 link_error_recovery=0 link_downed=0 '
[ "$(stat -c %a "$S")" = 644 ] || fail "state mode $(stat -c %a "$S")"
[ -z "$(find "$R/run/hostprep" -name '*.tmp*')" ] || fail "temp file left"
# the same counts again: nothing rose, READY
hp -v check
expect_rc 0
golden ib-gpu-counters-healthy.txt
expect_grep out 'PASS +rdma\.counters +mlx5_bond_0/1 .*since the previous run \(2023-11-14 22:13:20 UTC\): no rise; counts: symbol_error=4 '
expect_no_grep out 'WARN|FAIL|UNKNOWN'
# mlx5_2 takes 12 symbol errors: a warning with the rise, still READY
ib_counters mlx5_2 1 symbol_error=12
hp -v check
expect_rc 0
expect_grep out 'WARN +rdma\.counters +mlx5_2/1 .*mlx5_2 port 1, since the previous run \(2023-11-14 22:13:20 UTC\): symbol_error \+12 \(limit 0\); counts: symbol_error=12 '
expect_grep out 'perfquery -R -C mlx5_2 -P 1'
expect_grep "$S" '^mlx5_2 1 symbol_error=12 '
# the baseline moved: no further rise, no warning
hp -v check
expect_rc 0
expect_grep out 'PASS +rdma\.counters +mlx5_2/1 .*no rise'
# a rule's own limit: 12 more is within symbol_error=20, 25 more fails with :fail
cat >>"$R/etc/hostprep/hostprep.conf" <<'CONF'

[Port:strict]
Select=mlx5_2
CounterLimit=symbol_error=20:fail
CONF
ib_counters mlx5_2 1 symbol_error=24
hp -v check
expect_rc 0
expect_grep out 'PASS +rdma\.counters +mlx5_2/1 .*at most 20: symbol_error; at most 0 \(else a warning\): link_error_recovery'
ib_counters mlx5_2 1 symbol_error=45
ib_counters mlx5_5 1 link_downed=1 # and mlx5_5's link went down: a flap
hp -v check
expect_rc 1
expect_grep out 'FAIL +rdma\.flap +mlx5_5/1 .*went down 1 time\(s\) between the previous run \(2023-11-14 22:13:20 UTC\) and now \(link_downed 1, was 0\)'
expect_grep out 'FAIL +rdma\.counters +mlx5_2/1 .*symbol_error \+21 \(limit 20\)'
expect_grep out 'WARN +rdma\.counters +mlx5_2/1 .*symbol_error \+21 \(limit 0\)' # the rails rule
golden ib-gpu-counters-broken.txt
