#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/slurm/slurm-health-check against a fake scontrol and a fake hostprep on
# PATH: what it drains, with which reason (argv recorded one argument per
# record, so quoting is checked byte for byte), what it resumes (only its own
# drain), what it leaves alone (an admin's drain, Slurm's own DOWN), and what
# it does when scontrol or hostprep fail, and when it asks the controller at all
# (its state file: no scontrol call while the outcome is unchanged). One case runs the real binary
# (build/hostprep, or $HOSTPREP_BIN) on an empty root: no report -> drained.
# The VM tier (tests/vm 70) runs the same wrapper against real slurmctld/slurmd.
#
# Prints ok/fail/skip lines; exits 1 on any fail.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
WRAPPER=$TOP/fleet/slurm/slurm-health-check
HOSTPREP_BIN=${HOSTPREP_BIN:-$TOP/build/hostprep}
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-slurm.XXXXXX")
trap 'rm -rf "$T"' EXIT
# the wrapper's state file: here, never the machine's /run/hostprep
export HOSTPREP_SLURM_STATE=$T/state/slurm-health-check.state
unset HOSTPREP_SLURM_RECHECK_MIN
FAILS=0
ok() { echo "ok $1"; }
fail() {
	echo "fail $1: $2"
	FAILS=$((FAILS + 1))
}
check_eq() { if [ "$1" = "$2" ]; then ok "$3"; else fail "$3" "got '$1', want '$2'"; fi; }

# --- the fakes ---
mkdir -p "$T/bin"
# scontrol: one node (FAKE_NODE) whose State and Reason live in $FAKE_SLURM/{state,reason};
# every call's argv is appended to $FAKE_SLURM/calls, each argument NUL-terminated,
# the call ended by a newline. FAKE_SCONTROL_FAIL=show|update makes that verb fail.
# Like Slurm 22.05: one surrounding pair of double quotes is stripped from a
# reason, the reason is stamped [user@time], resume of a node that is neither
# drained nor down is an error.
cat >"$T/bin/scontrol" <<'EOF'
#!/bin/bash
d=$FAKE_SLURM
{ printf '%s\0' "$@"; echo; } >>"$d/calls"
# FAKE_SCONTROL_HANG=show|update: that verb never answers (a controller that hangs)
[ "${FAKE_SCONTROL_HANG:-}" = "$1" ] && exec sleep 60
if [ "${FAKE_SCONTROL_FAIL:-}" = "$1" ]; then
	echo "slurm_load_node error: Unable to contact slurm controller (connect failure)" >&2
	exit 1
fi
case "$1" in
show)
	[ "$2 $3" = "node $FAKE_NODE" ] || { echo "Node $3 not found"; exit 1; }
	echo "NodeName=$FAKE_NODE Arch=x86_64 CoresPerSocket=1 "
	echo "   CPUAlloc=0 CPUEfctv=2 CPUTot=2 CPULoad=0.01"
	echo "   State=$(cat "$d/state") ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A"
	[ -s "$d/reason" ] && echo "   Reason=$(cat "$d/reason") [root@2026-11-26T01:02:03]"
	echo "   CurrentWatts=0 AveWatts=0"
	exit 0 ;;
update)
	node= state= reason=
	for a in "${@:2}"; do
		case "$a" in
		nodename=*) node=${a#*=} ;;
		state=*) state=${a#*=} ;;
		reason=*) reason=${a#*=}; reason=${reason#\"}; reason=${reason%\"} ;;
		*) echo "scontrol: error: Invalid input: $a" >&2; exit 1 ;;
		esac
	done
	[ "$node" = "$FAKE_NODE" ] || { echo "scontrol: error: Invalid node name specified" >&2; exit 1; }
	case "$state" in
	drain)
		[ -n "$reason" ] || { echo "You must specify a reason when DRAINING a node" >&2; exit 1; }
		s=$(cat "$d/state"); s=${s%%+*}
		echo "$s+DRAIN" >"$d/state"; printf '%s\n' "$reason" >"$d/reason" ;;
	resume)
		grep -Eq 'DRAIN|DOWN' "$d/state" ||
			{ echo "scontrol: error: Invalid node state specified" >&2; exit 1; }
		echo IDLE >"$d/state"; : >"$d/reason" ;;
	*) echo "scontrol: error: Invalid node state specified" >&2; exit 1 ;;
	esac ;;
*) echo "invalid keyword: $1" >&2; exit 1 ;;
esac
EOF
# hostprep: prints FAKE_HP_LINE, exits FAKE_HP_RC; refuses anything but status --oneline
# (the wrapper must never run a check or an apply). FAKE_HP_HANG=yes: then hangs;
# =hard: hangs ignoring SIGTERM (only SIGKILL ends it).
cat >"$T/bin/hostprep" <<'EOF'
#!/bin/bash
echo "$*" >>"$FAKE_SLURM/hostprep-calls"
[ "$*" = "status --oneline" ] || { echo "fake hostprep: unexpected '$*'" >&2; exit 3; }
printf '%s\n' "$FAKE_HP_LINE"
case ${FAKE_HP_HANG:-} in
yes) exec sleep 60 ;;
hard) trap '' TERM; sleep 60 ;;
esac
exit "$FAKE_HP_RC"
EOF
# logger: what would go to syslog, one line per call (-t TAG -- MESSAGE)
cat >"$T/bin/logger" <<'EOF'
#!/bin/bash
printf '%s\n' "$*" >>"$FAKE_SLURM/syslog"
EOF
chmod +x "$T/bin/scontrol" "$T/bin/hostprep" "$T/bin/logger"

# setup STATE [REASON]: a fresh controller record
setup() {
	export FAKE_SLURM=$T/slurm FAKE_NODE=node01
	rm -rf "$FAKE_SLURM" && mkdir -p "$FAKE_SLURM"
	echo "$1" >"$FAKE_SLURM/state"
	printf '%s' "${2:-}" >"$FAKE_SLURM/reason"
	: >"$FAKE_SLURM/calls"
	rm -rf "$T/state"
	unset FAKE_SCONTROL_FAIL FAKE_SCONTROL_HANG FAKE_HP_HANG
}
# run_wrapper LINE RC: the wrapper with the fakes first on PATH; sets $RC $ERR
run_wrapper() {
	FAKE_HP_LINE=$1 FAKE_HP_RC=$2 HOSTPREP_SLURM_NODE=node01 PATH="$T/bin:$PATH" \
		"$WRAPPER" >"$T/out" 2>"$T/err"
	RC=$?
	ERR=$(cat "$T/err")
}
state() { cat "$FAKE_SLURM/state"; }
reason() { cat "$FAKE_SLURM/reason"; }
# the calls of one verb (show, update), one per line
ncalls() { grep -ac "^$1" "$FAKE_SLURM/calls"; }
# the update calls, one per line, arguments shown as [arg]
updates() { grep -a '^update' "$FAKE_SLURM/calls" | sed 's/\x0$//; s/\x0/] [/g; s/^/[/; s/$/]/'; }

# --- cases ---
[ -x "$WRAPPER" ] || { fail "wrapper executable" "$WRAPPER"; exit 1; }
if sh -n "$WRAPPER"; then ok "sh -n slurm-health-check"; else fail "sh -n slurm-health-check" "syntax"; fi
if command -v shellcheck >/dev/null 2>&1; then
	if o=$(shellcheck -s sh "$WRAPPER" 2>&1); then ok "shellcheck -s sh slurm-health-check"
	else fail "shellcheck -s sh slurm-health-check" "$o"; fi
elif command -v checkbashisms >/dev/null 2>&1; then
	if o=$(checkbashisms "$WRAPPER" 2>&1); then ok "checkbashisms slurm-health-check"
	else fail "checkbashisms slurm-health-check" "$o"; fi
else echo "skip shellcheck slurm-health-check: neither shellcheck nor checkbashisms installed"; fi
if command -v dash >/dev/null 2>&1; then
	# the interpreter Debian runs for #!/bin/sh: the whole flow once under it
	setup IDLE
	FAKE_HP_LINE="NOT READY: x" FAKE_HP_RC=1 HOSTPREP_SLURM_NODE=node01 PATH="$T/bin:$PATH" \
		dash "$WRAPPER" 2>/dev/null
	check_eq "$(reason)" "hostprep: NOT READY: x" "dash: drains"
fi

setup IDLE
run_wrapper "NOT READY: rdma.port rxe0/1 DOWN/Polling; +3 more" 1
check_eq "$RC" 0 "not ready, idle node: exit 0"
check_eq "$(updates)" "[update] [nodename=node01] [state=drain] [reason=hostprep: NOT READY: rdma.port rxe0/1 DOWN/Polling; +3 more]" \
	"not ready: one drain, the reason one argument"
check_eq "$(state)" "IDLE+DRAIN" "not ready: node drained"
check_eq "$(cat "$FAKE_SLURM/syslog")" \
	"-t hostprep-slurm-health-check -- drained node01: hostprep: NOT READY: rdma.port rxe0/1 DOWN/Polling; +3 more" \
	"not ready: the drain logged to syslog with its tag"
grep -q '^status --oneline$' "$FAKE_SLURM/hostprep-calls" && ! grep -qv '^status --oneline$' "$FAKE_SLURM/hostprep-calls" &&
	ok "reads only 'hostprep status --oneline'" || fail "reads only 'hostprep status --oneline'" "$(cat "$FAKE_SLURM/hostprep-calls")"

# the same verdict again: no second update (no reason churn every interval)
run_wrapper "NOT READY: rdma.port rxe0/1 DOWN/Polling; +3 more" 1
check_eq "$(updates | wc -l)" 1 "not ready twice, same summary: no second drain"
# another summary: the reason follows it (still hostprep's own)
run_wrapper "NOT READY: kmod.param erdma compat_mode=N" 1
check_eq "$(reason)" "hostprep: NOT READY: kmod.param erdma compat_mode=N" "new summary: reason updated"
check_eq "$(updates | wc -l)" 2 "new summary: one more drain"

# ready: resumes its own drain
run_wrapper "READY: 25 pass, 1 warn" 0
check_eq "$RC" 0 "ready, own drain: exit 0"
check_eq "$(updates | tail -n 1)" "[update] [nodename=node01] [state=resume]" "ready: resume of hostprep's drain"
check_eq "$(state)" "IDLE" "ready: node back to IDLE"
check_eq "$(tail -n 1 "$FAKE_SLURM/syslog")" \
	"-t hostprep-slurm-health-check -- resumed node01 (was: hostprep: NOT READY: kmod.param erdma compat_mode=N)" \
	"ready: the resume logged"
# ready on a node with nothing to undo: no call at all (resume would be an error)
n=$(updates | wc -l)
run_wrapper "READY: 25 pass" 0
check_eq "$(updates | wc -l)" "$n" "ready, node idle: no update"
check_eq "$RC" 0 "ready, node idle: exit 0"

# an admin's drain survives READY and is not overwritten by NOT READY
setup "IDLE+DRAIN" "disk swap, ticket 4711 -- bob"
run_wrapper "READY: 25 pass" 0
check_eq "$(updates)" "" "ready, admin's drain: no update"
check_eq "$(state) / $(reason)" "IDLE+DRAIN / disk swap, ticket 4711 -- bob" "ready: admin's drain survives"
run_wrapper "NOT READY: acs 0000:00:02.0 0x001d" 1
check_eq "$(updates)" "" "not ready, admin's drain: reason not overwritten"
assert_log=$(grep -c "not from hostprep" <<<"$ERR")
check_eq "$assert_log" 1 "not ready, admin's drain: says why it leaves it"
check_eq "$(grep -c "node01 already has a reason not from hostprep ('disk swap, ticket 4711 -- bob')" "$FAKE_SLURM/syslog")" 1 \
	"not ready, admin's drain: logged to syslog too"
# a reason that only contains the prefix further in is not hostprep's
setup "IDLE+DRAIN" "bob: see hostprep: later"
run_wrapper "READY: 1 pass" 0
check_eq "$(updates)" "" "ready, reason with 'hostprep:' not at the start: not resumed"
# Slurm's own DOWN (no hostprep prefix) is not resumed either
setup "DOWN" "Not responding"
run_wrapper "READY: 1 pass" 0
check_eq "$(updates)" "" "ready, node DOWN by Slurm: not resumed"
# hostprep's reason without DRAIN in the state (a DOWN node whose reason is ours) is resumed
setup "DOWN" "hostprep: NOT READY: x"
run_wrapper "READY: 1 pass" 0
check_eq "$(updates)" "[update] [nodename=node01] [state=resume]" "ready, DOWN with hostprep's reason: resumed"
# hostprep's reason but the drain was undone by hand (no DRAIN): drains again
setup "IDLE" "hostprep: NOT READY: x"
run_wrapper "NOT READY: x" 1
check_eq "$(state)" "IDLE+DRAIN" "not ready, own reason but not drained: drained again"

# the state file: no scontrol call at all while the outcome is the one of the last look
setup IDLE
run_wrapper "NOT READY: x" 1
check_eq "$(ncalls show) $(ncalls update)" "1 1" "state: first run reads the node and drains it"
check_eq "$(cat "$HOSTPREP_SLURM_STATE")" "node01 hostprep: NOT READY: x" "state: records node and reason"
run_wrapper "NOT READY: x" 1
run_wrapper "NOT READY: x" 1
check_eq "$RC $(ncalls show) $(ncalls update)" "0 1 1" "state: same verdict twice more: no scontrol call"
run_wrapper "NOT READY: y" 1
check_eq "$(ncalls show) $(ncalls update) $(reason)" "2 2 hostprep: NOT READY: y" "state: new reason: read and drained again"
run_wrapper "READY: 1 pass" 0
check_eq "$(ncalls show) $(ncalls update) $(state)" "3 3 IDLE" "state: READY: read and resumed"
check_eq "$(cat "$HOSTPREP_SLURM_STATE")" "node01 READY" "state: records READY"
run_wrapper "READY: 1 pass" 0
check_eq "$(ncalls show) $(ncalls update)" "3 3" "state: READY again: no scontrol call"
# a node resumed by hand while still NOT READY: drained again once the look is older than
# HOSTPREP_SLURM_RECHECK_MIN (15 minutes), not before
setup IDLE
run_wrapper "NOT READY: x" 1
echo IDLE >"$FAKE_SLURM/state" && : >"$FAKE_SLURM/reason"
touch -d '14 minutes ago' "$HOSTPREP_SLURM_STATE"
run_wrapper "NOT READY: x" 1
check_eq "$(ncalls show) $(state)" "1 IDLE" "state: a look 14 minutes old is trusted"
touch -d '16 minutes ago' "$HOSTPREP_SLURM_STATE"
run_wrapper "NOT READY: x" 1
check_eq "$(ncalls show) $(state)" "2 IDLE+DRAIN" "state: a look 16 minutes old is redone: resumed by hand, drained again"
setup IDLE
run_wrapper "NOT READY: x" 1
HOSTPREP_SLURM_RECHECK_MIN=0 run_wrapper "NOT READY: x" 1
HOSTPREP_SLURM_RECHECK_MIN=0 run_wrapper "NOT READY: x" 1
check_eq "$(ncalls show) $(ncalls update)" "3 1" "state: HOSTPREP_SLURM_RECHECK_MIN=0 reads the node every run"
# another node name: its own look
setup IDLE
run_wrapper "NOT READY: x" 1
FAKE_NODE=node02 FAKE_HP_LINE="NOT READY: x" FAKE_HP_RC=1 HOSTPREP_SLURM_NODE=node02 PATH="$T/bin:$PATH" \
	"$WRAPPER" 2>/dev/null
check_eq "$(ncalls show)" 2 "state: another node name is looked at"
# scontrol fails: no state kept, the next run tries again
setup IDLE
export FAKE_SCONTROL_FAIL=update
run_wrapper "NOT READY: x" 1
unset FAKE_SCONTROL_FAIL
check_eq "$RC $([ -e "$HOSTPREP_SLURM_STATE" ] && echo kept || echo none)" "1 none" "state: scontrol failed: nothing recorded"
run_wrapper "NOT READY: x" 1
check_eq "$RC $(ncalls update) $(state)" "0 2 IDLE+DRAIN" "state: after a failure the next run drains"
# a state that cannot be written: still drains, says so, asks again next time
setup IDLE
: >"$T/notadir"
HOSTPREP_SLURM_STATE=$T/notadir/x run_wrapper "NOT READY: x" 1
check_eq "$RC $(state)" "0 IDLE+DRAIN" "state: unwritable: the node is still drained"
check_eq "$(grep -c "cannot record the node's state in $T/notadir/x" <<<"$ERR")" 1 "state: unwritable: said"
HOSTPREP_SLURM_STATE=$T/notadir/x run_wrapper "NOT READY: x" 1
check_eq "$(ncalls show)" 2 "state: unwritable: the next run reads the node again"

# quoting: quotes, newlines, tabs, control and non-ASCII bytes, shell syntax, length
setup IDLE
nasty=$'NOT READY: rdma.port "mlx5_0"/1 $(reboot) `id` ;& \\x\nsecond line\tTAB\x01\xc3\xa9 '"'single'"
run_wrapper "$nasty" 1
want="hostprep: NOT READY: rdma.port 'mlx5_0'/1 \$(reboot) \`id\` ;& \\x second line TAB 'single'"
check_eq "$(reason)" "$want" "quoting: one line, double quotes turned to single, controls and non-ASCII to spaces, nothing run"
if LC_ALL=C grep -aq '[^ -~]' "$FAKE_SLURM/reason" || [ "$(wc -l <"$FAKE_SLURM/reason")" != 1 ]; then
	fail "quoting: printable ASCII only" "$(od -c "$FAKE_SLURM/reason" | head -n 5)"
else ok "quoting: printable ASCII only"; fi
check_eq "$(updates | wc -l)" 1 "quoting: one update call"
check_eq "$(grep -ac '^update' "$FAKE_SLURM/calls")" 1 "quoting: the newline did not split the call"
args=$(grep -a '^update' "$FAKE_SLURM/calls" | tr -cd '\0' | wc -c)
check_eq "$args" 4 "quoting: exactly 4 arguments (update nodename state reason)"
setup IDLE
run_wrapper "NOT READY: $(printf 'x%.0s' $(seq 1 500))" 1
check_eq "$(reason | tr -d '\n' | wc -c)" 200 "length: reason cut at 200 bytes"
setup IDLE
run_wrapper "\"NOT READY: quoted\"" 1
check_eq "$(reason)" "hostprep: 'NOT READY: quoted'" "quoting: a summary in double quotes keeps its text"

# no verdict: unknown is never a pass
setup IDLE
run_wrapper "NOT READY: no report: hostprep has not finished a run since boot" 1
check_eq "$(reason)" "hostprep: NOT READY: no report: hostprep has not finished a run since boot" \
	"no report: drained with the reason"
setup IDLE
run_wrapper "" 3
check_eq "$(reason)" "hostprep: NOT READY: hostprep status exited 3 without a verdict" \
	"hostprep internal error, no output: drained"
# hostprep not installed: a PATH with the fake scontrol and the tools, no hostprep
mkdir -p "$T/nohp"
ln -sf "$T/bin/scontrol" "$T/nohp/scontrol"
for t in sh tr sed grep cut head hostname cat printf timeout; do
	p=$(command -v "$t") && [ "${p#/}" != "$p" ] && ln -sf "$p" "$T/nohp/$t"
done
setup IDLE
FAKE_SLURM=$FAKE_SLURM FAKE_NODE=node01 HOSTPREP_SLURM_NODE=node01 PATH="$T/nohp" \
	/bin/sh "$WRAPPER" 2>/dev/null
check_eq "$(reason)" "hostprep: NOT READY: hostprep not found" "hostprep not installed: drained"

# a hanging hostprep: bounded (slurmd kills a health check after 60 s, and a killed one
# drains nothing), the node drained as timed out; the line it printed before is no verdict
setup IDLE
export HOSTPREP_SLURM_TIMEOUT=1
start=$(date +%s)
FAKE_HP_HANG=yes run_wrapper "READY: 25 pass" 0
check_eq "$RC $(reason)" "0 hostprep: NOT READY: hostprep status timed out" "hostprep hangs: drained, timed out"
if [ $(($(date +%s) - start)) -lt 10 ]; then ok "hostprep hangs: the check ends within its limit"
else fail "hostprep hangs: the check ends within its limit" "$(($(date +%s) - start)) s"; fi
check_eq "$(grep -c 'drained node01: hostprep: NOT READY: hostprep status timed out' <<<"$ERR")" 1 "hostprep hangs: the drain said"
setup IDLE
FAKE_HP_HANG=hard run_wrapper "NOT READY: x" 1
check_eq "$RC $(reason)" "0 hostprep: NOT READY: hostprep status timed out" "hostprep ignores SIGTERM: killed, drained, timed out"
unset HOSTPREP_SLURM_TIMEOUT
# a hanging controller: each scontrol call bounded, the run fails (exit 1), nothing recorded
setup IDLE
export HOSTPREP_SLURM_SCONTROL_TIMEOUT=1 FAKE_SCONTROL_HANG=show
run_wrapper "NOT READY: x" 1
check_eq "$RC $(ncalls update) $([ -e "$HOSTPREP_SLURM_STATE" ] && echo kept || echo none)" "1 0 none" \
	"scontrol show hangs: exit 1, no update, nothing recorded"
check_eq "$(grep -c 'cannot read node node01: scontrol show timed out after 1s' <<<"$ERR")" 1 "scontrol show hangs: said"
setup IDLE
export HOSTPREP_SLURM_SCONTROL_TIMEOUT=1 FAKE_SCONTROL_HANG=update
run_wrapper "NOT READY: x" 1
check_eq "$RC $(state)" "1 IDLE" "scontrol update hangs: exit 1"
check_eq "$(grep -c 'cannot drain node01: scontrol update timed out after 1s' <<<"$ERR")" 1 "scontrol update hangs: said"
unset HOSTPREP_SLURM_SCONTROL_TIMEOUT FAKE_SCONTROL_HANG

# scontrol failures: exit 1, nothing claimed
setup IDLE
export FAKE_SCONTROL_FAIL=update
run_wrapper "NOT READY: x" 1
check_eq "$RC" 1 "scontrol update fails: exit 1"
assert_match=$(grep -c "cannot drain node01: .*Unable to contact" <<<"$ERR")
check_eq "$assert_match" 1 "scontrol update fails: the error names the node and scontrol's words"
check_eq "$(state)" "IDLE" "scontrol update fails: state unchanged"
setup "IDLE+DRAIN" "hostprep: NOT READY: x"
export FAKE_SCONTROL_FAIL=update
run_wrapper "READY: 1 pass" 0
check_eq "$RC" 1 "scontrol resume fails: exit 1"
setup "IDLE+DRAIN" "admin"
export FAKE_SCONTROL_FAIL=show
run_wrapper "NOT READY: x" 1
check_eq "$RC" 1 "scontrol show fails: exit 1"
check_eq "$(updates)" "" "scontrol show fails: no update (cannot tell an admin's drain)"
unset FAKE_SCONTROL_FAIL
# an unknown node name: show fails, nothing updated
setup IDLE
FAKE_HP_LINE="NOT READY: x" FAKE_HP_RC=1 HOSTPREP_SLURM_NODE=other PATH="$T/bin:$PATH" \
	"$WRAPPER" >/dev/null 2>"$T/err"
check_eq "$? $(updates)" "1 " "unknown node: exit 1, no update"
# the node name defaults to hostname -s
setup IDLE
FAKE_NODE=$(hostname -s)
FAKE_HP_LINE="NOT READY: x" FAKE_HP_RC=1 PATH="$T/bin:$PATH" "$WRAPPER" 2>/dev/null
check_eq "$(grep -a '^update' "$FAKE_SLURM/calls" | tr '\0' ' ' | cut -d' ' -f2)" "nodename=$(hostname -s)" \
	"node name: hostname -s by default"

# the real binary's words: no report on an empty root
if [ -x "$HOSTPREP_BIN" ]; then
	mkdir -p "$T/real" "$T/root"
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$HOSTPREP_BIN" "$T/root" >"$T/real/hostprep"
	chmod +x "$T/real/hostprep"
	ln -sf "$T/bin/scontrol" "$T/real/scontrol"
	setup IDLE
	HOSTPREP_SLURM_NODE=node01 PATH="$T/real:$PATH" "$WRAPPER" 2>/dev/null
	check_eq "$(reason)" "hostprep: NOT READY: no report: hostprep has not finished a run since boot" \
		"real hostprep, no report: drained with its one-line reason"
else
	echo "skip real hostprep, no report: $HOSTPREP_BIN not built"
fi

[ $FAILS -eq 0 ]
