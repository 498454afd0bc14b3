# --vendor-config FILE (issue 27 §8): the shipped file read as the vendor's, so `make run`
# and a trial of a new vendor default say what the installed package says. On an HGX-like
# host (dgx8) the shipped default's P2P rule, named with --config, is the admin's (its
# ports FAIL: NOT READY); installed in /usr/lib/hostprep it only warns (READY); named with
# --vendor-config it is byte for byte the installed verdict, the /etc drop-ins still apply,
# nothing is published, and it does not go with --config.
SHIPPED=$HERE/../../conf/hostprep.conf
newroot dgx8
ref_private
hp --config "$SHIPPED" --json check
expect_rc 1
asconfig=$(jq -c '[.results[] | [.check, .object, .verdict]]' "$T/out")
hp --vendor-config "$SHIPPED" --json check
expect_rc 0
vendor=$(jq -c '[.results[] | [.check, .object, .verdict]]' "$T/out")
[ "$vendor" != "$asconfig" ] || fail "--vendor-config judged like --config"
expect_tree_same
# the same host with the file installed (a copy: that check publishes)
host=$R
R=$T/installed
rm -rf "$R"
cp -a "$host" "$R"
install -D -m 0644 "$SHIPPED" "$R/usr/lib/hostprep/hostprep.conf"
hp --json check
expect_rc 0
installed=$(jq -c '[.results[] | [.check, .object, .verdict]]' "$T/out")
[ "$vendor" = "$installed" ] || fail "--vendor-config: $vendor; installed: $installed"
R=$host
# an admin's drop-in is read with it, as on the installed host
dropin iommu-pt 50-site.conf
hp --vendor-config "$SHIPPED" --json check
jq -e '[.results[] | select(.check == "iommu.mode")][0].expected | test("passthrough")' "$T/out" >/dev/null ||
	fail "the /etc drop-in was not read with --vendor-config"
[ -e "$R/run/hostprep/report.json" ] && fail "a --vendor-config run published its report"
hp --vendor-config "$SHIPPED" --config "$SHIPPED" check
expect_rc 2
expect_grep err "--vendor-config goes with the config search, not with --config"
hp --vendor-config "$T/nonexistent.conf" check
expect_rc 2
expect_tree_same
