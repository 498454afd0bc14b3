# A counter lower than last time was reset (perfquery -R, a driver reload): said as such
# and counted from 0, never a negative rise; a reading of another boot (the boot id
# changed) is not compared with: the counts since boot are judged and the reason named.
newroot ib-gpu
useconf rdma-ib-gpu
mkdir -p "$R/proc/sys/kernel/random"
echo 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
for d in 0 1 2 4 5 6 7; do ib_counters mlx5_$d 1; done
ib_counters mlx5_1 1 symbol_error=500 link_downed=5
hp check
ib_counters mlx5_1 1 symbol_error=0 link_downed=0
hp -v check
expect_grep out 'PASS +rdma\.counters +mlx5_1/1 .*symbol_error reset since the previous run \(500, now 0: \+0 since the reset\)'
expect_grep out 'PASS +rdma\.flap +mlx5_1/1 .*link_downed reset since the previous run \(2023-11-14 22:13:20 UTC: 5, now 0\): went down 0 time\(s\) since the reset'
ib_counters mlx5_1 1 symbol_error=600 link_downed=1
hp check
ib_counters mlx5_1 1 symbol_error=2 link_downed=1
hp -v check
expect_grep out 'WARN +rdma\.counters +mlx5_1/1 .*symbol_error reset since the previous run \(600, now 2: \+2 since the reset, over its limit\)'
expect_grep out 'PASS +rdma\.flap +mlx5_1/1 .*no link-down between'
# a new boot: the old reading is not compared with
echo 1111e2b4-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
hp -v check
expect_grep out 'FAIL +rdma\.flap +mlx5_1/1 .*went down 1 time\(s\) since boot \(the previous run was in another boot, 2023-11-14 22:13:20 UTC\) \(link_downed 1\)'
expect_grep out 'WARN +rdma\.counters +mlx5_1/1 .*since boot \(the previous run was in another boot, 2023-11-14 22:13:20 UTC\): symbol_error \+2 \(limit 0\)'
expect_grep "$R/run/hostprep/rdma-counters" '^boot 1111e2b4-5a0c-4c8e-9d2e-5c1f6a1b2c3d$'
# no boot id: no reading can be known to be of this boot
rm "$R/proc/sys/kernel/random/boot_id"
hp -v check
expect_grep out 'rdma\.flap +mlx5_1/1 .*since boot \(the boot id cannot be read: no reading is known to be of this boot'
# a state file that is not one hostprep wrote is no baseline, and is replaced
echo 1111e2b4-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
echo garbage >"$R/run/hostprep/rdma-counters"
hp -v check
expect_grep out 'rdma\.flap +mlx5_1/1 .*since boot \(the previous run.s state is not one hostprep wrote\)'
expect_grep "$R/run/hostprep/rdma-counters" '^boot 1111e2b4'
