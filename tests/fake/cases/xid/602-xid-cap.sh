# [Xid] MaxRecords=: the bound on the records read. Exactly N records with MaxRecords=N is
# all of them (pass); one record more and the three checks warn naming the bound (config)
# and the record past it is never judged, even an Xid 79. Dictionary lines are not records;
# a malformed line counts as one and is said; the first record's sequence number says what
# the kernel's buffer no longer holds.
newroot dgx8
mkdir -p "$R/dev"
conf() { printf '[Xid]\nMaxRecords=%s\n' "$1" >"$R/etc/hostprep/hostprep.conf"; }
printf '6,7,1,-;a\n SUBSYSTEM=x\n6,8,2,-;b\n DEVICE=+pci:0000:18:00.0\n6,9,3,-;c\n4,10,4,-;NVRM: Xid (PCI:0000:3b:00): 79, x\n' >"$R/dev/kmsg"
verdicts() { jq -r '[.results[] | select(.check | test("^(xid|kernel)")) | "\(.check)=\(.verdict)"] | join(" ")' "$T/out"; }

conf 4
hp --json check
expect_rc 1
[ "$(verdicts)" = "xid.gpu=fail xid.sxid=pass kernel.log=pass" ] || fail "MaxRecords=4 of 4: $(verdicts)"
[ "$(jqo '.results[] | select(.check == "xid.sxid") | .actual')" = \
	"no SXid since boot (kmsg: 4 records read); from record 7 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "the count and the lost start: $(jqo '.results[] | select(.check == "xid.sxid") | .actual')"

conf 3
hp --json check
expect_rc 0
[ "$(verdicts)" = "xid.gpu=warn xid.sxid=warn kernel.log=warn" ] || fail "MaxRecords=3 of 4: $(verdicts)"
[ "$(jqo '.results[] | select(.check == "xid.gpu") | "\(.action) \(.cause) \(.actual)"')" = \
	"config xid.gpu:capped no Xid in the first 3 records (kmsg); stopped at MaxRecords=3: the later records of this boot were not read; from record 7 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "the cap's evidence: $(jqo '.results[] | select(.check == "xid.gpu") | "\(.action) \(.cause) \(.actual)"')"
expect_grep out "raise MaxRecords=" "the remedy"

# a malformed line is counted against the bound and said
printf '6,0,1,-;a\ngarbage\n6,2,3,-;c\n' >"$R/dev/kmsg"
conf 3
hp --json check
expect_rc 0
[ "$(jqo '.results[] | select(.check == "xid.gpu") | .actual')" = \
	"no Xid since boot (kmsg: 2 records read); 1 lines not in the kernel's format, skipped" ] ||
	fail "a malformed line: $(jqo '.results[] | select(.check == "xid.gpu") | .actual')"
conf 2
hp --json check
[ "$(verdicts)" = "xid.gpu=warn xid.sxid=warn kernel.log=warn" ] || fail "the malformed line counts: $(verdicts)"
