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
# a whole report, then a NUL and anything: damaged, for status and for the gate (the
# parse stopped at the NUL and the trailing-data check saw nothing after it: READY)
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/proc/sys/kernel/random"
echo 0f6b3a4c-1111-4222-8333-944455556666 >"$R/proc/sys/kernel/random/boot_id"
hp apply
expect_rc 0
printf '\0{"garbage": trailing data\n' >>"$R/run/hostprep/report.json"
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: the last report cannot be used'
expect_grep err 'NUL byte'
hp gate kubelet.service
expect_rc 1
[ -e "$R/run/hostprep/gate/kubelet.service" ] && fail "the gate recorded a pass on a damaged report"
