# [Sinks] defaults: where node_exporter's textfile dir and NFD's features.d exist, a run
# (as root) writes hostprep.prom and the NFD file: valid for promtool and NFD's rules,
# 0644, no temp files left, and the same verdict as the report.
. "$HERE/lib-sinks.sh"
newroot dgx8
useconf gpu-p2p
sink_dirs
hp check
expect_rc 1
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
[ -f "$P" ] || fail "no $PROM_DIR/hostprep.prom"
[ -f "$N" ] || fail "no $NFD_DIR/hostprep"
expect_promtool "$P"
expect_nfd_rules "$N"
sink_golden "$P" sink-dgx8-check.prom
sink_golden "$N" sink-dgx8-check.nfd
[ "$(stat -c %a "$P") $(stat -c %a "$N")" = "644 644" ] || fail "modes are not 0644"
expect_no_temp "$R/$PROM_DIR"
expect_no_temp "$R/$NFD_DIR"
expect_grep "$P" '^hostprep_ready 0$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=false$'
expect_grep "$P" '^hostprep_last_run_timestamp_seconds 1700000000$'
expect_grep "$P" '^hostprep_last_run_duration_seconds [0-9]+\.[0-9]{6}$'
expect_no_grep "$P" '^hostprep_[a-z_]+(\{.*\})? [0-9.]+ [0-9]+$' "a sample carries a timestamp"
# one series per (check, object, verdict), as many as results with those labels
hp --json status
n=$(jqo '[.results[] | [.check, .object, .verdict]] | unique | length')
[ "$(grep -c '^hostprep_check{' "$P")" = "$n" ] || fail "hostprep_check series != $n"
[ "$(grep '^hostprep_check{' "$P" | awk '{s += $2} END {print s}')" = "$(jqo '.results | length')" ] ||
	fail "hostprep_check values do not add up to the number of results"

# apply makes it ready: both files follow
hp apply
expect_rc 0
expect_grep "$P" '^hostprep_ready 1$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=true$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.acs=warn$' # acs.cmdline still warns
expect_promtool "$P"
expect_no_temp "$R/$PROM_DIR"

# a dry run writes nothing
rm -f "$P" "$N"
hp apply --dry-run
[ -e "$P" ] || [ -e "$N" ] && fail "apply --dry-run wrote a sink file"
true
