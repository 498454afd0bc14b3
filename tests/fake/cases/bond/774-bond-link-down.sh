# The bond's own link: a bond taken down (ip link set bond0 down) or without a carrier
# (fewer slaves up than bonding/min_links) carries nothing, however many slaves are up.
# An audit found both PASS and the host READY: only the slaves were judged.
newroot bond-ab
B=$(readlink -f "$R/sys/class/net/bond0")
printf '[Bond:bond0]\nMode=active-backup\nMinSlavesUp=1\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(jqo '.results[] | select(.check == "bond") | .verdict')" = pass ] || fail "the healthy bond does not pass"
chmod u+w "$B/operstate" "$B/flags" "$B/bonding/mii_status"
echo down >"$B/operstate"
echo 0x1002 >"$B/flags"
echo down >"$B/bonding/mii_status"
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check == "bond") | .verdict')" = fail ] || fail "a bond that is down passes"
jqo '.results[] | select(.check == "bond") | .actual' | grep -q '^the bond is down (administratively down)' ||
	fail "not said: $(jqo '.results[] | select(.check == "bond") | .actual')"
jqo '.results[] | select(.check == "bond") | .remedy' | grep -q '^bring bond0 up (ip link set bond0 up)' ||
	fail "remedy: $(jqo '.results[] | select(.check == "bond") | .remedy')"
# up, but no carrier (min_links)
echo 0x1003 >"$B/flags"
hp --json check
expect_rc 1
jqo '.results[] | select(.check == "bond") | .actual' | grep -q '^the bond is down (' ||
	fail "no carrier not said: $(jqo '.results[] | select(.check == "bond") | .actual')"
jqo '.results[] | select(.check == "bond") | .remedy' | grep -q 'has no carrier' ||
	fail "remedy: $(jqo '.results[] | select(.check == "bond") | .remedy')"
# operstate unknown: the carrier decides
echo unknown >"$B/operstate"
echo up >"$B/bonding/mii_status"
hp --json check
expect_rc 0
