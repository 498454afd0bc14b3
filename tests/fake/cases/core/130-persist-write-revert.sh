# Persist=yes, nothing there before: apply writes exactly the hostprep-owned file
# (header, then sorted "options" lines), records "absent" in the persistent store
# <root>/var/lib/hostprep/originals (sealed) before writing, a second apply finds it
# up to date, check passes, and revert removes the file (only the state dir stays).
HDR="# hostprep owns this file (Persist=yes in /etc/hostprep); 'hostprep revert' restores what was here before."
P=etc/modprobe.d/hostprep.conf

newroot erdma-std
useconf kmod-erdma
hp -v apply
expect_rc 1 # erdma still in standard mode under --root
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +written, read back$'
printf '%s\noptions erdma compat_mode=Y\n' "$HDR" >"$T/want"
cmp -s "$T/want" "$R/$P" || fail "the file's bytes: $(od -c "$R/$P" | head -5)"
[ "$(stat -c %a "$R/$P")" = 644 ] || fail "mode $(stat -c %a "$R/$P"), want 644"
expect_sealed "$R/var/lib/hostprep/originals"
{
	seal "file /etc/modprobe.d/hostprep.conf absent"
	seal "wrote /etc/modprobe.d/hostprep.conf $(stat -c %s "$T/want") $(python3 -c 'import sys,zlib; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$T/want")"
} >"$T/rec.want"
reseal "$T/rec.want"
cmp -s "$T/rec.want" "$R/var/lib/hostprep/originals" ||
	fail "record: $(cat "$R/var/lib/hostprep/originals") want $(cat "$T/rec.want")"
[ -e "$R/run/hostprep/acs-originals" ] && fail "the file's original went to /run (lost at reboot)"
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
entry: +f 600 ./var/lib/hostprep/originals
entry: +f 644 ./etc/modprobe.d/hostprep.conf
EOT

cp "$R/var/lib/hostprep/originals" "$T/rec.1"
hp -v apply --json
expect_grep out '"check": *"module.persist"'
# (a warning: the tree's erdma still runs with N although the option is now in place)
jqo '.results[] | select(.check == "module.persist") | .verdict + " " + .actual' | grep -q '^warn already up to date; erdma was loaded with compat_mode=N although' ||
	fail "second apply: $(jqo '.results[] | select(.check == "module.persist")')"
cmp -s "$T/rec.1" "$R/var/lib/hostprep/originals" || fail "an up-to-date apply changed the record"

hp -v check --json
[ "$(jqo '.results[] | select(.check == "module.persist") | .object + " " + .verdict')" = "/etc/modprobe.d/hostprep.conf warn" ] ||
	fail "check: $(jqo '.results[] | select(.check == "module.persist")')"
# the tree's erdma runs with N although the option is in place: the initramfs (or a hand load)
jqo '.results[] | select(.check == "module.persist") | .actual' | grep -q 'loaded before the root file system' ||
	fail "check does not say erdma was loaded before the option could apply"

hp -v revert
expect_rc 0
expect_grep out '^PASS +module\.revert +/etc/modprobe\.d/hostprep\.conf +as before hostprep +removed \(there was no such file before hostprep\)$'
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT
hp -v revert
expect_rc 0
expect_no_grep out 'module\.revert'

# the module already runs with the option: a plain pass, no initramfs note
newroot erdma-compat
useconf kmod-erdma
hp -v apply
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +written, read back$'
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +already up to date$'
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +has every options line$'

# two modules, declared out of order: sorted; the header once
newroot erdma-std
useconf kmod-persist-two
hp -v apply
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +2 options lines, hostprep-owned +written, read back$'
printf '%s\noptions erdma compat_mode=Y\noptions rdma_ucm debug=1\n' "$HDR" >"$T/want2"
cmp -s "$T/want2" "$R/$P" || fail "two modules: $(cat "$R/$P")"
