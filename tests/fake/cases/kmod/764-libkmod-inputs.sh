# libkmod opens its index, modules.softdep, the modprobe.d files and the module files by
# path itself, with a blocking open(2) that follows every link. Each such file that is a
# FIFO, or a link out of --root, is refused before libkmod can wait on it or read this
# machine's file: the run ends promptly, the module index is not used (module.stale is
# unknown and says why) and the file is named. The links out point at a FIFO outside the
# root: a binary that followed one would hang, and the timeout would show it. A link that
# stays inside the root is libkmod's to follow, as before.
HP_ENV=(timeout -k 2 10)
hung() { [ "$RC" = 124 ] || [ "$RC" = 137 ]; }
outside=$T/outside.fifo
rm -f "$outside"
mkfifo "$outside"
stale='^PASS +module\.stale +mlx5_core +the running module is the file on disk +same srcversion'

# refused CASE PATH WHY: the run on the current tree ended, with PATH named for WHY
refused() {
	hp -v check
	hung && fail "$1: check hung"
	expect_rc 1
	expect_grep err "^hostprep: $2: $3; libkmod opens it itself" "$1: the file is not named"
	expect_grep out '^UNKNOWN +module\.stale +mlx5_core .*no module index to compare with: a file libkmod opens' \
		"$1: module.stale does not say why"
	expect_no_grep err 'Failed to open the module index' "$1: a second, vaguer warning"
}

newroot ofed-gpu
useconf kmod-ofed
ver=$(cat "$R/proc/sys/kernel/osrelease")
mods=lib/modules/$ver
hp -v check
expect_rc 0
expect_grep out "$stale"

# 1. the index is a FIFO
rm "$R/$mods/modules.dep.bin"
mkfifo "$R/$mods/modules.dep.bin"
refused "FIFO index" "/$mods/modules.dep.bin" 'not a regular file \(a FIFO would block the run\)'

# 2. a modprobe.d file is a FIFO
newroot ofed-gpu
useconf kmod-ofed
mkdir -p "$R/etc/modprobe.d"
mkfifo "$R/etc/modprobe.d/x.conf"
refused "FIFO modprobe.d file" /etc/modprobe.d/x.conf 'not a regular file \(a FIFO would block the run\)'

# 3. modules.softdep links out of the root (to a FIFO there)
newroot ofed-gpu
useconf kmod-ofed
ln -sf "$outside" "$R/$mods/modules.softdep"
refused "softdep link out" "/$mods/modules.softdep" 'a link that leaves --root'

# 4. a modprobe.d file links out (absolute), one in /usr/lib/modprobe.d climbs out (relative)
newroot ofed-gpu
useconf kmod-ofed
mkdir -p "$R/etc/modprobe.d" "$R/usr/lib/modprobe.d"
ln -s "$outside" "$R/etc/modprobe.d/evil.conf"
refused "modprobe.d link out" /etc/modprobe.d/evil.conf 'a link that leaves --root'
rm "$R/etc/modprobe.d/evil.conf"
ln -s ../../../../outside.fifo "$R/usr/lib/modprobe.d/up.conf"
refused "modprobe.d link climbing out" /usr/lib/modprobe.d/up.conf 'a link that leaves --root'

# 5. links that stay inside the root, and files libkmod does not open, change nothing
newroot ofed-gpu
useconf kmod-ofed
mkdir -p "$R/etc/modprobe.d" "$R/usr/share/site"
echo '# nothing' >"$R/usr/share/site/site.conf"
ln -s ../../usr/share/site/site.conf "$R/etc/modprobe.d/50-site.conf"
mkfifo "$R/etc/modprobe.d/notes.txt" "$R/etc/modprobe.d/.hidden.conf"
hp -v check
hung && fail "links inside: check hung"
expect_rc 0
expect_grep out "$stale"
expect_no_grep err 'libkmod opens it itself' "a link inside the root or an ignored name was refused"

# 6. a module file is a FIFO: not read, the rest of the index still is
newroot ofed-gpu
useconf kmod-ofed
ko=$mods/updates/dkms/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko
[ -f "$R/$ko" ] || fail "fixture: no $ko"
rm -f "$R/$ko"
mkfifo "$R/$ko"
hp -v check
hung && fail "FIFO module file: check hung"
expect_grep err "^hostprep: /$ko: not a regular file, not read\.$" "the FIFO module file is not named"
expect_grep out '^PASS +module\.stale +mlx5_ib +the running module is the file on disk'
rm -f "$outside"
