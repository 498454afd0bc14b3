# The P2P truth for jobs (issue 29 §3): an apply publishes run/hostprep/p2p.json (0644,
# schema 1) and p2p.env with the verdict of every pair, and a job reads them without root.
# With Apply=no (the host as it booted, ACS redirect on) every pair is "redirected" at the
# two switch ports, the Arc pair with its documented risk; after an apply that writes,
# "direct". An independent reader (tests/fake/p2p_reader.py: the ports and their ACS
# Control from the sysfs tree, not from hostprep) checks each field as nobody. A run that
# writes removes the files while it runs: a killed one leaves none (never a stale "direct").
vendor() { for d in "$R" "$REF"; do install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$d/usr/lib/hostprep/hostprep.conf"; done; }
J=run/hostprep/p2p.json
E=run/hostprep/p2p.env
# the system's python (a pyenv shim under /root is not nobody's to run)
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
# as a job would: unprivileged when root can drop to nobody, else the mode bits
as_job() {
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		note "not root or no setpriv: the reader runs as $(id -un), the mode bits are checked"
		"$@"
	fi
}
newroot accel-plx
useconf accel-noapply
vendor
hp apply
expect_rc 1
[ -f "$R/$J" ] || fail "no p2p.json after an apply"
[ "$(stat -c %a "$R/$J")" = 644 ] || fail "p2p.json mode $(stat -c %a "$R/$J"), want 644"
[ "$(stat -c %a "$R/run/hostprep")" = 755 ] || fail "run/hostprep mode $(stat -c %a "$R/run/hostprep")"
as_job "$PY" "$HERE/p2p_reader.py" "$R/$J" "$R" redirected >"$T/reader" 2>&1 ||
	fail "the job-side reader disagrees: $(cat "$T/reader")"
as_job cat "$R/$J" >"$T/out" || fail "nobody cannot read p2p.json"
RC=0
golden accel-plx-p2p-redirected.json
# p2p.env: the six accelerator pairs, sourced by sh; NCCL_IGNORE_DISABLED_P2P never set
[ "$(stat -c %a "$R/$E")" = 644 ] || fail "p2p.env mode $(stat -c %a "$R/$E")"
(
	set -e
	. "$R/$E"
	[ "$HOSTPREP_P2P_REDIRECTED" = "0000:03:00.0-0000:04:00.0,0000:03:00.0-0000:05:00.0,0000:03:00.0-0000:06:00.0,0000:04:00.0-0000:05:00.0,0000:04:00.0-0000:06:00.0,0000:05:00.0-0000:06:00.0" ]
	[ -z "$HOSTPREP_P2P_UNKNOWN" ] && [ "${HOSTPREP_P2P_UNKNOWN+set}" = set ]
) || fail "p2p.env: $(cat "$R/$E")"
expect_no_grep "$R/$E" '^NCCL_IGNORE_DISABLED_P2P' "p2p.env sets NCCL_IGNORE_DISABLED_P2P"
[ -z "$(grep -v '^#' "$R/$E" | grep -Ev '^HOSTPREP_P2P_[A-Z]+=[0-9a-f:.,-]*$')" ] ||
	fail "unexpected line in p2p.env: $(grep -v '^#' "$R/$E")"
# a check keeps the last verdict's files (it does not read every pair's path)
cp "$R/$J" "$T/before"
hp check
cmp -s "$R/$J" "$T/before" || fail "check rewrote p2p.json"
# an apply that writes: every pair direct, the same reader agrees field by field
useconf accel
hp apply
expect_rc 0
as_job "$PY" "$HERE/p2p_reader.py" "$R/$J" "$R" direct >"$T/reader" 2>&1 ||
	fail "after apply the job-side reader disagrees: $(cat "$T/reader")"
grep -qx 'HOSTPREP_P2P_REDIRECTED=' "$R/$E" || fail "p2p.env after apply: $(cat "$R/$E")"
cp "$R/$J" "$T/out"
golden accel-plx-p2p-direct.json
# a reset turns an Arc port's redirect back on; the apply that rewrites it is killed at
# that write: no p2p.json, no p2p.env (the last ones said "direct": now stale)
[ -f "$FAILWRITE_SO" ] || skip "failwrite.so was not built"
poke16 0000:02:02.0 $((0xf24 + 6)) 0x001d
HP_ENV=(LD_PRELOAD="$FAILWRITE_SO" FAILWRITE_KILL=1)
hp apply
HP_ENV=()
[ "$RC" = 137 ] || fail "apply was not killed at its config-space write (exit $RC)"
[ ! -e "$R/$J" ] && [ ! -e "$R/$E" ] || fail "a killed apply left $(ls "$R/run/hostprep")"
# the next complete apply publishes again
hp apply
expect_rc 0
as_job "$PY" "$HERE/p2p_reader.py" "$R/$J" "$R" direct >"$T/reader" 2>&1 ||
	fail "after the repeated apply: $(cat "$T/reader")"
