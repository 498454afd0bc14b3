# The shipped [ACS:gpu-paths] is the least change (issue 18): p2p: pairs of GPUs/
# accelerators and NICs below a switch, never a root port (upstream: opened every GPP root
# port, the management NIC's included). And its verdict is the same whether the file is
# loaded from /usr/lib or named with --config: the vendor's file stays the vendor's.
vendor() { for d in "$R" "$REF"; do install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$d/usr/lib/hostprep/hostprep.conf"; done; }
newroot l40-amd
ref_private
vendor
hp --json check
expect_rc 0
# 0000:00:01.2 is the root port of the ConnectX (02:00.x): not a P2P pair's port
[ "$(jqo '[.results[] | select(.check=="acs" and (.object|startswith("0000:")))] | length')" = 0 ] ||
	fail "the vendor rule selects root ports on l40-amd: $(jqo '[.results[] | select(.check=="acs") | .object] | join(",")')"
newroot dgx8
ref_private
vendor
hp --json check
expect_rc 0
jqo '[.results[] | select(.check=="acs" and (.object|startswith("0000:"))) | .object] | join(" ")' >"$T/ports"
[ "$(cat "$T/ports")" = "0000:17:00.0 0000:17:01.0 0000:17:02.0 0000:39:00.0 0000:39:01.0 0000:39:02.0 0000:99:00.0 0000:99:01.0 0000:99:02.0 0000:b9:00.0 0000:b9:01.0 0000:b9:02.0" ] ||
	fail "dgx8: the vendor rule should select the 12 switch downstream ports of GPU/NIC pairs, not $(cat "$T/ports")"
jqo '[.results[] | "\(.check) \(.object) \(.verdict)"] | join("\n")' >"$T/from-usr-lib"
# the same file by --config: the same verdicts, the same exit status
hp --json --config "$R/usr/lib/hostprep/hostprep.conf" check
expect_rc 0
jqo '[.results[] | "\(.check) \(.object) \(.verdict)"] | join("\n")' >"$T/from-config"
diff "$T/from-usr-lib" "$T/from-config" >"$T/d" || { fail "verdicts differ between /usr/lib and --config:"; head "$T/d"; }
expect_tree_same
