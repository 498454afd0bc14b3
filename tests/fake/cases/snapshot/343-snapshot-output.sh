# hostprep snapshot's output: -o FILE (zstd, mode 0600, written whole or not at all),
# -o - (the same tar on stdout), no -o (hostprep-snapshot-HOST.tar.zst here), -o with
# another command (usage), --config files kept as config/N-NAME and replayed from there.
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p

# -o FILE: a zstd tar (magic 28 b5 2f fd), private, no temp left beside it
hp snapshot -o "$T/a.tar.zst"
expect_rc 0
[ "$(od -An -tx1 -N4 "$T/a.tar.zst" | tr -d ' ')" = 28b52ffd ] || fail "-o FILE is not zstd"
[ "$(stat -c %a "$T/a.tar.zst")" = 600 ] || fail "-o FILE mode $(stat -c %a "$T/a.tar.zst"), want 600"
expect_grep err 'Wrote .*a\.tar\.zst: [0-9]+ files, [0-9]+ symlinks, [0-9]+ skipped'
ls "$T" | grep -q 'tmp-' && fail "a temp file is left: $(ls "$T" | grep tmp-)"

# -o -: the same members on stdout, nothing else there
hp snapshot -o -
expect_rc 0
[ "$(od -An -tx1 -N4 "$T/out" | tr -d ' ')" = 28b52ffd ] || fail "-o - is not a zstd tar"
diff <(tar -tf "$T/a.tar.zst" | sort) <(tar -tf "$T/out" | sort) >"$T/members.diff" ||
	fail "-o - and -o FILE differ: $(head -5 "$T/members.diff")"

# no -o: named after the host, in the current directory
rm -f "$T"/hostprep-snapshot-*
hp snapshot
expect_rc 0
[ -s "$T/hostprep-snapshot-$(cat "$R/proc/sys/kernel/hostname").tar.zst" ] ||
	fail "no hostprep-snapshot-HOST.tar.zst in the current directory: $(ls "$T")"

# -o into a directory that does not exist: exit 3, nothing written
hp snapshot -o "$T/nodir/s.tar.zst"
expect_rc 3
[ -e "$T/nodir" ] && fail "-o into a missing directory created something"

# -o goes with snapshot only
hp check -o "$T/c.tar.zst"
expect_rc 2
expect_grep err '-o is an option of snapshot, not of check'
[ -e "$T/c.tar.zst" ] && fail "check -o wrote a file"

# --config: the file is in the tar as config/0-NAME and replays the same report
rm -f "$R/etc/hostprep/hostprep.conf"
cp "$HERE/configs/p2p-gpu-nic.conf" "$T/site.conf"
hp --config "$T/site.conf" --json check
cp "$T/out" "$T/host.json"
rc_host=$RC
hp --config "$T/site.conf" snapshot -o "$T/c.tar.zst"
expect_rc 0
snap_extract "$T/c.tar.zst" "$T/x"
cmp -s "$T/site.conf" "$T/x/config/0-site.conf" || fail "config/0-site.conf is not the --config file"
"$BIN" --root "$T/x" --config "$T/x/config/0-site.conf" --no-color --json check >"$T/replay.json" 2>/dev/null
[ "$?" = "$rc_host" ] || fail "--config replay exit differs from $rc_host"
# the config's name is where it ran (a --config file outside the root): config_files
# names the extract's copy, and the digest covers the name; the rest is the same
nocfg() { snap_norm "$1" "$2" | jq 'del(.config_digest, .config_files)'; }
diff <(nocfg "$T/host.json" "$R") <(nocfg "$T/replay.json" "$T/x") >/dev/null ||
	fail "--config replay's report differs"
[ "$(jq -c .config_files "$T/replay.json")" = "[\"$T/x/config/0-site.conf\"]" ] ||
	fail "--config replay's config_files: $(jq -c .config_files "$T/replay.json")"
