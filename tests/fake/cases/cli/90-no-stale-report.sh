# Issue 6 items 7 and 15: `status` never serves a verdict a later run has overtaken.
# A run that fails on its configuration, or dies half-way through apply, replaces
# the last report; a --root that does not exist is a usage error that creates nothing.
newroot dgx8
useconf gpu-p2p
hp -v apply
expect_rc 0
hp -v status
expect_rc 0

# 1. a config error after a READY run: status is not ready and names file:line
echo '[Bogus]' >>"$R/etc/hostprep/hostprep.conf"
hp -v check
expect_rc 2
hp -v status
expect_rc 1
expect_grep out 'FAIL +config' "status after a config error has no config fail"
expect_grep out 'hostprep\.conf:[0-9]+: unknown section \[Bogus\]' "status does not name file:line"
hp --json status
[ "$(jqo .ready)" = false ] || fail "status --json after a config error is still ready"
[ "$(jqo '.results[0].check')" = config ] || fail "the failure report's check is not 'config'"
hp -v apply
expect_rc 2
hp -v status
expect_rc 1

# 2. a fresh boot whose first run fails on its config: not "has not run"
newroot dgx8
useconf gpu-p2p
for d in "$R" "$REF"; do echo 'Mask=banana' >>"$d/etc/hostprep/hostprep.conf"; done
hp -v apply
expect_rc 2
expect_tree_same
hp -v status
expect_rc 1
expect_no_grep err 'has not' "status claims hostprep has not run although it failed"
expect_grep out 'Mask=: invalid mask' "status does not give the config error"
# a dry run writes nothing, not even a report
rm -rf "$R/run/hostprep"
hp -v apply --dry-run
expect_rc 2
[ -e "$R/run/hostprep/report.json" ] && fail "apply --dry-run with a config error wrote a report"

# 3. apply killed at its first config-space write: status says not finished, and the
#    original is recorded, so revert brings the tree back byte for byte
if [ -f "$FAILWRITE_SO" ]; then
	newroot dgx8
	useconf gpu-p2p
	hp -v check
	expect_rc 1
	HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_KILL=1)
	hp -v apply
	HP_ENV=()
	[ "$RC" = 137 ] || fail "the shim did not kill apply at its first write (exit $RC)"
	hp -v status
	expect_rc 1
	expect_grep out 'UNKNOWN +run' "status after a killed apply does not say the run did not finish"
	expect_grep out 'has not finished' "status after a killed apply does not say the run did not finish"
	hp -v revert
	expect_rc 0
	expect_tree_same
else
	fail "failwrite.so was not built"
fi

# 4. --root that does not exist: exit 2, nothing created (absolute and relative)
hp_typo() {
	(cd "$T" && exec "$BIN" --root "$1" check) >"$T/out" 2>"$T/err" </dev/null
	RC=$?
}
hp_typo "$T/no/such/root"
expect_rc 2
[ -e "$T/no" ] && fail "check with a missing --root created $T/no"
expect_grep err "Invalid --root" "a missing --root is not named"
hp_typo no/such/relative
expect_rc 2
: >"$T/plainfile"
hp_typo "$T/plainfile"
expect_rc 2

# 5. a damaged report: not ready (exit 1, as the README lists), not an internal error
newroot dgx8
mkdir -p "$R/run/hostprep"
printf '\x00\x01garbage' >"$R/run/hostprep/report.json"
hp -v status
expect_rc 1
expect_grep err 'not ready until hostprep runs again' "status on a damaged report does not say what to do"
