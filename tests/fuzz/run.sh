#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every libFuzzer target in BINDIR for SECONDS each, over its checked-in corpus
# (tests/fuzz/corpus/TARGET, read only: new inputs go to a scratch dir) with its
# dictionary. Fails on any crash, sanitizer report, leak, timeout or out-of-memory;
# the input is kept in build-fuzz/artifacts/. Prints executions per target.
# A target also fails when it exits without libFuzzer's closing statistics (it did not
# run to its end: an exit() in the product, a crash libFuzzer never saw) and when it ran
# fewer executions than its floor (tests/fuzz/floors: a target that stopped fuzzing,
# e.g. every input now rejected before the parser, or a parser that became slow).
# Usage: tests/fuzz/run.sh SECONDS BINDIR [TARGET...]
#   FUZZ_JOBS=N  run N targets at once (default 1: the machine is shared)
#   FUZZ_FLOORS=0  no floors (a run on a machine known to be overloaded)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:?usage: run.sh SECONDS BINDIR [TARGET...]}
bindir=${2:?usage: run.sh SECONDS BINDIR [TARGET...]}
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for b in "$bindir"/fuzz_*; do targets+=("$(basename "$b")"); done
fi
artifacts=$(dirname "$bindir")/artifacts
mkdir -p "$artifacts"
# Scratch files of the targets (config drop-ins, records) and new corpus entries: tmpfs
# when there is one, removed at the end.
scratch=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/hostprep-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_one() {
	local t=$1 name=${1#fuzz_} dict=() work="$scratch/$1"
	mkdir -p "$work/new" "$work/tmp"
	rm -f "$artifacts/$t-"*
	[ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
	# -close_fd_mask=2: the product logs every problem it finds in the input on stderr;
	# libFuzzer keeps its own and the sanitizers' reports on a copy of it. No -max_len:
	# libFuzzer takes the longest seed's (the shipped config is 19 KiB), at least 4 KiB.
	TMPDIR="$work/tmp" "$bindir/$t" "${dict[@]}" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=1024 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$t-" "$work/new" "$here/corpus/$name" \
		>"$work/log" 2>&1
	echo $? >"$work/rc"
}

start=$(date +%s)
jobs=${FUZZ_JOBS:-1}
for t in "${targets[@]}"; do
	[ -x "$bindir/$t" ] || { echo "fuzz: no target $bindir/$t" >&2; exit 1; }
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	run_one "$t" &
done
wait

# floor TARGET: the fewest executions a run of at least 6 s must reach; empty when the
# target has none (a new target gets one: that fails too)
floor() {
	[ "${FUZZ_FLOORS:-1}" = 1 ] && [ "$secs" -ge 6 ] || { echo 0; return; }
	awk -v t="$1" '$1 == t { print $2 }' "$here/floors"
}

fail=0 total=0
for t in "${targets[@]}"; do
	log="$scratch/$t/log" rc=$(cat "$scratch/$t/rc")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	total=$((total + ${execs:-0}))
	min=$(floor "$t")
	if [ "$rc" -eq 0 ] && { [ -z "$execs" ] || ! grep -q '^Done [0-9]* runs in' "$log"; }; then
		fail=1
		echo "fuzz: $t FAILED: exited 0 without libFuzzer's final statistics (did it run?):"
		grep -v '^#\|^INFO:\|^\s*$' "$log" | tail -20
	elif [ "$rc" -eq 0 ] && [ -z "$min" ]; then
		fail=1
		echo "fuzz: $t FAILED: no floor in tests/fuzz/floors ($execs executions in ${secs} s)"
	elif [ "$rc" -eq 0 ] && [ "$execs" -lt "$min" ]; then
		fail=1
		echo "fuzz: $t FAILED: $execs executions in ${secs} s, below its floor of $min" \
			"(tests/fuzz/floors; FUZZ_FLOORS=0 on an overloaded machine)"
	elif [ "$rc" -ne 0 ]; then
		fail=1
		echo "fuzz: $t FAILED (exit $rc) after ${execs:-?} executions:"
		grep -v '^#\|^INFO:\|^\s*$' "$log" | head -60
		ls "$artifacts/$t-"* 2>/dev/null | sed 's/^/fuzz: input kept: /'
	else
		printf 'fuzz: %-16s %10s executions (floor %s), no crash, leak or timeout\n' "$t" \
			"$execs" "$min"
	fi
done
echo "fuzz: $total executions in $(( $(date +%s) - start )) s (${#targets[@]} targets, ${secs} s each)"
if [ $fail = 0 ] && [ "$total" -eq 0 ]; then
	echo "fuzz: FAILED: no target ran an input: nothing was checked"
	exit 1
fi
exit $fail
