# A broken config: the run cannot judge the host; a .prom an earlier run left must not
# keep saying "ready", and no new file is started where none was.
. "$HERE/lib-sinks.sh"
newroot dgx8
useconf gpu-p2p
sink_dirs
hp apply
expect_rc 0
expect_grep "$R/$PROM_DIR/hostprep.prom" '^hostprep_ready 1$'
rm -f "$R/$NFD_DIR/hostprep"
dropin sinks-bad 60-bad.conf
hp check
expect_rc 2
expect_grep err '60-bad.conf:2: PrometheusDir=: invalid path'
expect_grep "$R/$PROM_DIR/hostprep.prom" '^hostprep_ready 0$'
expect_grep "$R/$PROM_DIR/hostprep.prom" 'check="config",object="configuration",verdict="fail"'
expect_promtool "$R/$PROM_DIR/hostprep.prom"
[ -e "$R/$NFD_DIR/hostprep" ] && fail "a config error started a new NFD file"
true
