# A hostprep.conf that was there before hostprep (an admin's, odd bytes, mode 0640): apply
# keeps its exact bytes as /var/lib/hostprep/files/<crc32>.orig, referenced by a sealed
# "file ... bytes SIZE CRC MODE" line, before replacing it; revert puts back exactly those
# bytes and that mode, and drops the backup and the record lines.
P=etc/modprobe.d/hostprep.conf

newroot erdma-compat
useconf kmod-erdma
ref_private
for d in "$R" "$REF"; do
	printf '# mine\noptions erdma compat_mode=N\n\001no final newline' >"$d/$P"
	chmod 0640 "$d/$P"
done
crc=$(python3 -c 'import sys,zlib; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$R/$P")
size=$(stat -c %s "$R/$P")
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf .* written, read back$'
cmp -s "$REF/$P" "$R/var/lib/hostprep/files/$crc.orig" || fail "backup files/$crc.orig is not the original's bytes"
[ "$(sed -n 2p "$R/var/lib/hostprep/originals")" = "$(seal "file /etc/modprobe.d/hostprep.conf bytes $size $crc 0640")" ] ||
	fail "first record line after the header: $(sed -n 2p "$R/var/lib/hostprep/originals")"
expect_sealed "$R/var/lib/hostprep/originals"
grep -qx 'options erdma compat_mode=Y' "$R/$P" || fail "the file was not replaced: $(cat "$R/$P")"

hp -v revert
expect_rc 0
expect_grep out '^PASS +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +restored the original [0-9]+ bytes, read back$'
# byte for byte and mode: the tree is the reference again but for the state directory
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT
