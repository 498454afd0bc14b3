# Kernel lockdown: every config write fails with EPERM -> apply exits 1, says so,
# and no byte of the tree changed.
newroot dgx8
useconf gpu-p2p
[ -f "$FAILWRITE_SO" ] || { fail "failwrite.so was not built"; exit 1; }
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_LOG="$T/refused")
hp -v apply
HP_ENV=()
expect_rc 1
[ -s "$T/refused" ] || fail "the shim saw no write to a config file (did apply try to write?)"
expect_tree_same
cat "$T/out" "$T/err" >"$T/all"
expect_grep all '(write|Write|WRITE).*(fail|FAIL|EPERM|denied|not permitted)|(fail|FAIL).*(write|acs\.write)' "apply does not report the failed write"
expect_grep all 'EPERM|[Oo]peration not permitted|lockdown' "apply does not say why the write failed (EPERM / lockdown)"
# with lockdown on, as /sys/kernel/security/lockdown says, the report says so
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do echo "none [integrity] confidentiality" >"$d/sys/kernel/security/lockdown"; done
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO")
hp -v apply
HP_ENV=()
expect_rc 1
expect_tree_same
expect_grep out 'lockdown' "with lockdown=integrity the failure does not name lockdown"
