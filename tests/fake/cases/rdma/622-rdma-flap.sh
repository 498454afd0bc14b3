# A link that went down between two runs (link_downed rose) is a flap: rdma.flap fails
# (NOT READY) and says when (between the previous run's time and now) and the counts; a
# rule may allow it (CounterLimit=link_downed=1) or only warn; a bad CounterLimit= is a
# config error with file:line, exit 2, nothing written.
newroot ib-gpu
useconf rdma-ib-gpu
mkdir -p "$R/proc/sys/kernel/random"
echo 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
for d in 0 1 2 4 5 6 7; do ib_counters mlx5_$d 1 link_downed=2; done
hp -v check
expect_rc 1
# 2 since boot with no earlier run of this boot: a flap too (the counters start at 0)
expect_grep out 'FAIL +rdma\.flap +mlx5_0/1 .*mlx5_0 port 1: went down 2 time\(s\) since boot \(no earlier run in this boot\) \(link_downed 2\)'
hp -v check
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 .*no link-down between the previous run \(2023-11-14 22:13:20 UTC\) and now \(link_downed 2\)'
ib_counters mlx5_4 1 link_downed=3
hp -v check
expect_rc 1
expect_grep out 'FAIL +rdma\.flap +mlx5_4/1 +no link-down since the previous run +mlx5_4 port 1: went down 1 time\(s\) between the previous run \(2023-11-14 22:13:20 UTC\) and now \(link_downed 3, was 2\)'
expect_grep out 'perfquery -x -C mlx5_4 -P 1'
ib_counters mlx5_4 1 link_downed=4
hp --json check
[ "$(jqo '.results[] | select(.check == "rdma.flap" and .object == "mlx5_4/1") | .verdict + " " + .action + " " + .cause')" = "fail cable rdma.flap:flap" ] ||
	fail "rdma.flap verdict, action, cause: $(jqo '.results[] | select(.check == "rdma.flap" and .object == "mlx5_4/1")')"
# allowed per rule: one flap passes, two do not
sed -i 's/^MinActive=8$/MinActive=8\nCounterLimit=link_downed=1/' "$R/etc/hostprep/hostprep.conf"
ib_counters mlx5_4 1 link_downed=5
hp -v check
expect_grep out 'PASS +rdma\.flap +mlx5_4/1 +at most 1 link-down\(s\) since the previous run '
ib_counters mlx5_4 1 link_downed=7
hp -v check
expect_grep out 'FAIL +rdma\.flap +mlx5_4/1 .*went down 2 time\(s\)'
sed -i 's/^CounterLimit=link_downed=1$/CounterLimit=link_downed=0:warn/' "$R/etc/hostprep/hostprep.conf"
ib_counters mlx5_4 1 link_downed=8
hp -v check
expect_grep out 'WARN +rdma\.flap +mlx5_4/1 +no link-down since the previous run \(else a warning\)'
hp config
expect_grep out '^CounterLimit=link_downed=0:warn$'
# a bad limit: file:line, exit 2, the state untouched
S=$R/run/hostprep/rdma-counters
cp "$S" "$T/state.before"
sed -i 's/^CounterLimit=link_downed=0:warn$/CounterLimit=link_downed=255/' "$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 2
expect_grep err 'hostprep\.conf:[0-9]+: CounterLimit=: .link_downed=255.: the limit must be below the counter.s maximum'
cmp -s "$S" "$T/state.before" || fail "a config error moved the counters' baseline"
hp config
expect_rc 2
