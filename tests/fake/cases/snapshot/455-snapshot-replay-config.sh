# The manifest's replay line reproduces the run (issue 25 §6): a snapshot of a run with two
# --config files stores them as config/N-NAME (NAME kept to what a shell takes unquoted)
# and names them, in the run's order, on the line "replay: tar -xf THIS -C DIR; hostprep
# --root DIR --config DIR/config/0-... check". That line, run as it is written, gives the
# live run's results byte for byte and its exit status. The root's own hostprep.conf,
# which a --config run does not read, is not in the tar.
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p
cp "$HERE/configs/p2p-gpu-nic.conf" "$T/base.conf"
printf '[IOMMU]\nExpect=translated\n' >"$T/my site;x.conf"

hp --config "$T/base.conf" --config "$T/my site;x.conf" --json check
rc_host=$RC
cp "$T/out" "$T/host.json"
[ "$(jq -r '[.results[] | select(.check=="iommu.mode")][0].expected' "$T/host.json")" = translated ] ||
	fail "the second --config file is not in effect: the case proves nothing"
hp --config "$T/base.conf" --config "$T/my site;x.conf" snapshot -o "$T/s.tar.zst"
expect_rc 0
tar -xOf "$T/s.tar.zst" hostprep-snapshot.txt | grep '^replay: ' >"$T/out"
RC=0
golden snapshot-replay-config.txt
tar -tf "$T/s.tar.zst" | grep -qx 'etc/hostprep/hostprep.conf' &&
	fail "the root's hostprep.conf, not read by a --config run, is in the tar"

# the line as written: THIS and DIR are the only words to fill in
line=$(sed -n 's/^replay: //p' "$T/out")
line=${line//THIS/$T/s.tar.zst}
line=${line//DIR/$T/x}
line=${line/hostprep /\"\$BIN\" --no-color --json }
mkdir -p "$T/x"
(eval "$line") </dev/null >"$T/replay.json" 2>"$T/replay.err"
rc=$?
[ "$rc" = "$rc_host" ] || fail "the replay line exits $rc ($(head -3 "$T/replay.err")), the run $rc_host"
diff <(jq -S .results "$T/host.json") <(jq -S .results "$T/replay.json") >"$T/rt.diff" ||
	fail "the replay line's results differ: $(head -20 "$T/rt.diff")"
