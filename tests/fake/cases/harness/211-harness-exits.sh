# The harness itself: no case passes on an exit status hostprep never gives. A crash
# by a signal (128+N), a missing binary (127) or any status above 3 fails the case
# through hp, whatever the case checks next; 137 (SIGKILL) only when the case asked the
# failwrite shim to kill. skip ends a case as skipped (77), or as failed after a failure.
verdict() { (
	FAILED=0
	"$@" >/dev/null 2>&1
	echo "$FAILED"
); }
for rc in 0 1 2 3; do
	[ "$(verdict expect_exited $rc x)" = 0 ] || fail "exit $rc rejected"
done
for rc in 4 126 127 134 137 139 255; do
	[ "$(verdict expect_exited $rc x)" = 1 ] || fail "exit $rc accepted"
done
kill_ok() { HP_ENV=(LD_PRELOAD=x FAILWRITE_KILL_PATH=y); expect_exited "$1" x; }
[ "$(verdict kill_ok 137)" = 0 ] || fail "137 rejected with FAILWRITE_KILL_PATH"
[ "$(verdict kill_ok 139)" = 1 ] || fail "139 accepted with FAILWRITE_KILL_PATH"
kill_nok() { HP_ENV=(LD_PRELOAD=x NOSTICK_MASK=1); expect_exited "$1" x; }
[ "$(verdict kill_nok 137)" = 1 ] || fail "137 accepted without a kill asked for"

# through hp: a binary that dies of SIGSEGV after printing what a case may grep for
newroot vm-noacs
# (the shell's own "Segmentation fault" line goes to the log: expected)
printf '#!/bin/sh\necho "PASS acs"\nkill -SEGV $$\n' >"$T/segv"
printf '#!/bin/sh\necho "PASS acs"\nexit 0\n' >"$T/fine"
chmod +x "$T/segv" "$T/fine"
crashes() { BIN=$T/segv hp check; }
[ "$(verdict crashes)" = 1 ] || fail "hp accepted a binary killed by SIGSEGV"
( BIN=$T/segv hp check; echo "$RC" >"$T/segv.rc" ) >/dev/null
[ "$(cat "$T/segv.rc")" = 139 ] || fail "the SIGSEGV binary exited $(cat "$T/segv.rc"), not 139"
runs() { BIN=$T/fine hp check; }
[ "$(verdict runs)" = 0 ] || fail "hp rejected a binary that exits 0"

# skip: 77 and the reason; after a failure the case stays failed
( FAILED=0; skip "a reason" ) >"$T/skip.out"
[ $? = 77 ] || fail "skip did not end the case with 77"
grep -qx 'SKIPPED: a reason' "$T/skip.out" || fail "skip did not print the reason"
( FAILED=1; skip "a reason" ) >/dev/null
[ $? = 1 ] || fail "skip after a failure did not end the case as failed"
( FAILED=0; need_tool sh ) >/dev/null || fail "need_tool sh skipped"
( FAILED=0; need_tool hostprep-no-such-tool ) >/dev/null
[ $? = 77 ] || fail "need_tool of a missing tool did not skip"
