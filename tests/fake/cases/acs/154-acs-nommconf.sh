# A PCIe port whose config space ends at 256 bytes (no ECAM/MMCONFIG, pci=nommconf, some
# hypervisors) has an ACS capability nobody can read: "unknown" with the reason, never
# "no ACS capability: nothing to change" (skip) and never a "direct" P2P pair through it
# (issue 17.2). A conventional PCI function has 256 bytes legitimately: no ACS, skip.
newroot dgx8-nommconf
useconf gpu-p2p
[ "$(stat -c %s "$R/$(cfgpath 0000:17:00.0)")" = 256 ] || fail "fixture: 17:00.0 config is not 256 bytes"
hp --json check
expect_rc 1
jqo '.results[] | select(.check=="acs") | "\(.object) \(.verdict) \(.actual) => \(.remedy)"' >"$T/acs"
[ "$(wc -l <"$T/acs")" = 16 ] || fail "want 16 acs results on the GPU paths, got $(wc -l <"$T/acs")"
[ "$(grep -c ' unknown cannot tell: no extended config space (pci=nommconf, no ECAM/MMCONFIG, or the hypervisor): ACS Control cannot be read => ' "$T/acs")" = 16 ] ||
	fail "not every port without extended config space is unknown with the reason: $(head -3 "$T/acs")"
expect_no_grep "$T/acs" 'no ACS capability|run as root' "a 256-byte PCIe port is called 'no ACS' or blamed on root"
# apply writes nothing, and the plan says why
hp apply --dry-run
expect_grep out 'unreadable \(no extended config space\)' "the dry run does not say why the ports are unreadable"
hp apply
expect_rc 1
expect_tree_same
# acs cmdline refuses, naming the reason
hp acs cmdline
expect_rc 1
[ -s "$T/out" ] && fail "acs cmdline printed an argument for ports it cannot read: $(cat "$T/out")"
expect_grep err 'no extended config space' "acs cmdline does not say why it refuses"
# topology: every pair through such a port is unknown, with the reason
dropin topo-expect 60-topo.conf
hp --json check
jqo '.results[] | select(.check=="topology.p2p") | "\(.verdict) \(.actual) => \(.remedy)"' >"$T/p2p"
[ -s "$T/p2p" ] || fail "no topology.p2p results"
expect_no_grep "$T/p2p" '^pass ' "a P2P pair through a port without extended config space is pass"
expect_grep "$T/p2p" '^unknown unknown: 0000:17:00.0 ACS cannot be read: no extended config space.* => boot without pci=nommconf' \
	"GPU0-GPU1 is not unknown naming 17:00.0 and the reason"
hp topology --json
[ "$(jq -r '[.. | objects | select(.acs? == "no-extended-config")] | length' "$T/out")" -gt 0 ] ||
	fail "topology --json has no port in state no-extended-config"

# One port cut to 256 bytes on an otherwise full host, after apply cleared the others.
newroot dgx8
useconf gpu-p2p
dropin topo-expect 60-topo.conf
hp apply
f=$R/$(cfgpath 0000:17:00.0)
truncate -s 256 "$f"
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check=="acs" and .object=="0000:17:00.0") | .verdict')" = unknown ] ||
	fail "17:00.0 with 256 bytes is not unknown"
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="pass")] | length')" = 11 ] ||
	fail "the other 11 ACS ports are not pass"
V=$(jqo '.results[] | select(.check=="topology.p2p" and (.object|test("0000:18:00.0.*0000:19:00.0"))) | .verdict + " " + .actual')
case $V in "unknown unknown: 0000:17:00.0 ACS cannot be read: no extended config space"*) ;;
*) fail "GPU0-GPU1 through a 256-byte 17:00.0: $V" ;; esac

# A conventional PCI function (256 bytes, no PCI Express capability) has no ACS: skip.
newroot vm-noacs
useconf vm
sed -i 's/^Select=0000:00:02.2$/Select=0000:00:03.0/' "$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(jqo '.results[] | select(.check=="acs" and .object=="0000:00:03.0") | .verdict + " " + .actual')" = \
	"skip no ACS capability on this port: nothing to change" ] ||
	fail "the conventional 00:03.0 is not 'no ACS capability' ($(jqo '.results[] | select(.object=="0000:00:03.0") | .actual'))"
