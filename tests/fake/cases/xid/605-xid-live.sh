# [Xid] on this machine's own kernel log (not under --root): /dev/kmsg read non-blocking to
# its end, never waiting for the next record: the check returns, has read records, and is
# not unknown; MaxRecords=1 stops after one record and says so. Read-only (--config: no
# report is published), root only (the kernel log needs CAP_SYSLOG).
need_root "to read /dev/kmsg"
[ -c /dev/kmsg ] || skip "no /dev/kmsg here"
printf '[Xid]\n' >"$T/xid.conf"
timeout 60 "$BIN" --no-color --config "$T/xid.conf" --json check </dev/null >"$T/out" 2>"$T/err"
RC=$?
[ "$RC" != 124 ] || fail "the live read blocked"
jq -e '.results[] | select(.check == "xid.gpu" and .object == "host")' "$T/out" >/dev/null ||
	jq -e '.results[] | select(.check == "xid.gpu")' "$T/out" >/dev/null || fail "no xid.gpu result: $(head -c 300 "$T/err")"
[ "$(jq -r '[.results[] | select(.check | test("^(xid|kernel)")) | .verdict] | index("unknown")' "$T/out")" = null ] ||
	fail "the live log unread: $(jq -c '.results[] | select(.verdict == "unknown")' "$T/out")"
jq -r '.results[] | select(.check == "kernel.log" and .object == "host") | .actual' "$T/out" |
	grep -Eq '\((journal|kmsg): [1-9][0-9]* records read' || fail "no records read: $(jq -c '.results[] | select(.check == "kernel.log")' "$T/out")"
printf '[Xid]\nMaxRecords=1\n' >"$T/xid.conf"
timeout 60 "$BIN" --no-color --config "$T/xid.conf" --json check </dev/null >"$T/out" 2>"$T/err"
jq -r '.results[] | select(.check == "xid.sxid" and .object == "host") | "\(.verdict) \(.actual)"' "$T/out" |
	grep -Eq '^warn no SXid in the first 1 records \((journal|kmsg)\); stopped at MaxRecords=1' || fail "the live cap: $(jq -c '.results[] | select(.check == "xid.sxid")' "$T/out")"
