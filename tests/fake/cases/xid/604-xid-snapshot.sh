# [Xid] and hostprep snapshot: the tar keeps the kernel log as the check read it (dev/kmsg,
# every record with its priority, sequence number and time; the text only of the records
# that were judged, the rest blanked: a kernel log holds what a bug report should not), and
# the replay judges the same. (340 round-trips the dgx8-kmsg fixtures with and without [Xid].)
. "$HERE/lib-snapshot.sh"
newroot dgx8-kmsg-xid
useconf xid
hp --json check
expect_rc 1
cp "$T/out" "$T/host.json"
hp snapshot -o "$T/snap.tar.zst"
expect_rc 0
snap_extract "$T/snap.tar.zst" "$T/x"
[ -f "$T/x/dev/kmsg" ] || fail "no dev/kmsg in the snapshot"
grep -q 'NVRM: Xid (PCI:0000:3b:00): 79' "$T/x/dev/kmsg" || fail "the judged Xid line is not kept"
grep -q 'Linux version\|firmware version\|loading NVIDIA' "$T/x/dev/kmsg" && fail "unjudged text kept: $(cat "$T/x/dev/kmsg")"
grep -q '^ ' "$T/x/dev/kmsg" && fail "dictionary lines kept"
[ "$(grep -c . "$T/x/dev/kmsg")" = "$(grep -vc '^ ' "$R/dev/kmsg")" ] || fail "not every record kept"
grep -q '^6,0,0,-;$' "$T/x/dev/kmsg" || fail "a blanked record lost its header: $(head -2 "$T/x/dev/kmsg")"
grep -q 'recorded dev/kmsg' "$T/x/hostprep-snapshot.txt" || fail "the manifest does not name dev/kmsg"
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ $? = 1 ] || fail "the replay's exit status"
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/d" || fail "replay differs: $(cat "$T/d")"

# without [Xid] the log is not read, so not recorded
newroot dgx8-kmsg-xid
hp snapshot -o "$T/snap2.tar.zst"
expect_rc 0
snap_extract "$T/snap2.tar.zst" "$T/y"
[ -e "$T/y/dev/kmsg" ] && fail "the log recorded without [Xid]"
true
