# Issue 25 (tests): a tier whose checks all skip, or that ran none, must not pass. The
# runners themselves, on copies with stand-in cases: the fake tier's (tests/fake/run.sh),
# the unit tier's (tests/run-unit.sh over stand-in cmocka binaries) and the fleet tier's
# (tests/fleet/run.sh). Each exits 1 and says FAILED when every case skipped or none
# ran, and still passes a run with one pass among skips.
TOP=$(cd "$HERE/../.." && pwd)
# the stand-in tiers name themselves (fake:, unit:, fleet:), not the tier this case runs in
# (check-asan exports HOSTPREP_TIER=fake-asan)
unset HOSTPREP_TIER

# --- the fake tier: a copy of run.sh and lib.sh, no fixture, stand-in cases
F=$T/tier/tests/fake
mkdir -p "$F/cases"
cp "$HERE/run.sh" "$HERE/lib.sh" "$F/"
printf 'import sys\n' >"$F/mkroot.py" # --list: no fixture
: >"$F/failwrite.c"
: >"$F/nostick.c"
: >"$F/golden.list"
printf 'skip "a stand-in that cannot run here"\n' >"$F/cases/01-skips.sh"
printf 'skip "another"\n' >"$F/cases/02-skips.sh"
fake_tier() { (unset CASES; TMPDIR=$T/tier JOBS=1 env "$@" "$F/run.sh" /bin/true) >"$T/tier.out" 2>&1; }
fake_tier
rc=$?
[ $rc = 1 ] || fail "fake tier, every case skipped: exit $rc, want 1: $(tail -3 "$T/tier.out")"
grep -q '^fake: 0 passed, 0 failed, 2 skipped$' "$T/tier.out" || fail "fake tier: no count line: $(tail -3 "$T/tier.out")"
grep -q '^fake: FAILED: no case passed (2 skipped): nothing was checked$' "$T/tier.out" ||
	fail "fake tier, every case skipped: no FAILED line: $(tail -3 "$T/tier.out")"
fake_tier CASES='99-*'
rc=$?
[ $rc = 1 ] && grep -q '^fake: FAILED: no case passed (0 skipped)' "$T/tier.out" ||
	fail "fake tier, no case ran: exit $rc: $(tail -3 "$T/tier.out")"
printf 'true\n' >"$F/cases/03-passes.sh"
fake_tier
rc=$?
[ $rc = 0 ] && grep -q '^fake: 1 passed, 0 failed, 2 skipped$' "$T/tier.out" ||
	fail "fake tier, a pass among skips: exit $rc: $(tail -3 "$T/tier.out")"
grep -q FAILED "$T/tier.out" && fail "fake tier, a pass among skips: says FAILED"

# --- the unit tier: stand-ins printing cmocka's summary lines
U=$T/unit
mkdir -p "$U"
cmocka() { # NAME PASSED SKIPPED: a binary that prints cmocka's closing lines, exit 0
	printf '#!/bin/sh\necho "[==========] %s test(s) run."\necho "[  PASSED  ] %s test(s)."\n' \
		$(($2 + $3)) "$2" >"$U/$1"
	[ "$3" = 0 ] || printf 'echo "[  SKIPPED ] %s test(s), listed below:"\n' "$3" >>"$U/$1"
	chmod +x "$U/$1"
}
cmocka all-skipped 0 3
cmocka one-passed 1 2
"$TOP/tests/run-unit.sh" "$U/all-skipped" >"$T/unit.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^unit: FAILED: no test passed (3 skipped): nothing was checked$' "$T/unit.out" ||
	fail "unit tier, every test skipped: exit $rc: $(tail -2 "$T/unit.out")"
"$TOP/tests/run-unit.sh" >"$T/unit.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^unit: FAILED: no test passed (0 skipped)' "$T/unit.out" ||
	fail "unit tier, no binary: exit $rc: $(tail -2 "$T/unit.out")"
"$TOP/tests/run-unit.sh" "$U/all-skipped" "$U/one-passed" >"$T/unit.out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^unit: 1 passed, 0 failed, 5 skipped$' "$T/unit.out" ||
	fail "unit tier, a pass among skips: exit $rc: $(tail -2 "$T/unit.out")"

# --- the fleet tier: a copy of run.sh, stand-in cases
L=$T/tier/tests/fleet
mkdir -p "$L/cases"
cp "$TOP/tests/fleet/run.sh" "$L/"
printf '#!/bin/sh\necho "skip a: not here"\necho "skip b: nor here"\n' >"$L/cases/10-skips.sh"
chmod +x "$L/cases/10-skips.sh"
fleet_tier() { (cd "$T" && env "$@" "$L/run.sh") >"$T/fleet.out" 2>&1; }
fleet_tier CASES='*'
rc=$?
[ $rc = 1 ] && grep -q '^fleet: FAILED: no check passed (2 skipped): nothing was checked$' "$T/fleet.out" ||
	fail "fleet tier, every check skipped: exit $rc: $(tail -2 "$T/fleet.out")"
fleet_tier CASES='99*'
rc=$?
[ $rc = 1 ] && grep -q '^fleet: FAILED: no check passed (0 skipped)' "$T/fleet.out" ||
	fail "fleet tier, no case ran: exit $rc: $(tail -2 "$T/fleet.out")"
printf '#!/bin/sh\necho "ok c"\n' >"$L/cases/20-passes.sh"
chmod +x "$L/cases/20-passes.sh"
fleet_tier CASES='*'
rc=$?
[ $rc = 0 ] && grep -q '^fleet: 1 passed, 0 failed, 2 skipped$' "$T/fleet.out" ||
	fail "fleet tier, a pass among skips: exit $rc: $(tail -2 "$T/fleet.out")"
