# Select=1000:c030 selects every port of the four Broadcom switches: 12 downstream
# ports are written (incl. the NICs' 17:02.0 ...); the 4 upstream ports have no ACS
# and are reported as skip, never written.
newroot dgx8
useconf switch-ids
hp --json apply
expect_rc 0
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="skip") | .object] | join(",")')" = \
	"0000:16:00.0,0000:38:00.0,0000:98:00.0,0000:b8:00.0" ] ||
	fail "skipped upstream ports: $(jqo '[.results[] | select(.check=="acs" and .verdict=="skip") | .object] | join(",")')"
[ "$(jqo '[.results[] | select(.check=="acs" and .verdict=="pass")] | length')" = 12 ] ||
	fail "want 12 passing downstream ports"
treediff "$REF" "$R" >"$T/d"
[ "$(grep -c . "$T/d")" = 12 ] || fail "$(grep -c . "$T/d") bytes changed, want 12"
grep -v '/config +0xf2a: 1d -> 11$' "$T/d" && fail "a change other than a downstream port's ACS Control"
