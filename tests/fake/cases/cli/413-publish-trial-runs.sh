# Issue 25 item 4: whether a run publishes is decided once, in the command layer, for
# every artifact. Before the fix a root `--config try.conf check` left report.json alone
# but rewrote rdma.env (what jobs source), and a trial `apply` with Apply=no wrote
# gpus.json: the modules decided for themselves. Now a trial run (--config without
# --publish, writing nothing), a dry run and an unprivileged run publish nothing at all,
# and a publishing run publishes every artifact, those of the modules included.
. "$HERE/lib-sinks.sh"
newroot ib-gpu
useconf publish-all
sink_dirs
H=$R/run/hostprep
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
hp apply
expect_rc 0
for f in report.json rdma.env gpus.json; do [ -f "$H/$f" ] || fail "apply did not write $f"; done
snap() { cat "$H/report.json" "$H/rdma.env" "$H/gpus.json" "$P" "$N" | sha256sum; }
before=$(snap)

# a tried config whose rules select other ports (and no ACS): another rdma.env if published
printf '[IOMMU]\nExpect=any\n[Port:one]\nSelect=mlx5_0\nLinkLayer=InfiniBand\n' >"$T/try.conf"
hp --config "$T/try.conf" check
expect_rc 0
[ "$(snap)" = "$before" ] || fail "check --config replaced a published file"
# audit-only apply of the tried config (Apply=no): the boot run's mode, but a trial
hp --config "$T/try.conf" apply
expect_rc 0
[ "$(snap)" = "$before" ] || fail "apply --config (Apply=no) replaced a published file (gpus.json?)"
hp --config "$T/try.conf" --json apply
[ "$(snap)" = "$before" ] || fail "apply --config --json (Apply=no) replaced a published file"
# dry runs, of the installed config and of the tried one
hp apply --dry-run
expect_rc 0
hp --config "$T/try.conf" apply --dry-run
[ "$(snap)" = "$before" ] || fail "apply --dry-run replaced a published file"
# a tried config that does not load
printf '[Bogus]\n' >"$T/bad.conf"
hp --config "$T/bad.conf" check
expect_rc 2
[ "$(snap)" = "$before" ] || fail "a failing check --config replaced a published file"
# unprivileged: reads, prints, publishes nothing
HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
hp check
HP_ENV=()
[ "$(snap)" = "$before" ] || fail "an unprivileged check replaced a published file"

# --publish: the tried config's verdict to every artifact, the modules' files included
hp --config "$T/try.conf" --publish check
expect_rc 0
expect_grep "$H/rdma.env" '^NCCL_IB_HCA==mlx5_0:1$' "check --config --publish did not publish rdma.env"
[ "$(jq -r '.config_files[0]' "$H/report.json")" = "$T/try.conf" ] || fail "check --publish did not publish the report"
[ -f "$H/gpus.json" ] || fail "check --publish removed gpus.json"
# the installed config publishes again; a config without [Port:*] rules leaves no rdma.env
# that nobody checks (an earlier config's ports)
hp check
expect_rc 0
expect_grep "$H/rdma.env" '^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1'
printf '[IOMMU]\nExpect=any\n' >"$T/noports.conf"
hp --config "$T/noports.conf" --publish check
expect_rc 0
[ ! -e "$H/rdma.env" ] || fail "a publishing run without [Port:*] rules left the last rdma.env"
