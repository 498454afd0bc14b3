# Nothing checked is never a pass (issue 17 item 6): [IOMMU] Expect=any is a skip that
# says it was not declared, and a run whose results are all skip says "NOTHING DECLARED"
# instead of READY. Its exit status stays 0: a fresh install on a stock host (the shipped
# config as the vendor's, here on a VM whose bridges have no ACS) leaves no failed unit.
newroot vm-noacs
install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$R/usr/lib/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep out '^SKIP +iommu\.mode +host +any +not declared \(Expect=any\)'
expect_no_grep out '^PASS ' 'a pass where nothing was declared'
expect_grep out '^NOTHING DECLARED: no rule checked this host \([0-9]+ skip\)$'
expect_no_grep out '^READY' 'READY claimed with nothing declared'
hp status
expect_rc 0
expect_grep out '^NOTHING DECLARED: no rule checked this host'
# no config file at all: the same
rm "$R/usr/lib/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(jqo '[.results[] | .verdict] | unique | join(",")')" = skip ] ||
	fail "no config: verdicts $(jqo '[.results[] | .verdict] | join(",")')"
# one declared check makes it READY again
printf '[IOMMU]\nExpect=off\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep out '^PASS +iommu\.mode +host +off '
expect_grep out '^READY: 1 pass'
