# hostprep snapshot keeps /dev/infiniband's nodes as character nodes (major:minor, mode),
# and only those of /dev: extracted by root they replay workload.devices, a wrong node
# included (142 is the check itself). mknod needs root.
need_root "mknod of the /dev/infiniband nodes"
. "$HERE/lib-snapshot.sh"
newroot workload-ib
printf '[Workload]\nDeviceNodes=yes\n' >"$R/etc/hostprep/hostprep.conf"
mkdir -p "$R/dev/infiniband" "$R/dev/shm"
for d in "$R"/sys/class/infiniband_verbs/uverbs* "$R"/sys/class/misc/rdma_cm; do
	[ -e "$d/dev" ] || continue
	mknod -m 0666 "$R/dev/infiniband/$(basename "$d")" c "$(cut -d: -f1 "$d/dev")" "$(cut -d: -f2 "$d/dev")"
done
chmod 0660 "$R/dev/infiniband/uverbs1"
mknod "$R/dev/null" c 1 3
echo SECRET-SHM >"$R/dev/shm/x"
roundtrip_here() {
	hp --json check
	cp "$T/out" "$T/host.json"
	hp snapshot -o "$T/s.tar.zst"
	expect_rc 0
	snap_extract "$T/s.tar.zst" "$T/x"
	"$BIN" --root "$T/x" --no-color --json check >"$T/replay.json" 2>/dev/null
	diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/d" ||
		fail "replay differs: $(head -20 "$T/d")"
}
roundtrip_here
[ "$(jq -r '[.results[] | select(.check=="workload.devices")] | length' "$T/host.json")" -ge 3 ] ||
	fail "the fixture has too few device results to prove anything"
jq -r '.results[] | select(.object=="/dev/infiniband/uverbs1") | .verdict' "$T/replay.json" | grep -qx fail ||
	fail "uverbs1 (mode 0660) does not fail in the replay"
tar -tvf "$T/s.tar.zst" | grep -E '^c.* dev/infiniband/uverbs0$' | grep -q '231,192' ||
	fail "uverbs0 is not a character node 231:192 in the tar: $(tar -tvf "$T/s.tar.zst" | grep uverbs0)"
tar -tf "$T/s.tar.zst" | grep -E '^dev/' | grep -Ev '^dev/(infiniband/.*)?$' &&
	fail "the tar holds more of /dev than /dev/infiniband"
# a node's owner is judged (a MAD node another user owns warns): it keeps its uid/gid,
# numeric, where every other member is root's
for d in "$R"/sys/class/infiniband_mad/umad*; do
	[ -e "$d/dev" ] || continue
	mknod -m 0600 "$R/dev/infiniband/$(basename "$d")" c "$(cut -d: -f1 "$d/dev")" "$(cut -d: -f2 "$d/dev")"
done
[ -e "$R/dev/infiniband/umad0" ] || fail "the fixture has no umad0 to own"
chown 1000:1000 "$R/dev/infiniband/umad0"
roundtrip_here
jq -r '.results[] | select(.object=="/dev/infiniband/umad0") | .verdict' "$T/replay.json" | grep -qx warn ||
	fail "umad0 owned by uid 1000 does not warn in the replay"
tar --numeric-owner -tvf "$T/s.tar.zst" | grep -E ' dev/infiniband/umad0$' | grep -q ' 1000/1000 ' ||
	fail "umad0's owner not kept: $(tar --numeric-owner -tvf "$T/s.tar.zst" | grep umad0)"
true
