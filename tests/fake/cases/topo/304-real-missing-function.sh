# A bridge in the device tree but missing from bus/pci/devices (vector-engines: the X722's
# switch port 0000:5f:03.0) does not drop the path: the hop below it is read through
# sys/devices and shown with the bridge named; the hop above it (5d:02.0 -> 5e:00.0) stays.
# When the missing bridge's attributes cannot be read either, the hop says unknown.
. "$HERE/real/lib.sh"
realroot vector-engines
hp topology
expect_rc 0
expect_grep out '^  0000:5e:00\.0 ok +8\.0 GT/s x8' "the hop above the missing bridge"
expect_grep out '^  0000:60:00\.0 ok +2\.5 GT/s x1, .*port 0000:5f:03\.0' "the hop below it"
expect_grep out '0000:5f:03\.0 missing from bus/pci/devices' "the missing bridge named"
P=$(dirname "$(realpath "$R/sys/bus/pci/devices/0000:60:00.0")")
[ "$(basename "$P")" = 0000:5f:03.0 ] || fail "fixture: 60:00.0 is not below 5f:03.0 ($P)"
rm "$P"/current_link_speed "$P"/current_link_width "$P"/max_link_speed "$P"/max_link_width
hp --json topology
expect_rc 0
jq -e '[.links[] | select(.device == "0000:60:00.0")] | length == 1 and
	.[0].state == "unknown" and .[0].port == "0000:5f:03.0" and .[0].unlisted == ["0000:5f:03.0"]' \
	"$T/out" >/dev/null || fail "hop with an unreadable unlisted port: $(jq -c '.links[-1]' "$T/out")"
# A listed port keeps the old rule (either end alone judges): only the unlisted side is unknown
jq -e '[.links[] | select(.device == "0000:5e:00.0")][0].state == "ok"' "$T/out" >/dev/null ||
	fail "the readable hop above changed"
# [Links] reports the unknown hop (a warning with the default Degraded=warn), never a pass
mkdir -p "$R/etc/hostprep"
cp "$HERE/configs/links.conf" "$R/etc/hostprep/hostprep.conf"
hp --json check
jq -e '[.results[] | select(.check == "pcie.link" and .object == "0000:60:00.0") | .verdict]
	| length == 1 and .[0] == "warn"' "$T/out" >/dev/null ||
	fail "[Links] passes the unknown hop: $(jq -c '[.results[] | select(.object == "0000:60:00.0")]' "$T/out")"
