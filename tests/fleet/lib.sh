# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the fleet cases (tests/fleet/cases/*.sh) (tests/fleet/run.sh): ok/fail/skip lines and the exit status.
FAILED=0
ok() { echo "ok $1"; }
fail() {
	echo "fail $1: $2"
	FAILED=1
}
skip() { echo "skip $1: $2"; }
# need TOOL NAME: a missing tool is a skip on a developer machine, a fail in CI (CI=true):
# tests/deps.sh fleet installs every one
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "${CI:-}" = true ]; then
		fail "$2" "$1 missing (tests/deps.sh fleet installs it)"
	else
		skip "$2" "$1 missing (tests/deps.sh fleet installs it)"
	fi
	return 1
}
finish() { exit $FAILED; }
