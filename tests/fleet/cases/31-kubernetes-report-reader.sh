#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/kubernetes/hostprep-report-status, the report reader the DaemonSet's readiness
# probe and node-problem-detector's container plugin run (images with sh and awk, no
# hostprep, no json-c): on every report the fake tier's goldens hold (written by the real
# binary), its exit status is 'hostprep status --oneline''s on the same file and its
# verdict jq's .ready; the same reports re-laid out (compact, other indentation, keys
# sorted) give the same answer; damaged, truncated, hand-edited, other-schema and missing
# reports are NOT READY (exit 1); its one line fits NPD's 80 bytes; it runs under dash
# with mawk (Debian's minimal images) and with nothing but /bin and /usr/bin on PATH.
. tests/fleet/lib.sh
R=fleet/kubernetes/hostprep-report-status
HOSTPREP_BIN=${HOSTPREP_BIN:-build/hostprep}
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-reader.XXXXXX")
trap 'rm -rf "$T"' EXIT
check_eq() { if [ "$1" = "$2" ]; then ok "$3"; else fail "$3" "got '$1', want '$2'"; fi; }

[ -f "$R" ] || { fail reader-exists "$R missing"; finish; }
if need shellcheck "shellcheck hostprep-report-status"; then
	if o=$(shellcheck -s sh "$R" 2>&1); then ok "shellcheck hostprep-report-status"
	else fail "shellcheck hostprep-report-status" "$o"; fi
fi
need jq reader-vs-jq || finish
need dash reader-under-dash || finish
# read FILE: the reader as the probe runs it (sh = dash here, as in Debian's images; only
# the base system on PATH); sets RC and LINE
read_report() {
	LINE=$(env -i PATH=/usr/bin:/bin dash "$R" "$1" 2>"$T/err")
	RC=$?
}

# the reports hostprep wrote (tests/fake goldens of check/apply/status --json: the report)
mkdir -p "$T/rep" "$T/root/run/hostprep"
for g in tests/fake/golden/*.json; do
	grep -q '^  "schema": 1,$' "$g" && grep -q '^  "ready": ' "$g" || continue
	sed '${/^\[exit [0-9]*\]$/d}' "$g" >"$T/rep/$(basename "$g")"
done
n=$(ls "$T/rep" | wc -l)
[ "$n" -ge 10 ] && ok "reports from the fake tier: $n" || fail "reports from the fake tier" "only $n"
nready=0 nnot=0 bad=() long=()
for f in "$T/rep"/*.json; do
	want=$(jq -r 'if .ready then 0 else 1 end' "$f")
	read_report "$f"
	[ "$RC" = "$want" ] || bad+=("$(basename "$f"): reader $RC, jq .ready says $want")
	[ "$want" = 0 ] && nready=$((nready + 1)) || nnot=$((nnot + 1))
	[ "$(printf '%s' "$LINE" | wc -c)" -le 80 ] || long+=("$(basename "$f"): $LINE")
	case "$RC:$LINE" in 0:"READY: "* | 1:"NOT READY: "*) ;; *) bad+=("$(basename "$f"): '$LINE' with exit $RC") ;; esac
	# the same report, laid out otherwise
	for form in "-c ." "--indent 7 ." "-S ." "--tab ."; do
		# shellcheck disable=SC2086 # the jq options, split on purpose
		jq $form "$f" >"$T/alt.json"
		prev=$LINE
		read_report "$T/alt.json"
		[ "$RC:$LINE" = "$want:$prev" ] || bad+=("$(basename "$f") (jq $form): $RC '$LINE', want $want '$prev'")
	done
	if [ -x "$HOSTPREP_BIN" ]; then
		cp "$f" "$T/root/run/hostprep/report.json"
		hline=$("$HOSTPREP_BIN" --root "$T/root" status --oneline 2>/dev/null)
		hrc=$?
		# the same words: NPD's container and a node with hostprep say one thing
		[ "$hline" = "$LINE" ] || bad+=("$(basename "$f"): reader '$LINE', hostprep status '$hline'")
		read_report "$f"
		[ "$RC" = "$hrc" ] || bad+=("$(basename "$f"): reader $RC, hostprep status $hrc")
	fi
done
[ "$nready" -ge 3 ] && [ "$nnot" -ge 3 ] || bad+=("only $nready ready and $nnot not-ready reports")
if [ ${#bad[@]} -eq 0 ]; then
	ok "reader agrees with jq .ready (and hostprep status) on $n reports, $nready ready, in 5 layouts each"
else
	fail "reader agrees with jq and hostprep status" "$(printf '%s; ' "${bad[@]}")"
fi
[ -x "$HOSTPREP_BIN" ] || skip "reader vs hostprep status" "$HOSTPREP_BIN not built"
[ ${#long[@]} -eq 0 ] && ok "reader's line fits NPD's 80 bytes" || fail "reader's line fits NPD's 80 bytes" "${long[*]}"

# its lines, exactly
read_report "$T/rep/dgx8-apply.json"
check_eq "$RC $LINE" "0 READY: 24 pass, 2 warn, 1 skip (warn: acs)" \
	"ready: exit 0, the counts and the areas that warn"
read_report "$T/rep/dgx8-check.json"
check_eq "$RC $LINE" "1 NOT READY: acs:apply 0000:15:01.0 +11" \
	"not ready: exit 1 and the causes, each once, as many as fit"

# what is not a usable report is NOT READY (exit 1), as for 'hostprep status'
ready=$T/rep/dgx8-apply.json
nope() { # NAME FILE WORDS: exit 1 and the words
	read_report "$2"
	case "$RC:$LINE" in "1:NOT READY: $3"*) ok "$1" ;; *) fail "$1" "exit $RC: '$LINE' $(cat "$T/err")" ;; esac
}
nope "no report" "$T/none.json" "no report: hostprep has not finished a run since boot"
: >"$T/empty.json"
nope "empty report" "$T/empty.json" "the last report cannot be used (empty)"
head -c 300 "$ready" >"$T/trunc.json"
nope "truncated report" "$T/trunc.json" "the last report cannot be used (truncated)"
{ cat "$ready"; echo '{}'; } >"$T/trail.json"
nope "trailing data" "$T/trail.json" "the last report cannot be used (trailing data"
jq '.schema = 2' "$ready" >"$T/s2.json"
nope "schema 2" "$T/s2.json" "the last report cannot be used (schema 2, this reader knows 1)"
jq 'del(.schema)' "$ready" >"$T/s0.json"
nope "no schema" "$T/s0.json" "the last report cannot be used (no schema)"
jq '.ready = "true"' "$ready" >"$T/rs.json"
nope "ready as a string" "$T/rs.json" "the last report cannot be used (ready is not a boolean)"
jq '.results[0].verdict = "fail" | del(.results[0].severity, .results[0].cause)' "$ready" >"$T/edit.json"
nope "ready true with a failed result (hand-edited)" "$T/edit.json" "the last report cannot be used (ready disagrees"
jq '.summary.warn += 1' "$ready" >"$T/sum.json"
nope "summary disagrees (hand-edited)" "$T/sum.json" "the last report cannot be used (summary disagrees"
jq '.summary.total = 0' "$ready" >"$T/tot.json"
nope "summary total disagrees" "$T/tot.json" "the last report cannot be used (summary disagrees"
jq '.results[0].verdict = "maybe" | .ready = false' "$ready" >"$T/v.json"
nope "unknown verdict" "$T/v.json" "the last report cannot be used (unknown verdict maybe)"
jq 'del(.ready)' "$ready" >"$T/nr.json"
nope "no ready" "$T/nr.json" "the last report cannot be used (no ready or results)"
mkdir "$T/dir.json"
nope "a directory" "$T/dir.json" "the last report cannot be used (not a readable file)"
printf '{"schema": 1, "ready": true, "results": []}' >"$T/x.json"
sed 's/"ready"/"re\x01ady"/' "$T/x.json" >"$T/ctl.json"
nope "control byte in a string" "$T/ctl.json" "the last report cannot be used (control character"
# a string that looks like the layout an old probe grepped for does not fool it
jq '.results[0].actual = "\n  \"ready\": true,\n" | .results[0].verdict = "fail" | .summary.pass -= 1 | .summary.fail += 1 | .ready = false' \
	"$ready" >"$T/fool.json"
read_report "$T/fool.json"
check_eq "$RC" 1 "a result whose text holds '\"ready\": true,' is still not ready"
# nested objects and arrays a later schema-1 report may add are skipped
jq '.causes = [{"id": "acs", "ready": true, "results": [{"check": "x", "verdict": "fail"}]}] | .results[1].extra = {"ready": true}' \
	"$ready" >"$T/nest.json"
read_report "$T/nest.json"
check_eq "$RC $LINE" "0 READY: 24 pass, 2 warn, 1 skip (warn: acs)" "unknown nested fields (with their own ready/results) are ignored"
jq '.causes = {"summary": {"pass": 0}, "ready": false}' "$ready" >"$T/nest2.json"
read_report "$T/nest2.json"
check_eq "$RC" 0 "a nested summary or ready is not the report's"
# the header every report has (hostprep rejects a report without it)
hdr='"schema":1,"version":"0.1.0","command":"check","host":"h","time":"2026-01-01T00:00:00Z","apply":false'
printf '{%s,"ready":true,"summary":{"pass":0,"skip":0,"warn":0,"unknown":0,"fail":0,"total":0},"results":[]}' "$hdr" >"$T/min.json"
read_report "$T/min.json"
check_eq "$RC $LINE" "0 NOTHING DECLARED: no rule checked this host" "minimal ready report: nothing declared"
# escapes: \" \\ \uXXXX in the names it prints
printf '{%s,"ready":false,"summary":{"pass":0,"skip":0,"warn":0,"unknown":1,"fail":0,"total":1},"results":[{"check":"rdma.port","object":"mlx5_\\"0\\\\\\u00e9/1","expected":"","actual":"","verdict":"unknown","remedy":null}]}' "$hdr" >"$T/esc.json"
read_report "$T/esc.json"
check_eq "$RC $LINE" '1 NOT READY: rdma.port:inspect mlx5_"0\?/1' "escapes resolved"

# what 'hostprep status' rejects (src/report/report-file.c, report_from_json_string()) the
# reader rejects: NOT READY, exit 1, and hostprep status says the same on the same file
mkdir -p "$T/hroot/run/hostprep"
# hostprep_rc FILE: 'hostprep status --oneline''s exit and line on FILE (as root's report)
hostprep_rc() {
	cp "$1" "$T/hroot/run/hostprep/report.json"
	chmod "${2:-644}" "$T/hroot/run/hostprep/report.json"
	HLINE=$("$HOSTPREP_BIN" --root "$T/hroot" status --oneline 2>/dev/null)
	HRC=$?
}
# rejected NAME JQ-FILTER: the ready report edited so; both exit 1, the reader's words
rejected() {
	jq "$2" "$ready" >"$T/rej.json" || { fail "$1" "jq '$2'"; return; }
	read_report "$T/rej.json"
	case "$RC:$LINE" in "1:NOT READY: the last report cannot be used ("*) ;; *)
		fail "rejected as hostprep does: $1" "reader exit $RC: '$LINE' $(cat "$T/err")"
		return ;;
	esac
	if [ -x "$HOSTPREP_BIN" ]; then
		hostprep_rc "$T/rej.json"
		[ "$HRC" = 1 ] || { fail "rejected as hostprep does: $1" "hostprep status exit $HRC: '$HLINE' (the case is wrong)"; return; }
	fi
	ok "rejected as hostprep does: $1 ($LINE)"
}
rejected "results holds a number" '.results += [1]'
rejected "results holds a string" '.results = ["x"] + .results'
rejected "no summary" 'del(.summary)'
rejected "summary counts as strings" '.summary |= map_values(tostring)'
rejected "summary without a count" 'del(.summary.unknown)'
rejected "summary not an object" '.summary = [1]'
rejected "no version, host, time" 'del(.version, .host, .time)'
rejected "no version" 'del(.version)'
rejected "no host" 'del(.host)'
rejected "no command" 'del(.command)'
rejected "no time" 'del(.time)'
rejected "no apply" 'del(.apply)'
rejected "apply as a string" '.apply = "false"'
rejected "time not a time" '.time = "yesterday"'
rejected "time month 13" '.time = "2026-13-01T00:00:00Z"'
rejected "time before 1970" '.time = "1969-12-31T23:59:59Z"'
rejected "time with a space for T" '.time = "2026-01-01 00:00:00Z"'
rejected "time with trailing text" '.time = "2026-01-01T00:00:00Z+1"'
rejected "time a number" '.time = 1764000000'
rejected "severity contradicts verdict" '.results[0].severity = "critical"'
rejected "severity unknown" '.results[0].severity = "grave"'
rejected "severity null" '.results[0].severity = null'
rejected "action unknown" '.results[0].action = "pray"'
rejected "cause of another check" '(.results[] | select(.verdict == "warn") | .cause) |= "other.check:x"'
rejected "cause without a reason" '(.results[] | select(.verdict == "warn")) |= (.cause = .check + ":")'
rejected "cause null on a warn" '(.results[] | select(.verdict == "warn") | .cause) = null'
rejected "result without expected" 'del(.results[0].expected)'
rejected "result without actual" 'del(.results[0].actual)'
rejected "result without remedy" 'del(.results[0].remedy)'
rejected "result object a number" '.results[0].object = 1'
rejected "config_files holds a number" '.config_files = [1]'
rejected "config_digest a number" '.config_digest = 1'
rejected "facts not an array" '.facts = {}'
rejected "fact without kind" '.facts = [{"object": "host"}]'
rejected "fact value a number" '.facts = [{"kind": "gpu", "object": "0000:01:00.0", "model": 1, "vbios": null}]'
# and accepts what it accepts (not stricter than hostprep)
accepted() {
	jq "$2" "$ready" >"$T/acc.json"
	read_report "$T/acc.json"
	if [ -x "$HOSTPREP_BIN" ]; then
		hostprep_rc "$T/acc.json"
		[ "$RC $LINE" = "$HRC $HLINE" ] || { fail "accepted as hostprep does: $1" "reader $RC '$LINE', hostprep $HRC '$HLINE'"; return; }
	fi
	if [ "$RC" = 0 ]; then ok "accepted as hostprep does: $1"; else fail "accepted as hostprep does: $1" "exit $RC: '$LINE'"; fi
}
accepted "time with one-digit fields" '.time = "2026-1-2T3:4:5Z"'
accepted "a result from before severity, action and cause" 'del(.results[0].severity, .results[0].action, .results[0].cause)'
accepted "a fact of a later kind" '.facts = [{"kind": "later", "object": "x", "n": 1}]'
# every result a skip: hostprep's words and exit status (0: nothing checked, not READY)
jq '.results |= map(select(.verdict == "skip")) | .summary = {"pass": 0, "skip": (.results | length), "warn": 0, "unknown": 0, "fail": 0, "total": (.results | length)}' \
	"$ready" >"$T/skip.json"
read_report "$T/skip.json"
check_eq "$RC $LINE" "0 NOTHING DECLARED: no rule checked this host (1 skip)" "all skip: NOTHING DECLARED, as hostprep says"
if [ -x "$HOSTPREP_BIN" ]; then
	hostprep_rc "$T/skip.json"
	check_eq "$HRC $HLINE" "$RC $LINE" "all skip: hostprep status says the same"
	# a report hostprep does not trust
	hostprep_rc "$ready" 664
	cp "$ready" "$T/gw.json" && chmod 664 "$T/gw.json"
	read_report "$T/gw.json"
	check_eq "$RC $LINE / $HRC" "1 NOT READY: the last report is not root's: not trusted / 1" "group-writable report: not trusted, as hostprep"
	ln -s "$ready" "$T/link.json"
	read_report "$T/link.json"
	check_eq "$RC $LINE" "1 NOT READY: the last report is not root's: not trusted" "a symlink: not trusted, as hostprep"
fi

# the default path, and no hostprep anywhere on PATH
grep -q 'hostprep status\|hostprep check' <(grep -v '^#' "$R") && fail "reader runs no hostprep" "it calls hostprep" ||
	ok "reader runs no hostprep"
grep -q 'report=${1:-/run/hostprep/report.json}' "$R" && ok "reader's default is /run/hostprep/report.json" ||
	fail "reader's default is /run/hostprep/report.json" "changed"
# busybox sh and awk (other minimal images), when present
if command -v busybox >/dev/null 2>&1; then
	mkdir -p "$T/bb"
	for t in sh awk; do ln -sf "$(command -v busybox)" "$T/bb/$t"; done
	LINE=$(env -i PATH="$T/bb" sh "$R" "$T/rep/dgx8-check.json")
	check_eq "$? $LINE" "1 NOT READY: acs:apply 0000:15:01.0 +11" "busybox sh and awk"
fi
finish
