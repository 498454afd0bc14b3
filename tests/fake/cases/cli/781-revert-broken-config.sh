# A revert with a configuration that does not load restores every recorded original
# (a broken config must not block the way back) and says so in its report: a config
# fail, NOT READY, in report.json, the NFD file and for the gate. It published READY
# before (an audit: the gate opened kubelet on a host whose policy could not be read).
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/etc/kubernetes/node-feature-discovery/features.d"
hp apply
expect_rc 0
echo 'Typo line' >>"$R/etc/hostprep/hostprep.conf"
hp revert
expect_rc 0 # every original is back: the config space as it was
expect_tree_diff <<-'DIFF'
	entry: +d 755 ./etc/kubernetes
	entry: +d 755 ./etc/kubernetes/node-feature-discovery
	entry: +d 755 ./etc/kubernetes/node-feature-discovery/features.d
	entry: +f 644 ./etc/kubernetes/node-feature-discovery/features.d/hostprep
	./etc/hostprep/hostprep.conf: size differs
DIFF
expect_grep err 'Reverting without the configuration'
[ "$(grep -c '^PASS  *acs\.revert' "$T/out")" = 12 ] || fail "revert restored $(grep -c '^PASS  *acs\.revert' "$T/out") ports, want 12"
expect_grep out '^FAIL +config +configuration +valid +.*hostprep\.conf:11:'
expect_grep out '^NOT READY: '
jq -e '.command == "revert" and .ready == false and
	([.results[] | select(.check == "config" and .verdict == "fail")] | length) == 1' \
	"$R/run/hostprep/report.json" >/dev/null || fail "the revert's report is not a config fail"
expect_grep "$R/etc/kubernetes/node-feature-discovery/features.d/hostprep" '^feature\.node\.kubernetes\.io/hostprep\.ready=false$'
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: config:config configuration'
hp gate kubelet.service
expect_rc 1
