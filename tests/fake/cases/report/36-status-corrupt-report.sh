# status with a damaged report: not ready, no crash (exit 1 or 3), nothing written.
newroot dgx8
mkdir -p "$R/run/hostprep"
echo '{"schema":1,"version":"0.1.0"' >"$R/run/hostprep/report.json"
hp status
case $RC in 1 | 3) ;; *) fail "status on a truncated report: exit $RC" ;; esac
echo '{"schema":99}' >"$R/run/hostprep/report.json"
hp status
case $RC in 1 | 3) ;; *) fail "status on schema 99: exit $RC" ;; esac
expect_grep err 'schema' "status on schema 99 does not mention the schema"
