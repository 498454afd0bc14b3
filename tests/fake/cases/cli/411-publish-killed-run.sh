# Issue 25 item 2: a run killed at its first hardware write leaves no READY anywhere.
# Before the fix only report.json said "not finished": the metrics kept hostprep_ready 1,
# the NFD file hostprep.ready=true (both on persistent disk: a boot killed by its start
# timeout kept the last boot's READY), rdma.env its exports and gpus.json its map.
# Now every artifact gets the not-ready state before the first hardware write.
. "$HERE/lib-sinks.sh"
[ -f "$FAILWRITE_SO" ] || skip "failwrite.so was not built"
newroot ib-gpu
useconf publish-all
sink_dirs
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
E=$R/run/hostprep/rdma.env
G=$R/run/hostprep/gpus.json
hp apply
expect_rc 0
expect_grep "$P" '^hostprep_ready 1$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=true$'
expect_grep "$E" '^NCCL_IB_HCA=='
[ -f "$G" ] || fail "apply wrote no gpus.json"

# a hotplug reset one port's ACS: the next apply writes it, and is killed right there
poke16 0000:15:01.0 $((0x220 + 6)) 0x001d
check_killed() { # $1: the command killed
	HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_KILL=1)
	hp "$1"
	HP_ENV=()
	[ "$RC" = 137 ] || fail "$1 was not killed at its first config-space write (exit $RC)"
	hp status
	expect_rc 1
	expect_grep out 'UNKNOWN +run +host .*has not finished' "$1 killed: status does not say the run did not finish"
	expect_grep "$P" '^hostprep_ready 0$' "$1 killed: the metrics still say ready"
	expect_grep "$P" '^hostprep_check\{check="run",object="host",verdict="unknown"\} 1$' \
		"$1 killed: the metrics do not say a run did not finish"
	expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=false$' "$1 killed: NFD still says ready"
	expect_grep "$N" '^feature.node.kubernetes.io/hostprep.run=unknown$'
	[ -f "$E" ] || fail "$1 killed: rdma.env is gone, not marked not ready"
	expect_no_grep "$E" '^[^#]' "$1 killed: rdma.env still exports"
	expect_grep "$E" '^# Not ready: a hostprep run is in progress, was killed, or failed'
	[ ! -e "$G" ] || fail "$1 killed: gpus.json of the last verdict stays"
}
check_killed apply
# the same for revert (after a complete apply), killed at its first restore
hp apply
expect_rc 0
expect_grep "$P" '^hostprep_ready 1$'
check_killed revert
hp revert
expect_rc 0
# what the kill left is replaced by the next complete verdict
hp apply
expect_rc 0
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=true$'
expect_grep "$E" '^NCCL_IB_HCA=='
[ -f "$G" ] || fail "apply after the kill wrote no gpus.json"
