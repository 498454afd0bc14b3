# What an unprivileged reader sees (64 bytes of config space): the ACS verdict
# is "unknown" with "needs root", never skip and never "no ACS". The checks run
# as nobody: as root the same 64-byte view is blamed on the kernel/device instead
# (63-missing-capability).
newroot dgx8-nonroot
useconf gpu-p2p
HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
hp --json check
expect_rc 1
n=$(jqo '[.results[] | select(.check=="acs")] | length')
[ "${n:-0}" -ge 1 ] || fail "no acs result at all on the non-root view"
bad=$(jqo '[.results[] | select(.check=="acs" and .verdict!="unknown") | "\(.object)=\(.verdict)"] | join(" ")')
[ -z "$bad" ] || fail "acs results that are not unknown: $bad"
nr=$(jqo '[.results[] | select(.check=="acs" and ((.actual + " " + (.remedy // "")) | test("needs root")|not))] | length')
[ "$nr" = 0 ] || fail "$nr acs results do not say 'needs root'"
expect_no_grep out '[Nn]o ACS' "claims 'no ACS' on the non-root view"
hp check
expect_rc 1
expect_grep out 'needs root'
expect_no_grep out '^SKIP +acs ' "a skipped acs port on the non-root view"
# apply on this view must not write either
HP_ENV=()
hp apply
expect_tree_same
