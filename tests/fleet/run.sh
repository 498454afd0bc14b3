#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet tier (make check-fleet): the adapters under fleet/ checked with each engine's
# own tools, offline. Runs every executable cases/*.sh in name order from the repository's
# top directory. A case prints one line per check: "ok NAME", "fail NAME: why" or
# "skip NAME: why", and exits 1 when it printed a fail. This prints each line, then
# "fleet: N passed, N failed" (", N skipped" when any) and exits 1 on any fail, and also
# when a case exits non-zero without printing a fail (that is a fail of its own), and when
# no check passed (no case ran, or every check was skipped): nothing checked is no pass.
#
#   tests/fleet/run.sh              every case
#   CASES='3*' tests/fleet/run.sh   the cases whose file name matches the glob
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
passed=0 failed=0 skipped=0

run_case() {
	local c=$1 name out rc line fails=0
	name=$(basename "$c" .sh)
	out=$(cd "$top" && "$c" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) passed=$((passed + 1)) ;;
		"fail "*) failed=$((failed + 1)) fails=$((fails + 1)) ;;
		"skip "*) skipped=$((skipped + 1)) ;;
		*) line="  $line" ;; # a tool's own output, indented under its case
		esac
		printf '%s\n' "$line"
	done <<<"$out"
	if [ $rc -ne 0 ] && [ $fails -eq 0 ]; then
		echo "fail $name: exited $rc without saying why"
		failed=$((failed + 1))
	elif [ $rc -eq 0 ] && [ $fails -gt 0 ]; then
		echo "fail $name: printed a fail but exited 0"
		failed=$((failed + 1))
	fi
}

for c in "$here"/cases/*.sh; do
	[ -x "$c" ] || continue
	# shellcheck disable=SC2254 # CASES is a glob on purpose
	case $(basename "$c") in ${CASES:-*}) ;; *) continue ;; esac
	run_case "$c"
done
summary="fleet: $passed passed, $failed failed"
[ $skipped -gt 0 ] && summary+=", $skipped skipped"
echo "$summary"
if [ $failed -eq 0 ] && [ $passed -eq 0 ]; then
	echo "fleet: FAILED: no check passed ($skipped skipped): nothing was checked"
	exit 1
fi
[ $failed -eq 0 ]
