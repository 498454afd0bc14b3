# [Xid] Ignore= and IgnoreSXid=: an accepted code passes naming the line that accepted it;
# bad codes are refused at config time (file:line: reason, exit 2, nothing read or
# written); the dump reads back to itself; no [Xid] section: nothing is read, even a log
# full of Xids, and the shipped conf/hostprep.conf asks for nothing.
newroot dgx8
mkdir -p "$R/dev"
printf '4,1,2000000,-;NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n4,2,3000000,-;nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 30\n' >"$R/dev/kmsg"
printf '[Xid]\nIgnore=43\nIgnore=79 13\nIgnoreSXid=20034\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(jqo '.results[] | select(.check == "xid.gpu") | "\(.verdict) \(.actual)"')" = \
	"pass Xid 79 at 2.000000 s since boot: GPU has fallen off the bus (ignored: Ignore= at /etc/hostprep/hostprep.conf:3) [NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.]" ] ||
	fail "Ignore=79: $(jqo '.results[] | select(.check == "xid.gpu") | "\(.verdict) \(.actual)"')"
expect_grep out '"actual": "SXid 20034 at 3.000000 s since boot: fatal \(ignored: IgnoreSXid= at /etc/hostprep/hostprep.conf:4\)' "IgnoreSXid="
# an empty assignment empties the list
printf '[Xid]\nIgnore=79\nIgnore=\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check == "xid.gpu") | .verdict')" = fail ] || fail "Ignore= reset"
# the Xid code space is not the SXid one
printf '[Xid]\nIgnore=20034\nIgnoreSXid=79\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check | startswith("xid")) | .verdict] | join(" ")')" = "fail fail" ] ||
	fail "Ignore= and IgnoreSXid= crossed"

for bad in 'Ignore=0' 'Ignore=-1' 'Ignore=13x' 'Ignore=0x4f' 'Ignore=100000' 'Ignore=079' \
	'Ignore=13,79' 'IgnoreSXid=fatal' 'MaxRecords=0' 'MaxRecords=10000001' 'MaxRecords=1k' \
	'Ignor=13'; do
	printf '[Xid]\n%s\n' "$bad" >"$R/etc/hostprep/hostprep.conf"
	hp check
	expect_rc 2
	grep -q 'hostprep\.conf:2: ' "$T/err" || fail "'$bad': $(cat "$T/err")"
	grep -q 'xid' "$T/out" && fail "'$bad': a result despite the bad config"
done

printf '[Xid]\nIgnore=79 13\nIgnoreSXid=20034\nMaxRecords=5000\n' >"$R/etc/hostprep/hostprep.conf"
hp config
expect_rc 0
sed -n '/^\[Xid\]/,/^$/p' "$T/out" >"$T/dump"
grep -q '^Ignore=79$' "$T/dump" && grep -q '^Ignore=13$' "$T/dump" && grep -q '^IgnoreSXid=20034$' "$T/dump" &&
	grep -q '^MaxRecords=5000$' "$T/dump" || fail "dump: $(cat "$T/dump")"
grep -v '^#' "$T/out" >"$T/dump1"
cp "$T/out" "$R/etc/hostprep/hostprep.conf"
hp config
grep -v '^#' "$T/out" | cmp -s - "$T/dump1" || fail "the dump does not read back to itself"

# no [Xid]: not read, not reported (the shipped default asks for nothing)
cp "$HERE/../../conf/hostprep.conf" "$R/etc/hostprep/hostprep.conf"
hp --json check
jq -e '[.results[] | select(.check | test("^(xid|kernel)"))] | length == 0' "$T/out" >/dev/null ||
	fail "the shipped config reports the kernel log"
rm "$R/etc/hostprep/hostprep.conf"
hp --json check
jq -e '[.results[] | select(.check | test("^(xid|kernel)"))] | length == 0' "$T/out" >/dev/null ||
	fail "no config reports the kernel log"
