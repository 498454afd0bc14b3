# [AER]: the counters since boot of the GPUs, NICs and every port on their paths (aer-dgx8, see
# net/inventory_fixtures.py), each threshold at and one past its edge, Exceeded=fail, files
# that are missing (said once), malformed or half there (unknown, a root port without its
# aer_rootport_total_err_* too), functions off the paths not read, and no section.
newroot aer-dgx8

# aer [KEY=VALUE...]: an [AER] section; --json check; "OBJECT VERDICT" of pcie.aer in $T/aer
aer() {
	{
		echo "[AER]"
		printf '%s\n' "$@"
	} >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	jq -r '.results[] | select(.check == "pcie.aer") | "\(.object) \(.verdict)"' "$T/out" >"$T/aer"
}
actual() { jq -r --arg o "$1" '.results[] | select(.check == "pcie.aer" and .object == $o) | .actual' "$T/out"; }
# bad: the objects whose verdict is not pass or skip, "OBJECT VERDICT" joined by ","
bad() { grep -v ' pass$' "$T/aer" | grep -v '^host skip$' | paste -sd, -; }

# Independent count of the functions with counters: the files themselves.
with=$(find "$R/sys/devices" -name aer_dev_correctable | wc -l)
[ "$with" = 24 ] || fail "fixture: $with functions with AER files, want 24"

aer
expect_rc 0
[ "$(grep -vc '^host ' "$T/aer")" = "$with" ] || fail "one result per function with counters: $(wc -l <"$T/aer")"
[ "$(bad)" = "0000:15:01.0 warn,0000:19:00.0 warn" ] || fail "defaults: $(bad)"
[ "$(actual 0000:18:00.0)" = "fatal 0, nonfatal 0, correctable 12 (RxErr 10, BadTLP 2)" ] || fail "18:00.0: $(actual 0000:18:00.0)"
[ "$(actual 0000:19:00.0)" = "fatal 0, nonfatal 1 (CmpltTO 1), correctable 0" ] || fail "19:00.0: $(actual 0000:19:00.0)"
[ "$(actual 0000:15:01.0)" = "fatal 0, nonfatal 0, correctable 0; received from below: fatal 0, nonfatal 1, correctable 12" ] ||
	fail "15:01.0: $(actual 0000:15:01.0)"
# the functions without counters, once
[ "$(actual host)" = "no AER counters on 8 of the 32 functions" ] || fail "absent: $(actual host)"
[ "$(grep -c '^host ' "$T/aer")" = 1 ] || fail "absent counters said more than once"

# Thresholds: N tolerates N, flags N + 1.
aer NonFatal=1
[ -z "$(bad)" ] || fail "NonFatal=1: $(bad)"
aer Correctable=12
[ "$(bad)" = "0000:15:01.0 warn,0000:19:00.0 warn" ] || fail "Correctable=12: $(bad)"
aer Correctable=11 NonFatal=off
[ "$(bad)" = "0000:15:01.0 warn,0000:18:00.0 warn" ] || fail "Correctable=11: $(bad)"
aer Fatal=off NonFatal=off
expect_rc 0
[ -z "$(bad)" ] || fail "all off: $(bad)"
aer Exceeded=fail
expect_rc 1
[ "$(bad)" = "0000:15:01.0 fail,0000:19:00.0 fail" ] || fail "Exceeded=fail: $(bad)"
jqo '.results[] | select(.object == "0000:19:00.0") | .remedy' | grep -qF 'dmesg | grep -i -e AER -e 0000:19:00.0' ||
	fail "19:00.0: no dmesg step"

# A fatal error: flagged at the default, tolerated by Fatal=1.
f=$(find "$R/sys/devices" -path '*/0000:3a:00.0/aer_dev_fatal')
chmod u+w "$f"
sed -i 's/^DLP 0$/DLP 1/; s/^TOTAL_ERR_FATAL 0$/TOTAL_ERR_FATAL 1/' "$f"
aer
[ "$(actual 0000:3a:00.0)" = "fatal 1 (DLP 1), nonfatal 0, correctable 0" ] || fail "3a:00.0: $(actual 0000:3a:00.0)"
grep -qx '0000:3a:00.0 warn' "$T/aer" || fail "fatal 1 not flagged"
aer Fatal=1
grep -qx '0000:3a:00.0 pass' "$T/aer" || fail "Fatal=1 flags fatal 1"

# Off the GPU/NIC paths nothing is read: the NVMe with a fatal count never shows.
d=$(dirname "$(find "$R/sys/devices" -path '*/0000:01:00.0/vendor')")
printf 'Undefined 0\nDLP 5\nTOTAL_ERR_FATAL 5\n' >"$d/aer_dev_fatal"
aer
grep -q '^0000:01:00.0 ' "$T/aer" && fail "the NVMe was read"

# Half there: one file of three missing is unknown, not "no AER" (every set: 434-aer-partial).
rm "$(find "$R/sys/devices" -path '*/0000:1a:00.0/aer_dev_nonfatal')"
# A root port (PCIe type 4) without the root-port totals: the kernel shows them with its own
# three on every root port (aer_stats_attrs_are_visible()), so the set is cut: unknown.
rm "$(dirname "$(find "$R/sys/devices" -path '*/0000:37:01.0/vendor')")"/aer_rootport_total_err_*
aer
expect_rc 1
grep -qx '0000:1a:00.0 unknown' "$T/aer" || fail "half-there counters: $(grep 1a:00.0 "$T/aer")"
[ "$(actual 0000:1a:00.0)" = "aer_dev_nonfatal missing beside aer_dev_correctable, aer_dev_fatal" ] || fail "1a:00.0: $(actual 0000:1a:00.0)"
grep -qx '0000:37:01.0 unknown' "$T/aer" || fail "root port without totals: $(grep 37:01.0 "$T/aer")"
[ "$(actual 0000:37:01.0)" = "aer_rootport_total_err_cor, aer_rootport_total_err_nonfatal, aer_rootport_total_err_fatal missing beside aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal" ] ||
	fail "37:01.0: $(actual 0000:37:01.0)"

# Malformed (cut before its total): unknown, named by file.
newroot aer-broken
aer
expect_rc 1
[ "$(actual 0000:9c:00.0)" = "aer_dev_fatal unreadable: not in the kernel's format" ] || fail "9c:00.0: $(actual 0000:9c:00.0)"

# No counters anywhere: one skip, nothing declared is not a pass.
newroot dgx8
aer
expect_rc 0
[ "$(cat "$T/aer")" = "host skip" ] || fail "dgx8: $(cat "$T/aer")"
jqo '.ready' | grep -qx true || fail "dgx8 without AER files not ready"
[ "$(jqo '.summary.pass')" = 0 ] || fail "a pass without counters"

# No [AER] section: nothing read, nothing reported.
newroot aer-dgx8
hp --json check
[ "$(jqo '[.results[] | select(.check == "pcie.aer")] | length')" = 0 ] || fail "pcie.aer without [AER]"
true
