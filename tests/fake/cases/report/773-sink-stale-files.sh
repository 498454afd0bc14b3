# No file of an older verdict stays where nothing replaces it (an audit found three):
# a run that cannot take the run lock removes the metrics and rdma.env with report.json
# and leaves an NFD file that says not ready (removed, the label went and NFD's taint
# with it); a sink switched off removes its file, one moved from its default path
# the file there (nfd-worker would read both); and names that differ only in bytes that
# are not UTF-8 stay two series in the metrics, labelled as the report's JSON names them.
. "$HERE/lib-sinks.sh"
newroot ib-gpu
sink_dirs
PROM=$R/$PROM_DIR/hostprep.prom NFD=$R/$NFD_DIR/hostprep ENV=$R/run/hostprep/rdma.env
PORT=$R/sys/class/infiniband/mlx5_0/ports/1
printf '[Port:rails]\nSelect=mlx5_0\nLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep "$PROM" '^hostprep_ready 1$'
expect_grep "$NFD" '^feature\.node\.kubernetes\.io/hostprep\.ready=true$'
expect_grep "$ENV" 'mlx5_0:1'
# the port goes down, and the lock cannot be taken (a directory in its place)
chmod u+w "$PORT/state" "$PORT/phys_state"
echo "1: DOWN" >"$PORT/state"
echo "2: Polling" >"$PORT/phys_state"
rm -f "$R/run/hostprep/lock"
mkdir "$R/run/hostprep/lock"
hp check
expect_rc 1
expect_grep err 'Failed to take the run lock, removing the last report and the files of its verdict'
for f in "$PROM" "$ENV" "$R/run/hostprep/report.json"; do
	[ ! -e "$f" ] || fail "${f#"$R"/} stays after a run that could not take the lock: $(grep -m1 -i 'ready' "$f")"
done
# the NFD file says not ready and nothing else: a file removed would drop the label,
# and the taint rule (hostprep.ready In [false]) would lift its taint
[ "$(cat "$NFD")" = "feature.node.kubernetes.io/hostprep.ready=false" ] ||
	fail "NFD after a run that could not take the lock: $(cat "$NFD" 2>&1)"
rmdir "$R/run/hostprep/lock"
echo "4: ACTIVE" >"$PORT/state"
echo "5: LinkUp" >"$PORT/phys_state"
hp check
expect_rc 0
expect_grep "$PROM" '^hostprep_ready 1$'
# switched off: its file goes; moved: the default file goes, the new one is written
printf '[Sinks]\nPrometheus=no\nNFDFile=/%s/hostprep-gpu\n' "$NFD_DIR" >>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
[ ! -e "$PROM" ] || fail "Prometheus=no left hostprep.prom"
[ ! -e "$NFD" ] || fail "NFDFile= moved, the default file stays"
expect_grep "$R/$NFD_DIR/hostprep-gpu" '^feature\.node\.kubernetes\.io/hostprep\.ready=true$'
[ "$(find "$R/$PROM_DIR" "$R/$NFD_DIR" -mindepth 1 | wc -l)" = 1 ] ||
	fail "files left: $(find "$R/$PROM_DIR" "$R/$NFD_DIR" -mindepth 1)"
# two devices whose names differ in a byte that is not UTF-8
printf '[Port:rails]\nSelect=*\nLinkLayer=InfiniBand\n' >"$R/etc/hostprep/hostprep.conf"
C=$R/sys/class/infiniband
for pair in "mlx5_0 nic"$'\xfe' "mlx5_2 nic"$'\xff'; do
	old=${pair%% *} new=${pair#* }
	t=$(readlink "$C/$old")
	mv "$C/$(dirname "$t")/$old" "$C/$(dirname "$t")/$new"
	rm "$C/$old"
	ln -s "$(dirname "$t")/$new" "$C/$new"
done
hp --json check
expect_rc 1
expect_promtool "$PROM"
dups=$(grep -a '^hostprep' "$PROM" | sed 's/ [0-9.]*$//' | sort | uniq -d)
[ -z "$dups" ] || fail "duplicate series: $dups"
for o in 'nic\\xfe/1' 'nic\\xff/1'; do
	[ "$(jqo --arg o "${o//\\\\/\\}" '[.results[] | select(.object == $o)] | length')" = 1 ] ||
		fail "report: no result for ${o//\\\\/\\}"
	grep -aq "^hostprep_check{check=\"rdma.port\",object=\"${o//\\\\/\\\\\\\\}\",verdict=\"pass\"} 1$" "$PROM" ||
		fail "metrics: no series labelled as the report names ${o//\\\\/\\}: $(grep -a 'object="nic' "$PROM")"
done
