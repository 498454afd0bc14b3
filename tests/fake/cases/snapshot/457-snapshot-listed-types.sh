# A snapshot takes a directory's entry types from its listing (getdents64's d_type): a
# regular file of sysfs or procfs is opened at once, its fstat() standing in for an
# lstat() by name, and a directory is listed on the fd it opened, without fdopendir()'s
# fstat and fcntls; a file whose size the filesystem gives (a --root tree's) is one read.
# Anything else at a listed name goes the lstat() way: a FIFO and a device node in a PCI
# function's directory, a write-only trigger (counted, never read), a symlink. Oracles:
# strace, the archive and its manifest (GNU tar).
need_tool strace
. "$HERE/lib-snapshot.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot dgx8
gpu=$(readlink -f "$R/sys/bus/pci/devices/0000:18:00.0")
rel=${gpu#"$R/"}
mkfifo "$gpu/fifo_attr"
echo MUST-NOT-READ >"$gpu/trigger"
chmod 0200 "$gpu/trigger"
HP_ENV=(timeout 300)
HP_ENV+=(strace -f -qq -y -o "$T/strace")
hp snapshot -o "$T/s.tar.zst"
HP_ENV=()
expect_rc 0
lookups() { grep -c "newfstatat([0-9]*<[^>]*>, \"$1\"" "$T/strace"; }
[ "$(lookups current_link_speed)" = 0 ] ||
	fail "a sysfs attribute was looked up by name: $(grep -m2 '"current_link_speed"' "$T/strace")"
# (the check pass before the walk lists sys/class/iommu and iommu_groups with opendir())
[ "$(grep -c "F_GETFL.*sys/devices\|sys/devices.*F_GETFL" "$T/strace")" = 0 ] ||
	fail "a device directory listed through fdopendir(): $(grep -m1 'sys/devices.*F_GETFL' "$T/strace")"
[ "$(grep -c "getdents64([0-9]*<$gpu>" "$T/strace")" -ge 1 ] || fail "the GPU's directory not listed"
reads=$(grep -c "^[0-9]* *read([0-9]*<$gpu/current_link_speed>" "$T/strace")
[ "$reads" = 1 ] || fail "current_link_speed read $reads times (its size is known)"
# the rest as before: looked up by name, a FIFO and a trigger never read
[ "$(lookups fifo_attr)" -ge 1 ] || fail "the FIFO was not looked up by name"
expect_no_grep "$T/strace" "read\\([0-9]*<$gpu/fifo_attr>" "the FIFO was read"
expect_no_grep "$T/strace" "read\\([0-9]*<$gpu/trigger>" "the write-only trigger was read"
snap_extract "$T/s.tar.zst" "$T/x"
[ "$(cat "$T/x/$rel/current_link_speed")" = "$(cat "$gpu/current_link_speed")" ] ||
	fail "current_link_speed in the tar: $(cat "$T/x/$rel/current_link_speed")"
[ -p "$T/x/$rel/fifo_attr" ] || fail "the FIFO is not a FIFO in the tar (stored as what it is, never read)"
[ -e "$T/x/$rel/trigger" ] && fail "the trigger is in the tar"
grep -q '^left out 1 write-only files' "$T/x/hostprep-snapshot.txt" ||
	fail "the trigger not counted: $(grep '^left out' "$T/x/hostprep-snapshot.txt")"
true
