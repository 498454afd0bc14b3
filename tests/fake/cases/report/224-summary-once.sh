# Issue 18: the summary line is printed once. A run on a host without journald (a
# container, this test machine) used to print the table with its summary on stdout and
# the same summary again on stderr ("hostprep: check: READY: ..."), both landing in the
# same log. Runs the binary on the real host, read-only: check as nobody (no report is
# written, nothing needs root) with a config that selects nothing but the IOMMU check.
if [ -d /run/systemd/system ]; then
	skip "systemd runs this host (the summary goes to the journal, not stderr)"
fi
printf '[ACS:gpu-paths]\nEnabled=no\n[IOMMU]\nExpect=any\n' >"$T/host.conf"
chmod 0644 "$T/host.conf"
chmod 0755 "$T"
setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --no-color --config "$T/host.conf" check \
	>"$T/out" 2>"$T/err" </dev/null
RC=$?
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "check on the host: exit $RC ($(cat "$T/err"))"
expect_grep out '^((NOT )?READY|NOTHING DECLARED): ' "no summary on stdout"
expect_no_grep err 'READY: |NOTHING DECLARED: ' "the summary printed a second time on stderr: $(cat "$T/err")"
# a run that renders nothing (config error) still leaves its verdict line on stderr
printf '[Bogus]\n' >"$T/bad.conf"
chmod 0644 "$T/bad.conf"
setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --no-color --config "$T/bad.conf" check \
	>"$T/out" 2>"$T/err" </dev/null
RC=$?
expect_rc 2
expect_grep err 'NOT READY: 1 fail' "a config error without journald leaves no verdict line"
