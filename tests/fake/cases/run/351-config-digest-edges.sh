# The configuration digest's edges: --config names the file as given; a config that does
# not load leaves no digest (null, [] and an empty hostprep_info label, never a stale
# one); a report written before the fields existed still serves status; a mistyped one is
# damaged like any other.
. "$HERE/lib-sinks.sh"
ORACLE=$HERE/digest_oracle.py
newroot dgx8
P=$R/$PROM_DIR/hostprep.prom
RJ=$R/run/hostprep/report.json
useconf gpu-p2p
sink_dirs

# --config FILE: listed as given, digested under that name
cp "$HERE/configs/gpu-p2p.conf" "$T/site.conf"
hp --config "$T/site.conf" --json check
expect_rc 1
[ "$(jqo -c .config_files)" = "[\"$T/site.conf\"]" ] || fail "config_files with --config: $(jqo -c .config_files)"
[ "$(jqo .config_digest)" = "$("$ORACLE" "" "$T/site.conf")" ] || fail "--config digest != the oracle's"

# a run that decides the host, then a config error: no digest, not the last one
hp apply
expect_rc 0
expect_grep "$P" '^hostprep_info\{version="[^"]+",config_digest="[0-9a-f]{64}"\} 1$'
dropin sinks-bad 60-bad.conf
hp --json check
expect_rc 2
hp --json status
expect_rc 1
[ "$(jqo -c '[.config_digest, .config_files]')" = '[null,[]]' ] ||
	fail "a config error's report names a configuration: $(jqo -c '[.config_digest, .config_files]')"
expect_grep "$P" '^hostprep_info\{version="[^"]+",config_digest=""\} 1$'
expect_promtool "$P"
rm "$R/etc/hostprep/hostprep.conf.d/60-bad.conf"

# a report from before the fields: status reads it, and says null
hp apply
expect_rc 0
jq 'del(.config_digest, .config_files)' "$RJ" >"$T/old.json" && cat "$T/old.json" >"$RJ"
hp --json status
expect_rc 0
[ "$(jqo -c '[.config_digest, .config_files]')" = '[null,[]]' ] ||
	fail "an older report's missing fields read as $(jqo -c '[.config_digest, .config_files]')"
# mistyped: damaged, not ready, and the one line says so
jq '.config_files = "x"' "$T/old.json" >"$RJ"
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: the last report cannot be used'
expect_grep err "config_files' is string, expected array"
jq '.config_files = ["/etc/hostprep/hostprep.conf", 1]' "$T/old.json" >"$RJ"
hp status
expect_rc 1
expect_grep err "config_files\[1\]' is int, expected string"
jq '.config_digest = 5' "$T/old.json" >"$RJ"
hp status
expect_rc 1
expect_grep err "config_digest' is int, expected string"
true
