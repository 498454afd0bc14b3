#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/slurm/hostprep.nhc, the LBNL NHC check check_hostprep, against a fake hostprep.
# Debian 12 has no NHC package (no lbnl-nhc, no nhc), so the check is sourced into bash
# with die/log/dbg stubs that behave as NHC 1.4's (nhc: die RET MSG ends the run with
# RET, or returns 0 under NHC_CHECK_ALL=1 so that the check must return 1 itself), and
# the message goes through the same eval NHC's die() uses to call node-mark-offline.
# With NHC_SRC=DIR (a checkout of NHC's source: nhc, scripts/common.nhc) the check also
# runs under the real nhc program; without it that part prints a skip.
set -uo pipefail
. tests/fleet/lib.sh
TOP=$PWD
NHC_FILE=$TOP/fleet/slurm/hostprep.nhc
HOSTPREP_BIN=${HOSTPREP_BIN:-$TOP/build/hostprep}
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-nhc.XXXXXX")
trap 'rm -rf "$T"' EXIT
check_eq() { if [ "$1" = "$2" ]; then ok "$3"; else fail "$3" "got '$1', want '$2'"; fi; }

[ -f "$NHC_FILE" ] || { fail nhc-file "$NHC_FILE missing"; finish; }
if bash -n "$NHC_FILE"; then ok "bash -n hostprep.nhc"; else fail "bash -n hostprep.nhc" syntax; fi
if need shellcheck "shellcheck hostprep.nhc"; then
	if o=$(shellcheck -s bash "$NHC_FILE" 2>&1); then ok "shellcheck hostprep.nhc"
	else fail "shellcheck hostprep.nhc" "$o"; fi
fi
# NHC's conventions: a check_* function, no output or side effect when sourced
o=$(bash -c '. "$1"; declare -F check_hostprep' _ "$NHC_FILE" 2>&1)
check_eq "$o" "check_hostprep" "defines check_hostprep"
o=$(bash -c '. "$1"' _ "$NHC_FILE" 2>&1)
check_eq "$o" "" "sourcing prints nothing (NHC sources every script at each run)"

# hostprep: prints FAKE_LINE, exits FAKE_RC; records its arguments
mkdir -p "$T/bin"
cat >"$T/bin/hostprep" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_DIR/hostprep-calls"
[ "$*" = "status --oneline" ] || { echo "fake hostprep: unexpected '$*'" >&2; exit 3; }
printf '%s\n' "$FAKE_LINE"
exit "$FAKE_RC"
EOF
chmod +x "$T/bin/hostprep"
export FAKE_DIR=$T

# NHC's die/log/dbg (nhc 1.4): die RET MSG logs, calls node-mark-offline through
# eval with the message inside single quotes, then exits RET (returns 0 under
# NHC_CHECK_ALL=1). node-mark-offline here records the reason it got.
cat >"$T/nhc-stubs.bash" <<'EOF'
log() { echo "$@"; }
dbg() { :; }
mark_offline() { printf '%s' "$2" >"$FAKE_DIR/offline"; }
OFFLINE_NODE=mark_offline
HOSTNAME=node01
die() {
	IFS=$' \t\n'
	local RET="$1"
	shift
	printf '%s|%s' "$RET" "$*" >"$FAKE_DIR/died"
	eval $OFFLINE_NODE "'$HOSTNAME'" "'$*'"
	[ "${NHC_CHECK_ALL:-0}" = 1 ] && return 0
	exit "$RET"
}
EOF
# run_check LINE RC [ARGS...]: the check in a bash with those stubs; sets RC, DIED
# ("RET|message" of die, empty when it did not die) and OFFLINE (the reason
# node-mark-offline got through NHC's eval).
run_check() {
	local line=$1 rc=$2
	shift 2
	: >"$T/died"
	: >"$T/offline"
	FAKE_LINE=$line FAKE_RC=$rc HOSTPREP=${HP:-$T/bin/hostprep} \
		bash -c '. "$1"; . "$2"; shift 2; check_hostprep "$@"' _ "$T/nhc-stubs.bash" "$NHC_FILE" "$@" \
		>"$T/out" 2>&1
	RC=$?
	DIED=$(cat "$T/died")
	OFFLINE=$(cat "$T/offline")
}

run_check "READY: 25 pass, 1 warn" 0
check_eq "$RC|$DIED" "0|" "ready: passes, no die"
check_eq "$(cat "$T/hostprep-calls")" "status --oneline" "reads only 'hostprep status --oneline'"

run_check "NOT READY: rdma.port mlx5_0/1 DOWN/Polling; +3 more" 1
check_eq "$RC" 1 "not ready: the run ends with die's 1"
check_eq "$DIED" "1|check_hostprep:  NOT READY: rdma.port mlx5_0/1 DOWN/Polling; +3 more" \
	"not ready: die 1 with the check's name and hostprep's line"
check_eq "$OFFLINE" "check_hostprep:  NOT READY: rdma.port mlx5_0/1 DOWN/Polling; +3 more" \
	"not ready: node-mark-offline gets the same reason"

NHC_CHECK_ALL=1 run_check "NOT READY: x" 1
check_eq "$RC|$DIED" "1|1|check_hostprep:  NOT READY: x" "NHC_CHECK_ALL (die returns): the check returns 1"

# quotes, controls, non-ASCII, shell syntax: one printable line that survives NHC's eval
nasty=$(printf 'NOT READY: it'"'"'s "mlx5_0" $(touch %s/pwned) `id` ;\nsecond\tline\001\303\251 \\x' "$T")
run_check "$nasty" 1
want="check_hostprep:  NOT READY: its mlx5_0 \$(touch $T/pwned) \`id\` ; second line \\x"
check_eq "$DIED" "1|$want" "quoting: quotes dropped, controls and non-ASCII to spaces"
check_eq "$OFFLINE" "$want" "quoting: NHC's eval passes the reason whole"
[ -e "$T/pwned" ] && fail "quoting: nothing run" "the summary's \$(...) ran" || ok "quoting: nothing run"
run_check "NOT READY: $(printf 'x%.0s' $(seq 1 500))" 1
check_eq "$(printf '%s' "${DIED#1|check_hostprep:  }" | wc -c)" 200 "length: hostprep's line cut at 200 bytes"

# nothing checked is never a pass
run_check "NOT READY: no report: hostprep has not finished a run since boot" 1
check_eq "$DIED" "1|check_hostprep:  NOT READY: no report: hostprep has not finished a run since boot" "no report: fails"
run_check "" 3
check_eq "$DIED" "1|check_hostprep:  NOT READY: hostprep status exited 3 without a verdict" "internal error, no output: fails"
run_check "usage: hostprep status" 2
check_eq "$DIED" "1|check_hostprep:  usage: hostprep status" "usage error: fails with hostprep's line"
HP=$T/nonexistent run_check "" 0
check_eq "$DIED" "1|check_hostprep:  NOT READY: $T/nonexistent not found or not runnable" "hostprep missing: fails"
run_check "READY: 1 pass" 0 -x
check_eq "${DIED%%:  Syntax*}" "1|check_hostprep" "an argument: syntax error, not a pass"

# the real binary's words: no report on an empty root
if [ -x "$HOSTPREP_BIN" ]; then
	mkdir -p "$T/root"
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$HOSTPREP_BIN" "$T/root" >"$T/real-hostprep"
	chmod +x "$T/real-hostprep"
	HP=$T/real-hostprep run_check "" 0
	check_eq "$DIED" "1|check_hostprep:  NOT READY: no report: hostprep has not finished a run since boot" \
		"real hostprep, no report: fails with its one-line reason"
else
	skip "real hostprep, no report" "$HOSTPREP_BIN not built"
fi

# under the real nhc (NHC_SRC: its source checkout): nhc -c CONF with '* || check_hostprep'
if [ -n "${NHC_SRC:-}" ] && [ -f "$NHC_SRC/nhc" ]; then
	mkdir -p "$T/nhc/scripts"
	cp "$NHC_SRC/scripts/common.nhc" "$NHC_FILE" "$T/nhc/scripts/"
	echo '* || check_hostprep' >"$T/nhc/nhc.conf"
	nhc_run() {
		FAKE_LINE=$1 FAKE_RC=$2 bash "$NHC_SRC/nhc" -D "$T/nhc" -c "$T/nhc/nhc.conf" -l - \
			HOSTPREP="$T/bin/hostprep" MARK_OFFLINE=0 >"$T/nhc.out" 2>&1
	}
	nhc_run "READY: 3 pass" 0
	check_eq "$?" 0 "real nhc: ready passes"
	nhc_run "NOT READY: it's down" 1
	check_eq "$?|$(grep -c 'Health check failed:  check_hostprep:  NOT READY: its down' "$T/nhc.out")" "1|1" \
		"real nhc: not ready fails with the reason"
else
	skip "real nhc" "NHC_SRC unset (Debian 12 has no NHC package; NHC_SRC=a checkout of NHC's source runs it)"
fi
finish
