# Issue 17 item 10, the persistent store: /var/lib/hostprep/originals cut at a line
# boundary (the "wrote" line lost). revert says the record is cut (exit 1), leaves
# hostprep's file (it no longer knows it wrote it) and keeps the record and the backup
# byte for byte; apply writes nothing into a cut record. A record of an earlier hostprep
# (sealed lines, no header) is read as before (test_record: the next change writes it
# with its header).
P=etc/modprobe.d/hostprep.conf
O=var/lib/hostprep/originals

newroot erdma-compat
useconf kmod-erdma
printf 'options erdma compat_mode=N\n' >"$R/$P"
crc=$(python3 -c 'import sys,zlib; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$R/$P")
hp -v apply
expect_rc 0
[ "$(head -1 "$R/$O")" = "$(seal "hostprep-record 2 lines 2")" ] || fail "header: $(head -1 "$R/$O")"
head -2 "$R/$O" >"$T/cut"
cp "$T/cut" "$R/$O"
cp "$R/$P" "$T/ours"
hp -v revert
expect_rc 1
expect_grep out '^FAIL +module\.revert +record .*the record is cut \(its header counts 2 lines, 1 are there\)' "revert does not say the persistent record is cut"
cmp -s "$T/ours" "$R/$P" || fail "revert changed the file"
cmp -s "$T/cut" "$R/$O" || fail "revert changed the cut record"
[ -f "$R/var/lib/hostprep/files/$crc.orig" ] || fail "revert removed the backup a cut record names"
printf 'options erdma compat_mode=N\n' >"$R/$P"
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf .*not written: the originals record is cut' "apply writes into a cut persistent record"
cmp -s "$T/cut" "$R/$O" || fail "apply changed the cut record"

# an earlier hostprep's record: no header, sealed lines
newroot erdma-std
useconf kmod-erdma
hp -v apply
expect_rc 1 # erdma still in standard mode under --root
tail -n +2 "$R/$O" >"$T/old"
cp "$T/old" "$R/$O"
hp -v revert
expect_rc 0
expect_grep out '^PASS +module\.revert +/etc/modprobe\.d/hostprep\.conf .*removed' "an earlier hostprep's record is not restored"
[ -e "$R/$O" ] && fail "a complete revert left the record"
