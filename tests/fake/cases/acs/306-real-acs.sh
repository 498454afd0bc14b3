# ACS where it matters on a real machine: the Vector Engines and the ConnectX-4 under one
# PLX switch each (vector-engines). A rule clearing the redirect bits on their P2P ports and
# ExpectP2P=gpu:nic-nearest: the capture has 64 bytes of config space, so every deciding
# port is unknown with the one diagnosis (acs, acs.cmdline and topology.p2p alike), never
# "no ACS" and never a pass; the exit says not ready; nothing is written.
. "$HERE/real/lib.sh"
realroot vector-engines
for d in "$R" "$REF"; do
	mkdir -p "$d/etc/hostprep"
	cat >"$d/etc/hostprep/hostprep.conf" <<'CONF'
[IOMMU]
Expect=any

[ACS:ve-hca]
Select=p2p:1bcf:*~class:0207

[Topology]
ExpectP2P=gpu:nic-nearest
CONF
done
hp check
expect_rc 1
golden real-vector-engines-acs-check.txt
hp --json check
expect_rc 1
jq -e '[.results[] | select(.check == "acs" or .check == "topology.p2p") | .verdict] | unique == ["unknown"]' \
	"$T/out" >/dev/null || fail "ACS verdicts: $(jq -c '[.results[] | [.check, .object, .verdict]]' "$T/out")"
jq -e '[.results[] | select(.check == "acs")] | length == 10' "$T/out" >/dev/null ||
	fail "not the 10 PLX downstream ports of the VE/HCA paths"
jq -e '[.results[] | select(.check == "topology.p2p")] | length == 8' "$T/out" >/dev/null ||
	fail "not one pair per Vector Engine with its nearest HCA"
n=$(jq '[.results[] | select(.check == "acs" or .check == "topology.p2p" or .check == "acs.cmdline") | .actual] | unique | length' "$T/out")
[ "$(jq -r '[.results[] | select(.check == "acs") | .actual] | unique | length' "$T/out")" = 1 ] ||
	fail "more than one diagnosis for the same 64-byte view ($n phrasings)"
expect_tree_same
