#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fake-host integration suite: the real hostprep binary against fake root trees.
#
#   tests/fake/run.sh BINARY                 run every case
#   CASES='acs-*' tests/fake/run.sh BINARY   only cases whose name matches the glob
#                                            (extglob: CASES='@(10-*|210-*)' for several)
#   UPDATE_GOLDEN=1 tests/fake/run.sh BINARY regenerate golden/* (review each by hand!)
#   KEEP=1 tests/fake/run.sh BINARY          keep the scratch directory
#   JOBS=1 tests/fake/run.sh BINARY          cases in parallel (default: nproc)
#
# Every case runs in its own subshell with a fresh copy of a pristine fixture
# (built once per run by mkroot.py into a mktemp directory). Nothing outside
# that scratch directory is written. A case that cannot run here (lib.sh: skip) is
# counted as skipped, never as passed. Last line: "N passed, N failed" and, when some
# were skipped, ", N skipped". A run in which no case passed (none matched CASES, or every
# one was skipped) fails: a tier that checked nothing never prints a pass.
set -u
shopt -s extglob
export LC_ALL=C TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
unset HOSTPREP_CONFIG SYSTEMD_LOG_LEVEL NOTIFY_SOCKET COLUMNS # COLUMNS: the table's width

if [ $# -ne 1 ]; then
	echo "usage: $0 BINARY" >&2
	exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(realpath -m "$1")
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/hostprep-fake.XXXXXX")
chmod 0755 "$SCRATCH"
PRISTINE=$SCRATCH/pristine
FAILWRITE_SO=$SCRATCH/failwrite.so
NOSTICK_SO=$SCRATCH/nostick.so
export HERE BIN SCRATCH PRISTINE FAILWRITE_SO NOSTICK_SO

cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "scratch kept: $SCRATCH"
	else
		rm -rf "$SCRATCH"
	fi
}
trap cleanup EXIT

for tool in jq cmp lspci setpci strace cc; do
	command -v "$tool" >/dev/null 2>&1 || echo "warning: $tool not found; cases that need it fail" >&2
done
[ -x "$BIN" ] || echo "warning: $BIN does not exist (make -C $(dirname "$HERE")/..); binary cases fail" >&2

mkdir -p "$PRISTINE"
for fx in $(python3 "$HERE/mkroot.py" --list); do
	python3 "$HERE/mkroot.py" "$fx" "$PRISTINE/$fx" || { echo "mkroot.py $fx failed" >&2; exit 3; }
done
cc -shared -fPIC -O2 -o "$FAILWRITE_SO" "$HERE/failwrite.c" -ldl 2>"$SCRATCH/failwrite.log" ||
	echo "warning: cannot build failwrite.so: $(cat "$SCRATCH/failwrite.log")" >&2
cc -shared -fPIC -O2 -o "$NOSTICK_SO" "$HERE/nostick.c" -ldl 2>"$SCRATCH/nostick.log" ||
	echo "warning: cannot build nostick.so: $(cat "$SCRATCH/nostick.log")" >&2

passed=0
failed=0
skipped=0
failed_names=()
order=()
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
STARTED_AT=$(date +%s)
PROGRESS_EVERY=${PROGRESS_EVERY:-25}

# A line every PROGRESS_EVERY cases started: the verdicts come at the end, in order, and a
# tier that prints nothing for minutes looks hung (and CI logs have no clock of their own).
progress() {
	[ $((${#order[@]} % PROGRESS_EVERY)) = 0 ] || return 0
	echo "${HOSTPREP_TIER:-fake}: ${#order[@]} cases started, $(($(date +%s) - STARTED_AT)) s"
}

# run_case NAME file FILE | NAME fn FUNCTION ARGS...: start a case in the background
# (at most $JOBS at a time); its verdict is its subshell's exit status in $T/rc.
run_case() {
	local name=$1 kind=$2
	shift 2
	# shellcheck disable=SC2254 # CASES is a glob on purpose
	case $name in ${CASES:-*}) ;; *) return ;; esac
	local T=$SCRATCH/cases/$name
	mkdir -p "$T"
	order+=("$name")
	progress
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n 2>/dev/null || true
	done
	(
		local t0=$SECONDS
		(
			cd "$T" || exit 1
			# shellcheck source=lib.sh
			. "$HERE/lib.sh"
			if [ "$kind" = file ]; then
				# shellcheck disable=SC1090
				. "$1"
			else
				"$@"
			fi
			exit $FAILED
		) >"$T/log" 2>&1
		echo $? >"$T/rc"
		echo $((SECONDS - t0)) >"$T/secs"
	) &
}

report_cases() {
	local name T rc
	for name in "${order[@]}"; do
		T=$SCRATCH/cases/$name
		rc=$(cat "$T/rc" 2>/dev/null)
		if [ "$rc" = 0 ]; then
			passed=$((passed + 1))
			echo "ok   $name"
			grep -E '^UPDATED' "$T/log" | sed 's/^/     /'
		elif [ "$rc" = 77 ] && grep -q '^SKIPPED: ' "$T/log"; then
			skipped=$((skipped + 1))
			echo "skip $name: $(sed -n 's/^SKIPPED: //p' "$T/log" | head -1)"
		else
			failed=$((failed + 1))
			failed_names+=("$name")
			echo "FAIL $name$([ "$rc" = 1 ] || echo " (case exit ${rc:-none})")"
			sed 's/^/     /' "$T/log"
			if [ -s "$T/transcript" ]; then
				echo "     -- transcript --"
				sed 's/^/     /' "$T/transcript" | head -150
			fi
		fi
	done
}

# 1. cases/AREA/*.sh: one file per case, in the folder of the src/ part it tests
# (tests/fake/README.md); the file name without .sh is the case name, unique across the
# folders (CASES and the goldens know cases by it). A case file directly in cases/ runs
# too (the harness's own self-tests build such trees).
# All names checked before the first case starts (none left running on a usage error).
declare -A seen_case=()
case_files=()
for f in "$HERE"/cases/*.sh "$HERE"/cases/*/*.sh; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .sh)
	if [ -n "${seen_case[$name]:-}" ]; then
		echo "fake: case name $name is in ${seen_case[$name]#"$HERE"/} and ${f#"$HERE"/}: names are unique" >&2
		exit 2
	fi
	seen_case[$name]=$f
	case_files+=("$f")
done
for f in "${case_files[@]}"; do
	run_case "$(basename "$f" .sh)" file "$f"
done

# 2. golden.list: one golden file per line
golden_case() { # GOLDEN FIXTURE CONFIGS COMMAND...
	local g=$1 fx=$2 confs=$3
	shift 3
	newroot "$fx"
	local c first=1
	for c in ${confs//,/ }; do
		if [ "$first" = 1 ]; then
			[ "$c" = - ] || useconf "$c"
			first=0
		else
			dropin "$c" "50-$c.conf"
		fi
	done
	# "A ; B": run A first (setup), golden is B's output
	local args=() w
	for w in "$@"; do
		if [ "$w" = ";" ]; then
			hp "${args[@]}"
			args=()
		else
			args+=("$w")
		fi
	done
	hp "${args[@]}"
	golden "$g"
}
while read -r -u 3 g fx confs cmd; do
	case $g in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086
	run_case "golden-${g}" fn golden_case "$g" "$fx" "$confs" $cmd
done 3<"$HERE/golden.list"

wait
report_cases
echo
# the ten slowest cases: where the tier's time goes (CI's budget is watched by tier)
for name in "${order[@]}"; do
	echo "$(cat "$SCRATCH/cases/$name/secs" 2>/dev/null || echo 0) $name"
done | sort -rn | head -n 10 | awk '{ s = s sep $2 " " $1 " s"; sep = ", " }
	END { if (s != "") print "slowest: " s }'
if [ $failed -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
echo "${HOSTPREP_TIER:-fake}: $passed passed, $failed failed$([ $skipped = 0 ] || echo ", $skipped skipped")"
if [ $failed -eq 0 ] && [ $passed -eq 0 ]; then
	echo "${HOSTPREP_TIER:-fake}: FAILED: no case passed ($skipped skipped): nothing was checked"
	exit 1
fi
[ $failed -eq 0 ]
