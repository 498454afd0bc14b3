#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every cmocka unit-test binary; sum their counts into one closing line.
set -u
passed=0 failed=0 broken=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then
		echo "unit: $t exited $rc without a cmocka summary"
		broken=$((broken + 1))
	fi
done
failed=$((failed + broken))
echo "${HOSTPREP_TIER:-unit}: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
