# A missing module with Load=yes: apply names the exact insmod under --root; deny-listed by
# modprobe.d (file:line) or by module_blacklist= on the kernel command line: reported,
# no load planned.
newroot erdma-absent
useconf kmod-erdma
hp -v apply
expect_rc 1
expect_grep out '^SKIP +module\.load +erdma .*would run: insmod /lib/modules/6\.1\.0-27-amd64/updates/erdma\.ko compat_mode=Y$'
expect_grep out '^FAIL +module\.state +erdma +live or builtin +not loaded$'
# nothing but the persisted option (Persist=yes: a file, written under --root too)
expect_tree_diff <<'EOF'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
entry: +f 600 ./var/lib/hostprep/originals
entry: +f 644 ./etc/modprobe.d/hostprep.conf
EOF

newroot erdma-absent
useconf kmod-erdma
ref_private
for d in "$R" "$REF"; do
	printf '# site policy\n\nblacklist erdma\n' >"$d/etc/modprobe.d/no-erdma.conf"
done
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.state +erdma +live or builtin +deny-listed \(by /etc/modprobe\.d/no-erdma\.conf:3\)$'
expect_no_grep out 'module\.load'
hp -v apply --dry-run
expect_no_grep out 'load erdma'

newroot erdma-absent
useconf kmod-erdma
ref_private
for d in "$R" "$REF"; do
	echo "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro module_blacklist=nouveau,erdma" >"$d/proc/cmdline"
done
hp -v check
expect_grep out 'deny-listed \(by the kernel command line module_blacklist=\)'

# libkmod's own deny-list on the command line, modprobe.blacklist= (every word of it)
newroot erdma-absent
useconf kmod-erdma
ref_private
for d in "$R" "$REF"; do
	echo "BOOT_IMAGE=/vmlinuz ro modprobe.blacklist=erdma modprobe.blacklist=nouveau" >"$d/proc/cmdline"
done
hp -v check
expect_grep out 'deny-listed \(by the kernel command line modprobe\.blacklist=\)'
hp -v apply --dry-run
expect_no_grep out 'load erdma'

# a deny-list that libkmod does not read: /usr/lib's file masked by an empty one of the
# same name in /etc (as admins undo a vendor's); an audit found it still counted
newroot erdma-absent
useconf kmod-erdma
ref_private
for d in "$R" "$REF"; do
	mkdir -p "$d/usr/lib/modprobe.d"
	echo "blacklist erdma" >"$d/usr/lib/modprobe.d/erdma-deny.conf"
	: >"$d/etc/modprobe.d/erdma-deny.conf"
done
hp -v check
expect_grep out '^FAIL +module\.state +erdma +live or builtin +not loaded$'
hp -v apply --dry-run
expect_grep out 'load erdma'
# unmasked, /usr/lib's deny-list counts
rm "$R/etc/modprobe.d/erdma-deny.conf" "$REF/etc/modprobe.d/erdma-deny.conf"
hp -v check
expect_grep out 'deny-listed \(by /usr/lib/modprobe\.d/erdma-deny\.conf:1\)'

# not installed at all
newroot erdma-absent
useconf kmod-erdma
rm "$R/lib/modules/6.1.0-27-amd64/updates/erdma.ko"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.state +erdma +live or builtin +not installed \(no file for erdma under /lib/modules/6\.1\.0-27-amd64\)$'
