# Persist=yes passes when what libkmod will pass at the next load already holds the wanted
# value, whichever modprobe.d file (or the kernel command line) says it, and names that
# file:line (issue 25 §4). Such a value needs no line in hostprep.conf: apply writes
# nothing (and the plan says so); a line hostprep wrote before is taken out again; a stale
# hostprep.conf line that wins with another value fails, naming it. The package's file may be
# a symlink (Debian's alternatives), a bare bool key is Y, a directory named *.conf masks
# nothing, a dangling link masks and gives nothing, a file that cannot be read is unknown.
P=etc/modprobe.d/hostprep.conf
erdma() { # Apply=yes|no: the config, in the tree and in what it is compared with
	ref_private
	printf '[Host]\nApply=%s\n[Module:erdma]\nParameter=compat_mode=Y\nPersist=yes\n' "$1" |
		tee "$REF/etc/hostprep/hostprep.conf" >"$R/etc/hostprep/hostprep.conf"
}

# the eRDMA package's /etc/modprobe.d/erdma.conf sets compat_mode=Y: nothing to write
newroot erdma-nccl
erdma yes
hp -v apply --dry-run
expect_rc 0
expect_grep out '^  persist erdma: nothing to write: the next load gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'
hp --json apply --dry-run
[ "$(jqo -c '.modules')" = '[{"module":"erdma","action":"persist","options":"compat_mode=Y","set_by":"compat_mode=Y from /etc/modprobe.d/erdma.conf:3"}]' ] ||
	fail "dry-run document: $(jqo -c .modules)"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +no options line needed: the next load gets the values +absent, no line needed; erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist .* nothing written \(no line needed\); erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'
expect_tree_same # not even the originals record

# the package's file says N: hostprep.conf (after erdma.conf) gets the line and wins
sed -i 's/compat_mode=Y/compat_mode=N/' "$R/etc/modprobe.d/erdma.conf"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +absent; lacks "options erdma compat_mode=Y"$'
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist .* written, read back$'
grep -qx 'options erdma compat_mode=Y' "$R/$P" || fail "hostprep.conf lacks the line"
# ... and back to Y: the line is needless, apply takes it out (hostprep owns the file)
sed -i 's/compat_mode=N/compat_mode=Y/' "$R/etc/modprobe.d/erdma.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist .* present, no line needed; erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.persist .* written, read back; erdma gets compat_mode=Y'
grep -q '^options' "$R/$P" && fail "a needless line stays in hostprep.conf: $(grep '^options' "$R/$P")"
hp revert
expect_rc 0
[ -e "$R/$P" ] && fail "revert left hostprep.conf"

# a stale line of hostprep.conf (an older Parameter=) wins over the package's file: fail,
# naming it, until apply rewrites it; Apply=no makes it a warning
newroot erdma-nccl
printf '[Host]\nApply=yes\n[Module:erdma]\nParameter=compat_mode=N\nPersist=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp apply
grep -qx 'options erdma compat_mode=N' "$R/$P" || fail "setup: no N line"
erdma yes
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.persist .* present, no line needed; /etc/modprobe\.d/hostprep\.conf:2: options erdma compat_mode=N wins with another value \(hostprep apply rewrites it\)$'
expect_grep out 'hostprep apply \(with \[Host\] Apply=yes it writes'
erdma no
hp -v check
expect_rc 0
expect_grep out '^WARN +module\.persist .* wins with another value'
erdma yes
hp -v apply
expect_rc 0
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist .* present, no line needed; erdma gets compat_mode=Y from /etc/modprobe\.d/erdma\.conf:3$'

# the package file as Debian's alternatives link it (relative here), a bare bool key
newroot erdma-nccl
erdma yes
mkdir -p "$R/usr/share/erdma"
printf 'options erdma compat_mode\n' >"$R/usr/share/erdma/erdma.conf"
rm "$R/etc/modprobe.d/erdma.conf"
ln -s ../../usr/share/erdma/erdma.conf "$R/etc/modprobe.d/erdma.conf"
hp -v check
expect_rc 0
expect_grep out 'absent, no line needed; erdma gets compat_mode from /etc/modprobe\.d/erdma\.conf:1$'
# a directory named erdma.conf in /etc masks nothing: /usr/lib's file still counts
rm "$R/etc/modprobe.d/erdma.conf"
mkdir -p "$R/etc/modprobe.d/erdma.conf" "$R/usr/lib/modprobe.d"
printf 'options erdma compat_mode=y\n' >"$R/usr/lib/modprobe.d/erdma.conf"
hp -v check
expect_rc 0
expect_grep out 'erdma gets compat_mode=y from /usr/lib/modprobe\.d/erdma\.conf:1$'
# a dangling link masks the name (libkmod reads nothing there)
rmdir "$R/etc/modprobe.d/erdma.conf"
ln -s ../../nowhere/erdma.conf "$R/etc/modprobe.d/erdma.conf"
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.persist .* absent; lacks "options erdma compat_mode=Y"$'
# a file that cannot be read (a link loop): unknown, never a pass
rm "$R/etc/modprobe.d/erdma.conf"
ln -s loop.conf "$R/etc/modprobe.d/loop.conf"
hp apply
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +module\.persist .* has every options line; cannot read /etc/modprobe\.d/loop\.conf: Too many levels of symbolic links: what libkmod passes to erdma is unknown$'

# the kernel command line gives the value (this boot): no line needed either
newroot erdma-std
erdma yes
printf 'BOOT_IMAGE=/vmlinuz root=/dev/vda1 erdma.compat_mode=Y quiet\n' >"$R/proc/cmdline"
hp -v check
expect_rc 1 # erdma runs in standard mode: module.param
expect_grep out '^WARN +module\.persist .* absent, no line needed; erdma gets compat_mode=Y from the kernel command line; erdma was loaded with compat_mode=N although the next load gets compat_mode=Y from the kernel command line: it was loaded before the root file system \(the initramfs copy\) or by hand$'
# in use: the reload remedy does not ask to put the option into modprobe.d
newroot erdma-inuse
erdma yes
printf 'Reload=unused\n' >>"$R/etc/hostprep/hostprep.conf"
printf 'options erdma compat_mode=Y\n' >"$R/etc/modprobe.d/zz-erdma.conf"
hp -v apply
expect_rc 1
expect_grep out '^  → stop what uses erdma .*, then hostprep apply; or reboot: the next load gets compat_mode=Y from /etc/modprobe\.d/zz-erdma\.conf:1$'
expect_no_grep out 'in /etc/modprobe\.d and reboot'
