# workload.netns: ib_core's netns_mode (Y shared, N exclusive) against NetnsMode=.
conf() { printf '[Workload]\nNetnsMode=%s\n' "$1" >"$R/etc/hostprep/hostprep.conf"; }
nv() { jqo ".results[] | select(.check==\"workload.netns\" and .object==\"rdma\") | .$1"; }

newroot workload-ib
conf shared
hp --json check
expect_rc 0
[ "$(nv verdict)" = pass ] || fail "Y vs shared: $(nv verdict), want pass"

conf exclusive
hp --json check
expect_rc 1
[ "$(nv verdict)" = fail ] || fail "Y vs exclusive: $(nv verdict), want fail"
nv actual | grep -q '^shared' || fail "Y vs exclusive: actual $(nv actual)"
nv remedy >"$T/remedy"
expect_grep remedy 'ib_core netns_mode=0' "the remedy lacks the modprobe.d option"
expect_grep remedy 'rdma system set netns exclusive' "the remedy lacks the rdma command"
expect_grep remedy 'lost at reboot' "the remedy does not say which one lasts"
hp check
golden workload-netns.txt

conf any
hp --json check
[ -z "$(nv verdict)" ] || fail "NetnsMode=any: a netns result ($(nv verdict))"

newroot workload-ib-excl
conf exclusive
hp --json check
[ "$(nv verdict)" = pass ] || fail "N vs exclusive: $(nv verdict), want pass"
conf shared
hp --json check
[ "$(nv verdict)" = fail ] || fail "N vs shared: $(nv verdict), want fail"
nv remedy | grep -q 'rdma system set netns shared' || fail "N vs shared: remedy $(nv remedy)"

# garbage, and ib_core not loaded: unknown with the reason
echo "maybe" >"$R/sys/module/ib_core/parameters/netns_mode"
hp --json check
[ "$(nv verdict)" = unknown ] || fail "garbage netns_mode: $(nv verdict), want unknown"
newroot dgx8
conf exclusive
hp --json check
[ "$(nv verdict)" = unknown ] || fail "no ib_core: $(nv verdict), want unknown"
nv actual | grep -q 'ib_core is not loaded' || fail "no ib_core: actual $(nv actual)"
true
