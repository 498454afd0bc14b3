# A damaged backup (one byte flipped, or gone) is never restored: revert fails, leaves
# hostprep's file and the record as they are. A damaged line in the persistent record
# blocks every write (the original may be in it) and is kept byte-exact.
P=etc/modprobe.d/hostprep.conf

newroot erdma-compat
useconf kmod-erdma
printf 'options erdma compat_mode=N\n' >"$R/$P"
crc=$(python3 -c 'import sys,zlib; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$R/$P")
hp -v apply
expect_rc 0
B=$R/var/lib/hostprep/files/$crc.orig
[ -f "$B" ] || fail "no backup $B"
printf 'options erdma compat_mode=M\n' >"$B" # same size, one byte off
cp "$R/$P" "$T/ours"
cp "$R/var/lib/hostprep/originals" "$T/rec"
hp -v revert
expect_rc 1
expect_grep out "^FAIL +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +not restored: the backup /var/lib/hostprep/files/$crc\.orig is damaged or missing"
cmp -s "$T/ours" "$R/$P" || fail "revert restored from a damaged backup"
cmp -s "$T/rec" "$R/var/lib/hostprep/originals" || fail "revert dropped the record"
rm "$B"
hp -v revert
expect_rc 1
expect_grep out 'not restored: the backup .* is damaged or missing'
cmp -s "$T/ours" "$R/$P" || fail "revert touched the file without a backup"

# a damaged record line: apply writes nothing, revert reports the line and keeps it
newroot erdma-compat
useconf kmod-erdma
mkdir -p "$R/var/lib/hostprep"
seal "file /etc/modprobe.d/hostprep.conf absent" | sed 's/absent/absenT/' >"$R/var/lib/hostprep/originals"
reseal "$R/var/lib/hostprep/originals"
cp "$R/var/lib/hostprep/originals" "$T/rec2"
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf .* not written: the originals record may hold the original in a damaged line: line 2 of /var/lib/hostprep/originals \(checksum does not match'
[ -e "$R/$P" ] && fail "apply wrote despite a damaged record"
hp -v revert
expect_rc 1
expect_grep out '^FAIL +module\.revert +record +as before hostprep +line 2 of /var/lib/hostprep/originals .*kept byte-exact, never used$'
cmp -s "$T/rec2" "$R/var/lib/hostprep/originals" || fail "the damaged line was not kept byte-exact"
