# A link that goes down during the boot wait after it was up is a flap, named with when:
# apply waits ([Host] Wait=, the root's files re-read) for mlx5_3/1, still Polling, while
# mlx5_0/1, ACTIVE, goes down and up again with link_downed unchanged (the driver has not
# counted it yet): rdma.flap fails (link_downed's default limit: no link-down), says the
# time of day, how long after the wait began and when it came up again; mlx5_3/1 up in
# time passes. The same flap with CounterLimit=link_downed=1 passes, =0:warn warns.
# A link that goes down and up between two checks is seen by link_downed rising; one that
# goes down and stays down is waited for again until Wait= and named "not up again"; a
# wait without either names no flap.
put() { # FILE VALUE: whole, as sysfs shows a value (a reader never sees it half written)
	echo "$2" >"$1.new" && mv "$1.new" "$1"
}
port_state() { # DEV STATE PHYS
	put "$R/sys/class/infiniband/$1/ports/1/phys_state" "$3"
	put "$R/sys/class/infiniband/$1/ports/1/state" "$2"
}
setup() {
	newroot ib-gpu
	useconf rdma-ib-gpu
	printf '\n[Host]\nWait=10s\n' >>"$R/etc/hostprep/hostprep.conf"
	mkdir -p "$R/proc/sys/kernel/random"
	echo 0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d >"$R/proc/sys/kernel/random/boot_id"
	for d in 0 1 2 3 4 5 6 7; do ib_counters mlx5_$d 1; done
	port_state mlx5_3 '1: DOWN' '2: Polling'
	echo '400 Gb/sec (4X NDR)' >"$R/sys/class/infiniband/mlx5_3/ports/1/rate"
}
flap() { # mlx5_0/1 down 0.6 s into the wait, up 0.4 s later, then mlx5_3/1 up
	sleep 0.6
	port_state mlx5_0 '1: DOWN' '2: Polling'
	sleep 0.4
	port_state mlx5_0 '4: ACTIVE' '5: LinkUp'
	sleep 0.4
	port_state mlx5_3 '4: ACTIVE' '5: LinkUp'
}
setup
flap &
hp -v apply
wait
expect_rc 1
expect_grep out 'PASS +rdma\.port +mlx5_3/1 '
expect_grep out 'FAIL +rdma\.flap +mlx5_0/1 +no link-down during the boot wait or since the previous run +mlx5_0 port 1: no link-down since boot \(no earlier run in this boot\) \(link_downed 0\); went down during the boot wait at [0-2][0-9]:[0-5][0-9]:[0-5][0-9] UTC \((0\.[5-9]|[1-9][0-9]*\.[0-9]) s after the wait began\), up again at [0-2][0-9]:[0-5][0-9]:[0-5][0-9] UTC \((0\.[3-9]|[1-9][0-9]*\.[0-9]) s later\)'
expect_grep out 'PASS +rdma\.flap +mlx5_1/1 .*mlx5_1 port 1: no link-down since boot'
grep -q 'mlx5_1 port 1:.*boot wait' "$T/out" && fail "a port that stayed up is named as a flap"
# the same flap, allowed per rule; then only a warning
setup
sed -i 's/^MinActive=8$/MinActive=8\nCounterLimit=link_downed=1/' "$R/etc/hostprep/hostprep.conf"
flap &
hp -v apply
wait
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 +at most 1 link-down\(s\) during the boot wait or since the previous run +.*went down during the boot wait at '
setup
sed -i 's/^MinActive=8$/MinActive=8\nCounterLimit=link_downed=0:warn/' "$R/etc/hostprep/hostprep.conf"
flap &
hp --json apply
wait
[ "$(jqo '.results[] | select(.check == "rdma.flap" and .object == "mlx5_0/1") | .verdict + " " + .action + " " + .cause')" = "warn cable rdma.flap:flap" ] ||
	fail "rdma.flap of a flap during the wait, as a warning: $(jqo '.results[] | select(.check == "rdma.flap" and .object == "mlx5_0/1")')"
# down and up between two checks: only link_downed says so
setup
(
	sleep 0.5
	put "$R/sys/class/infiniband/mlx5_1/ports/1/counters/link_downed" 1
	sleep 0.4
	port_state mlx5_3 '4: ACTIVE' '5: LinkUp'
) &
hp -v apply
wait
expect_grep out 'FAIL +rdma\.flap +mlx5_1/1 .*mlx5_1 port 1: went down 1 time\(s\) since boot \(no earlier run in this boot\) \(link_downed 1\); went down during the boot wait by [0-2][0-9]:[0-5][0-9]:[0-5][0-9] UTC \((0\.[4-9]|[1-9][0-9]*\.[0-9]) s after the wait began, seen as link_downed rising between two checks\), up again by then$'
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 .*mlx5_0 port 1: no link-down since boot \(no earlier run in this boot\) \(link_downed 0\)$'
# down and never up again: waited for until Wait=, named as such
setup
sed -i 's/^Wait=10s$/Wait=2s/' "$R/etc/hostprep/hostprep.conf"
(
	sleep 0.3
	port_state mlx5_0 '1: DOWN' '2: Polling'
	sleep 0.3
	port_state mlx5_3 '4: ACTIVE' '5: LinkUp'
) &
hp -v apply
wait
expect_rc 1
expect_grep err 'Waiting for mlx5_0/1 \(Polling\)$'
expect_grep out 'FAIL +rdma\.port +mlx5_0/1 .*\(still Polling after waiting 2 s\)'
expect_grep out 'FAIL +rdma\.flap +mlx5_0/1 .*went down during the boot wait at [0-2][0-9]:[0-5][0-9]:[0-5][0-9] UTC \((0\.[2-9]|[1-9][0-9]*\.[0-9]) s after the wait began\), not up again by the end of the wait$'
# a wait without a flap names none; check, which never waits, says nothing of a wait
setup
(
	sleep 0.3
	port_state mlx5_3 '4: ACTIVE' '5: LinkUp'
) &
hp -v apply
wait
expect_rc 0
expect_grep err 'Waiting for mlx5_3/1 \(Polling\)$'
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 +no link-down during the boot wait or since the previous run +mlx5_0 port 1: no link-down since boot'
grep -q 'went down' "$T/out" && fail "a wait without a flap named one: $(grep 'went down' "$T/out")"
hp -v check
expect_grep out 'PASS +rdma\.flap +mlx5_0/1 +no link-down since the previous run +'
