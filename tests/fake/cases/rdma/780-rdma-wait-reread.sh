# A port that comes up during the boot wait is judged as it came up: apply's wait re-read
# only state and phys_state, and the verify steps judged the rate the down port had
# before the wait (an audit: a port that trained at 400 NDR failed MinRate=400 on its
# down rate "10 Gb/sec (4X SDR)" at every boot, and one that trained at 2X passed
# MinWidth=4X). Both apply and the check after it now give the same verdict.
put() { # FILE VALUE: whole, as sysfs shows a value
	echo "$2" >"$1.new" && mv "$1.new" "$1"
}
case_up() { # RATE RULE-LINE
	newroot ib-gpu
	P=$R/sys/class/infiniband/mlx5_3/ports/1
	put "$P/rate" "10 Gb/sec (4X SDR)" # what a down mlx5 port reads
	printf '[Host]\nWait=10s\n\n[Port:rails]\nSelect=mlx5_3\n%s\n' "$2" >"$R/etc/hostprep/hostprep.conf"
	(
		sleep 0.5
		put "$P/rate" "$1"
		put "$P/phys_state" "5: LinkUp"
		put "$P/state" "4: ACTIVE"
	) &
	hp --json apply
	wait
}
case_up "400 Gb/sec (4X NDR)" "MinRate=400"
expect_rc 0
[ "$(jqo '.results[] | select(.object == "mlx5_3/1") | .verdict + ": " + .actual')" = \
	"pass: mlx5_3 port 1: ACTIVE/LinkUp, 400 Gb/sec (4X NDR), InfiniBand [sysfs]" ] ||
	fail "a port up at 400 NDR after the wait: $(jqo '.results[] | select(.object == "mlx5_3/1")')"
case_up "200 Gb/sec (2X NDR)" "MinWidth=4X"
expect_rc 1
[ "$(jqo '.results[] | select(.object == "mlx5_3/1") | .verdict + ": " + .actual')" = \
	"fail: mlx5_3 port 1: ACTIVE/LinkUp — width 2X below MinWidth=4X (200 Gb/sec (2X NDR)) [sysfs]" ] ||
	fail "a port up at 2X after the wait: $(jqo '.results[] | select(.object == "mlx5_3/1")')"
hp check
expect_rc 1
expect_grep out '^FAIL +rdma\.port +mlx5_3/1 .*width 2X below MinWidth=4X'
