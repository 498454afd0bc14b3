# On every live host /proc/net is a link to self/net, and /proc/self is never captured:
# the snapshot stored the link and left what it leads to out (net/bonding, net/route),
# so a bond's replay lost its LACP partners (an audit). The link is now taken as the
# directory it shows: the extract has proc/net as a directory holding what was read, and
# the replay gives the host's report. The fixture is laid out as a live /proc is.
. "$HERE/lib-snapshot.sh"
newroot bond-lacp-split
useconf bond-lacp
mkdir -p "$R/proc/self"
mv "$R/proc/net" "$R/proc/self/net"
ln -s self/net "$R/proc/net"
hp --json check
rc_host=$RC
cp "$T/out" "$T/host.json"
expect_grep "$T/host.json" 'partner' "fixture: the bond's report names no LACP partner"
hp snapshot -o "$T/snap.tar.zst"
expect_rc 0
snap_extract "$T/snap.tar.zst" "$T/x"
[ -d "$T/x/proc/net" ] && [ ! -L "$T/x/proc/net" ] || fail "proc/net is not a directory in the extract"
[ -f "$T/x/proc/net/bonding/bond0" ] || fail "proc/net/bonding/bond0 was not captured"
[ -e "$T/x/proc/self" ] && fail "proc/self was captured"
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ "$?" = "$rc_host" ] || fail "the replay's exit differs from the host's $rc_host"
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/rt.diff" ||
	fail "the replay's report differs: $(head -c 400 "$T/rt.diff")"
