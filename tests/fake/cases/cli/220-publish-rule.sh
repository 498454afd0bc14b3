# Issue 18: only the runs that decide the host's state publish it. A root
# `check --config X` (an admin trying a config) leaves the report, the metrics and
# the NFD file byte for byte; `check` and `apply` of the installed configuration
# replace them; `--publish` does on purpose; a --config run that writes the host
# (apply with Apply=yes) publishes, since the old report no longer describes it.
. "$HERE/lib-sinks.sh"
newroot dgx8
useconf gpu-p2p
sink_dirs
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
F=$R/run/hostprep/report.json
hp apply
expect_rc 0
snap() { cat "$F" "$P" "$N" | sha256sum; }
before=$(snap)

# an admin tries a config that fails (IOMMU passthrough expected, DMA found)
printf '[IOMMU]\nExpect=passthrough\n' >"$T/try.conf"
hp --config "$T/try.conf" check
expect_rc 1
expect_grep out 'FAIL +iommu.mode' "check --config did not evaluate the tried config"
[ "$(snap)" = "$before" ] || fail "check --config replaced the published report/metrics/NFD file"
hp status
expect_rc 0
# the same in JSON, an audit-only apply of it, and a tried config that does not load
hp --config "$T/try.conf" --json check
expect_rc 1
hp --config "$T/try.conf" apply
expect_rc 1
printf '[Bogus]\n' >"$T/bad.conf"
hp --config "$T/bad.conf" check
expect_rc 2
[ "$(snap)" = "$before" ] || fail "a --config run that writes nothing replaced the published files"
hp status
expect_rc 0

# --publish: the admin publishes the tried config's verdict on purpose
hp --config "$T/try.conf" --publish check
expect_rc 1
[ "$(snap)" != "$before" ] || fail "check --config --publish did not publish"
hp status
expect_rc 1
expect_grep "$P" '^hostprep_ready 0$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=false$'

# the installed config publishes again (check as well as apply)
hp check
expect_rc 0
[ "$(snap)" = "$before" ] || note "check of the installed config: files replaced (time and duration differ)"
hp status
expect_rc 0
expect_grep "$P" '^hostprep_ready 1$'

# a --config run that writes the host publishes: the last report must describe it
printf '[Host]\nApply=yes\n[IOMMU]\nExpect=passthrough\n[ACS:gpu-p2p]\nSelect=upstream:10de:*\n' >"$T/write.conf"
hp --config "$T/write.conf" apply
expect_rc 1
hp status
expect_rc 1
expect_grep out 'FAIL +iommu.mode' "apply --config with Apply=yes did not publish its report"

# usage: --publish only with check and apply, not with --dry-run
hp --publish status
expect_rc 2
expect_grep err '--publish is an option of apply, check, not of status'
hp --config "$T/try.conf" --publish apply --dry-run
expect_rc 2
expect_grep err '--publish is not with --dry-run'
