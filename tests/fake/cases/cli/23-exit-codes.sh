# CLI exit codes: unknown command -> 2 with usage on stderr; --version, --help -> 0.
newroot dgx8
hp frobnicate
expect_rc 2
expect_grep err '[Uu]sage' "unknown command: no usage on stderr"
[ -s "$T/out" ] && fail "unknown command printed on stdout"
hp --version
expect_rc 0
expect_grep out '0\.1\.0' "--version does not print 0.1.0"
hp --help
expect_rc 0
expect_grep out '[Uu]sage' "--help prints no usage on stdout"
hp --no-such-option check
expect_rc 2
hp
expect_rc 2
expect_grep err '[Uu]sage' "no command: no usage on stderr"
# status before any run: no report yet -> not ready, not a crash
hp status
case $RC in 1 | 2) ;; *) fail "status without a report: exit $RC (want 1 or 2)" ;; esac
