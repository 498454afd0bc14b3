# kill -9 between recording the original and writing the file (the shim kills at the first
# write to the temp file of the atomic write): the file is untouched (absent), the record
# holds "absent" and the intended "wrote" line; revert then finds the file as it was
# (exit 0) and removes the record and the temp file; so does a second apply, which writes.
P=etc/modprobe.d/hostprep.conf
[ -f "$FAILWRITE_SO" ] || { fail "failwrite.so was not built"; exit 1; }

newroot erdma-compat
useconf kmod-erdma
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_KILL_PATH=modprobe.d/hostprep.conf)
hp -v apply
HP_ENV=()
[ "$RC" = 137 ] || fail "the shim did not kill apply at the file's write (exit $RC)"
[ -e "$R/$P" ] && fail "the file exists after a kill before its write"
[ "$(wc -l <"$R/var/lib/hostprep/originals")" = 3 ] || fail "record: $(cat "$R/var/lib/hostprep/originals")"
expect_sealed "$R/var/lib/hostprep/originals"
ls "$R/etc/modprobe.d" | grep -q '^hostprep\.conf\.tmp-' || fail "no temp file left: the kill came elsewhere"

hp -v revert
expect_rc 0
expect_grep out '^PASS +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +absent already$'
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# killed again, then a plain apply: it writes, and revert removes the file
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_KILL_PATH=modprobe.d/hostprep.conf)
hp -v apply
HP_ENV=()
[ "$RC" = 137 ] || fail "second kill: exit $RC"
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf .* written, read back$'
ls "$R/etc/modprobe.d" | grep -q '^hostprep\.conf\.tmp-' && fail "apply left the temp file of the killed run"
[ "$(wc -l <"$R/var/lib/hostprep/originals")" = 3 ] || fail "record after apply: $(cat "$R/var/lib/hostprep/originals")"
hp -v revert
expect_rc 0
expect_grep out 'removed \(there was no such file before hostprep\)'
[ -e "$R/$P" ] && fail "revert left the file"
