#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every cmocka unit-test binary; sum their counts into one closing line:
# "N passed, N failed" and, when cmocka skipped some, ", N skipped". A binary that
# exits non-zero (a crash by signal included) without counting a failure, or exits 0
# without cmocka's summary, is one failure: no test passes on an exit nobody read.
# A run in which no test passed (none given, or every one skipped) fails too: a tier that
# checked nothing never prints a pass.
set -u
passed=0 failed=0 skipped=0 broken=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
	if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		if [ $rc -ge 128 ]; then
			echo "unit: $t killed by signal $((rc - 128)) without a cmocka failure"
		else
			echo "unit: $t exited $rc without a cmocka failure"
		fi
		broken=$((broken + 1))
	elif [ $rc -eq 0 ] && [ -z "$p" ]; then
		echo "unit: $t exited 0 without a cmocka summary"
		broken=$((broken + 1))
	fi
done
failed=$((failed + broken))
echo "${HOSTPREP_TIER:-unit}: $passed passed, $failed failed$([ $skipped -eq 0 ] || echo ", $skipped skipped")"
if [ "$failed" -eq 0 ] && [ "$passed" -eq 0 ]; then
	echo "${HOSTPREP_TIER:-unit}: FAILED: no test passed ($skipped skipped): nothing was checked"
	exit 1
fi
[ "$failed" -eq 0 ]
