# Issue 25 item 1: the last verdict published is the verdict of the last run that decided.
# Rounds of apply (makes dgx8 READY), revert (makes it NOT READY) and a publishing check,
# started together; after each round a non-publishing check (--config, the same file)
# gives the truth, and report.json, `status`, the metrics file and the NFD file must all
# agree with it. Before the fix apply published after it had let go of the run lock and
# check took no lock at all: 7 of 60 rounds (3 of 60 on the machine that wrote this case)
# ended with READY, or a mix, published on a host that was not READY.
. "$HERE/lib-sinks.sh"
newroot dgx8
useconf gpu-p2p
sink_dirs
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
F=$R/run/hostprep/report.json
ROUNDS=${RACE_ROUNDS:-60}
run() { "$BIN" --root "$R" "$@" </dev/null >/dev/null 2>&1; }
# a round's three runs, started in one of three orders so each can be first and last
race() {
	case $(($1 % 3)) in
	0) run apply & run revert & run check & ;;
	1) run revert & run check & run apply & ;;
	2) run check & run apply & run revert & ;;
	esac
	wait
}
bad=0 ready=0
for i in $(seq "$ROUNDS"); do
	race "$i"
	run --config "$R/etc/hostprep/hostprep.conf" check
	truth=$?
	case $truth in 0) want=true n=1 ready=$((ready + 1)) ;; 1) want=false n=0 ;;
	*)
		fail "round $i: the truth check exited $truth"
		break
		;;
	esac
	got="report=$(jq -r .ready "$F" 2>&1) status=$(run status && echo true || echo false)"
	got="$got prom=$(sed -n 's/^hostprep_ready //p' "$P") nfd=$(sed -n 's/.*hostprep.ready=//p' "$N")"
	if [ "$got" != "report=$want status=$want prom=$n nfd=$want" ]; then
		fail "round $i: the host is $([ $truth = 0 ] || echo 'NOT ')READY, published: $got"
		bad=$((bad + 1))
		[ $bad -ge 5 ] && break
	fi
done
note "$ROUNDS rounds, the host READY after $ready of them, $bad published another verdict"
# both outcomes happened: the rounds were races, not one order
if [ "$ready" = 0 ] || [ "$ready" = "$ROUNDS" ]; then
	fail "every round ended the same way ($ready of $ROUNDS READY): the runs did not race"
fi
hp revert
expect_rc 0
