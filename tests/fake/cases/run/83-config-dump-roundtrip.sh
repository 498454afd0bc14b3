# issue 6 item 15 (config part): `hostprep config` output is valid input. Feed the
# dump back through `config --validate` (as a drop-in over the same config) and
# through `--config`: the merged result is the same (comments aside).
values() { grep -v '^#' "$1"; }
newroot dgx8
useconf gpu-p2p
dropin dropin-nic 50-dropin-nic.conf
for d in "$R" "$REF"; do
	printf '[ACS:gpu-p2p]\nExclude=0000:3a:00.0\n[IOMMU]\nExpect=translated\n[ACS:off]\nEnabled=no\n' \
		>"$d/etc/hostprep/hostprep.conf.d/60-more.conf"
done
hp config
expect_rc 0
cp "$T/out" "$T/dump.conf"
# every non-comment, non-blank, non-header line is Key=value, and no '#' after a value
grep -vE '^(#.*|\[.*\]|[A-Za-z]+=[^#]*|)$' "$T/dump.conf" >"$T/odd" && fail "dump lines that are not input: $(cat "$T/odd")"
expect_grep dump.conf '^# /etc/hostprep/hostprep\.conf\.d/50-dropin-nic\.conf:3$' "origin comment not on its own line"
# 1. --config DUMP gives the same merged config
hp --config "$T/dump.conf" config
expect_rc 0
diff <(values "$T/dump.conf") <(values "$T/out") >"$T/d1" || { fail "--config dump differs:"; cat "$T/d1"; }
# 2. validate it as a drop-in over the installed configuration, then install it and compare
cp "$T/dump.conf" "$T/99-snapshot.conf"
hp config --validate "$T/99-snapshot.conf"
expect_rc 0
cp "$T/dump.conf" "$R/etc/hostprep/hostprep.conf.d/99-snapshot.conf"
hp config
expect_rc 0
diff <(values "$T/dump.conf") <(values "$T/out") >"$T/d2" || { fail "dump as a drop-in differs (lists doubled?):"; cat "$T/d2"; }
# 3. the same ACS plan either way
hp --config "$T/dump.conf" apply --dry-run
cp "$T/out" "$T/plan-dump"
rm "$R/etc/hostprep/hostprep.conf.d/99-snapshot.conf"
hp apply --dry-run
cmp -s "$T/out" "$T/plan-dump" || fail "the dump plans differently: $(diff "$T/out" "$T/plan-dump" | head -5)"
expect_tree_same
