# hostprep snapshot takes what hostprep reads and nothing else. The member list of one
# fixture is pinned (golden/snapshot-members.txt); planted around it: secrets (etc/shadow,
# a journal, a process's environment, a home), symlinks that would leave the root
# (absolute, and "../" above it: stored as they are, read below the root as hostprep
# reads them, so they lead to the secret that is never taken or to nothing), FIFOs where
# the walk reads (a PCI function's directory, modprobe.d). No secret is in the tar, the
# manifest names each link it did not follow, the FIFOs are stored as FIFOs, never opened
# (a replay refuses what the host refused: an audit found a FIFO drop-in a config error
# on the host and left out of the replay), and they did not block the snapshot.
. "$HERE/lib-snapshot.sh"
newroot vm-noacs
useconf vm
gpu=$(readlink -f "$R/sys/bus/pci/devices/0000:03:00.0")
mkdir -p "$R/var/log/journal/0123" "$R/proc/1" "$R/home/admin/.ssh" "$R/etc/modprobe.d"
echo 'root:SECRET-SHADOW:19000::::::' >"$R/etc/shadow"
echo SECRET-JOURNAL >"$R/var/log/journal/0123/system.journal"
printf 'TOKEN=SECRET-ENV\0' >"$R/proc/1/environ"
echo SECRET-KEY >"$R/home/admin/.ssh/id_ed25519"
echo SECRET-OUTSIDE >"$T/outside-secret"
echo 'options foo bar=1' >"$R/etc/modprobe.d/site.conf"
ln -s /etc/shadow "$R/etc/modprobe.d/abs.conf"
ln -s ../../../outside-secret "$R/etc/modprobe.d/up.conf"
ln -s ../../../../../../outside-secret "$R/sys/bus/pci/drivers/nvidia/up"
mkfifo "$R/etc/modprobe.d/fifo.conf" "$gpu/fifo_attr"

# a FIFO that blocked would hang here: the guard makes it a failure, not a hang
HP_ENV=(timeout 300)
hp snapshot -o "$T/s.tar.zst"
HP_ENV=()
expect_rc 0
tar -tf "$T/s.tar.zst" | LC_ALL=C sort >"$T/members"
cp "$T/members" "$T/out"
golden snapshot-members.txt

expect_no_grep "$T/members" '^etc/shadow|journal|environ|ssh|home/|proc/1|outside' \
	"the tar holds something it must not"
# a FIFO is stored as a FIFO, never opened: the replay refuses what the host refused
for f in etc/modprobe.d/fifo.conf "${gpu#"$R/"}/fifo_attr"; do
	tar -tvf "$T/s.tar.zst" | grep -E "^p.* $f\$" >/dev/null || fail "$f is not a FIFO in the tar"
done
grep -qx 'etc/modprobe.d/site.conf' "$T/members" || fail "modprobe.d/site.conf not captured"
for l in 'etc/modprobe.d/abs.conf -> /etc/shadow' 'etc/modprobe.d/up.conf -> ../../../outside-secret' \
	'sys/bus/pci/drivers/nvidia/up -> ../../../../../../outside-secret'; do
	tar -tvf "$T/s.tar.zst" | grep -qF " $l" || fail "the link is not stored as it is: $l"
done
snap_extract "$T/s.tar.zst" "$T/x"
if grep -rqa SECRET "$T/x"; then
	fail "a secret is in the tar: $(grep -rla SECRET "$T/x" | head -3)"
fi
man=$T/x/hostprep-snapshot.txt
for l in 'skipped etc/shadow: never captured (the target of a symlink)' \
	'skipped etc/modprobe.d/up.conf: a symlink to nothing (or to what is never captured)'; do
	grep -qxF "$l" "$man" || fail "manifest lacks '$l'"
done
# the manifest says where and when, and nothing of the environment
for k in 'hostprep snapshot' 'version ' 'time ' "root $R" 'captured '; do
	grep -q "^$k" "$man" || fail "manifest lacks '$k'"
done
