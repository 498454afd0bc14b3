# A name that is not UTF-8 never fails a snapshot (issue 25 §6: exit 3 and no tar, before).
# An RDMA device, a modprobe.d file and a symlink's target whose names are not UTF-8 are
# stored byte for byte (pax hdrcharset=BINARY) and named, escaped, in the manifest; a
# UTF-8 name is stored as UTF-8 and not named; the tar lists and extracts; the replay
# reads the same names and gives the live report.
. "$HERE/lib-snapshot.sh"
newroot ib-gpu
printf '[Port:all]\nSelect=mlx5_*\nLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
bad=$'mlx5_\xff'
dev=$(readlink -f "$R/sys/class/infiniband/mlx5_1")
newdev=$(dirname "$dev")/$bad
mv "$dev" "$newdev"
rm "$R/sys/class/infiniband/mlx5_1"
ln -s "../../${newdev#"$R/sys/"}" "$R/sys/class/infiniband/$bad"
[ -d "$R/sys/class/infiniband/$bad/ports" ] || fail "the renamed device is not reachable from its class link"
mkdir -p "$R/etc/modprobe.d"
printf '# a site file\n' >"$R/etc/modprobe.d/"$'\xfe\xff-site.conf'
printf '# caf\xc3\xa9\n' >"$R/etc/modprobe.d/"$'caf\xc3\xa9.conf'
printf '# the target\n' >"$R/etc/"$'target-\xfd.conf'
ln -s ../$'target-\xfd.conf' "$R/etc/modprobe.d/link.conf"

hp --json check
rc_host=$RC
cp "$T/out" "$T/host.json"
grep -qF 'mlx5_\\xff/1' "$T/host.json" || fail "the live report does not name the device: the case proves nothing"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
tar --warning=no-unknown-keyword --quoting-style=literal -tf "$T/s.tar.zst" | sed 's|/$||' >"$T/members" ||
	fail "tar -tf of the snapshot failed"
for n in "sys/class/infiniband/$bad" "${newdev#"$R/"}" "${newdev#"$R/"}/ports/1/state" \
	"etc/modprobe.d/"$'\xfe\xff-site.conf' "etc/modprobe.d/"$'caf\xc3\xa9.conf' "etc/"$'target-\xfd.conf'; do
	grep -qaxF "$n" "$T/members" || fail "not in the tar: $(printf %q "$n")"
done
snap_extract "$T/s.tar.zst" "$T/x"
cmp -s "$R/etc/modprobe.d/"$'\xfe\xff-site.conf' "$T/x/etc/modprobe.d/"$'\xfe\xff-site.conf' ||
	fail "the modprobe.d file with a name that is not UTF-8 did not come back"
[ "$(readlink "$T/x/etc/modprobe.d/link.conf")" = ../$'target-\xfd.conf' ] ||
	fail "the link's target did not come back byte for byte"

man=$T/x/hostprep-snapshot.txt
grep '^not UTF-8' "$man" | LC_ALL=C sort >"$T/out"
RC=0
golden snapshot-names.txt
grep -a 'caf' "$T/out" && fail "a UTF-8 name is named as not UTF-8"

"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ "$?" = "$rc_host" ] || fail "the replay's exit differs from $rc_host"
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/rt.diff" ||
	fail "the replay's report differs: $(head -20 "$T/rt.diff")"
