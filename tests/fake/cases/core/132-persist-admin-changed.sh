# The admin edits hostprep's file after hostprep wrote it: apply reports
# "changed since hostprep wrote it" and does not overwrite it; revert neither deletes nor
# restores it (exit 1) and keeps the record, byte for byte.
P=etc/modprobe.d/hostprep.conf

newroot erdma-compat
useconf kmod-erdma
hp -v apply
expect_rc 0
echo 'options mlx5_core prof_sel=3' >>"$R/$P"
cp "$R/$P" "$T/edited"
cp "$R/var/lib/hostprep/originals" "$T/rec"

# a config change makes apply want other bytes: it must still not touch the admin's file
sed -i 's/^Persist=yes/Persist=yes\nParameter=extra=1/' "$R/etc/hostprep/hostprep.conf"
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf .* not written: changed since hostprep wrote it$'
expect_grep out 'move your own lines to another file in /etc/modprobe\.d'
cmp -s "$T/edited" "$R/$P" || fail "apply overwrote the admin's file"
cmp -s "$T/rec" "$R/var/lib/hostprep/originals" || fail "apply changed the record"

hp -v revert
expect_rc 1
expect_grep out '^FAIL +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +not restored: changed since hostprep wrote it; left as it is$'
cmp -s "$T/edited" "$R/$P" || fail "revert touched the admin's file"
cmp -s "$T/rec" "$R/var/lib/hostprep/originals" || fail "revert dropped the record"

# the admin removes it: with nothing before hostprep, that is the original: revert is done
rm "$R/$P"
hp -v revert
expect_rc 0
expect_grep out '^PASS +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +absent already$'
[ -e "$R/var/lib/hostprep/originals" ] && fail "record kept after the file is as before"
