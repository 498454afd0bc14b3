# Issue 25 §5: `hostprep gate UNIT`, the ExecCondition= of the shipped kubelet and slurmd
# drop-ins, holds back only the first start of UNIT in a boot. Until UNIT has passed it in
# this boot (boot ID from proc/sys/kernel/random/boot_id), the verdict decides (exit 0
# READY, 1 NOT READY; the one-line verdict on stdout, as status --oneline); once it passed,
# every later start in the same boot passes (a restart must not take down running work),
# still printing the verdict. The record is run/hostprep/gate/UNIT = the boot ID. A record
# of another boot, damaged, untrusted or unwritable, or a boot ID that cannot be read,
# never lets a start through that the verdict holds back. Nothing else is written.
newroot vm-noacs
ref_private
B=$R/proc/sys/kernel/random/boot_id G=$R/run/hostprep/gate
ID1=0d2e7f5c-1111-4a2b-9c3d-123456789abc ID2=0d2e7f5c-2222-4a2b-9c3d-123456789abc
mkdir -p "$(dirname "$B")" "$(dirname "$REF/proc/sys/kernel/random/boot_id")" "$R/run/hostprep"
echo "$ID1" >"$B"
cp "$B" "$REF/proc/sys/kernel/random/boot_id"
res() { printf '{"check":"%s","object":"%s","expected":"x","actual":"%s","verdict":"%s","remedy":null}' "$@"; }
report() { # ready|not-ready: a report as a run writes it
	local ready=true v=pass f=0 p=1
	[ "$1" = ready ] || ready=false v=fail f=1 p=0
	printf '{"schema":1,"version":"0.1.0","command":"apply","host":"h","time":"2026-11-25T00:00:00Z",' \
		>"$R/run/hostprep/report.json"
	printf '"apply":true,"ready":%s,"summary":{"pass":%s,"skip":0,"warn":0,"unknown":0,"fail":%s,"total":1},"results":[%s]}\n' \
		"$ready" "$p" "$f" "$(res rdma.port mlx5_0/1 DOWN/Polling "$v")" >>"$R/run/hostprep/report.json"
}
rec() { cat "$G/$1" 2>/dev/null || echo none; }
# gate UNIT WANT_RC WHAT
gate() {
	hp gate "$1"
	[ "$RC" = "$2" ] || fail "$3: gate $1 exited $RC, want $2 ($(cat "$T/err"))"
}

# 1. no report: held back, said on stdout, nothing recorded
gate kubelet.service 1 "no report"
[ "$(cat "$T/out")" = "NOT READY: no report: hostprep has not finished a run since boot" ] ||
	fail "no report: stdout '$(cat "$T/out")'"
[ -e "$G" ] && fail "no report: $G made"
# 2. not ready at the first start: held back, nothing recorded (an admin's later start waits too)
report not-ready
gate kubelet.service 1 "first start, not ready"
[ "$(cat "$T/out")" = "NOT READY: rdma.port:inspect mlx5_0/1" ] || fail "not ready: stdout '$(cat "$T/out")'"
gate kubelet.service 1 "second try, still not ready"
[ "$(rec kubelet.service)" = none ] || fail "a held-back start was recorded"
# 3. ready: it starts, and the record says this boot
report ready
gate kubelet.service 0 "first start, ready"
[ "$(cat "$T/out")" = "READY: 1 pass" ] || fail "ready: stdout '$(cat "$T/out")'"
[ "$(rec kubelet.service)" = "$ID1" ] || fail "record '$(rec kubelet.service)', want $ID1"
[ "$(stat -c %a "$G/kubelet.service")" = 644 ] || fail "record mode $(stat -c %a "$G/kubelet.service")"
[ "$(stat -c %a "$G")" = 755 ] || fail "gate dir mode $(stat -c %a "$G")"
[ -s "$T/err" ] && fail "ready: stderr '$(cat "$T/err")'"
# 4. the host turns not ready, the daemon is restarted in the same boot: it starts again
report not-ready
gate kubelet.service 0 "restart in the same boot, not ready"
[ "$(cat "$T/out")" = "NOT READY: rdma.port:inspect mlx5_0/1" ] || fail "restart: stdout '$(cat "$T/out")'"
expect_grep err 'kubelet\.service already passed this gate in this boot' "restart: no word on why it starts"
printf 'garbage' >"$R/run/hostprep/report.json"
gate kubelet.service 0 "restart in the same boot, damaged report"
# ... but another unit's first start is held back
report not-ready
gate slurmd.service 1 "another unit's first start, not ready"
# 5. a new boot (a /run that survived): the old record is no pass
echo "$ID2" >"$B"
cp "$B" "$REF/proc/sys/kernel/random/boot_id"
gate kubelet.service 1 "new boot, not ready, record of the last boot"
[ "$(rec kubelet.service)" = "$ID1" ] || fail "a held-back start rewrote the record"
report ready
gate kubelet.service 0 "new boot, ready"
[ "$(rec kubelet.service)" = "$ID2" ] || fail "record '$(rec kubelet.service)', want $ID2"
# 6. a damaged record: ignored (said), the verdict decides; a ready start rewrites it
for bad in garbage "" "${ID2^^}" "$ID2 $ID2"; do
	printf '%s\n' "$bad" >"$G/kubelet.service"
	report not-ready
	gate kubelet.service 1 "damaged record '$bad', not ready"
	expect_grep err "Cannot use the gate's record of kubelet\.service .*Bad message" "damaged record '$bad' not said"
done
report ready
gate kubelet.service 0 "damaged record, ready"
[ "$(rec kubelet.service)" = "$ID2" ] || fail "damaged record not rewritten: '$(rec kubelet.service)'"
# 7. a record others could have written, a symlink to a good one: no pass
report not-ready
chmod 0666 "$G/kubelet.service"
gate kubelet.service 1 "world-writable record"
expect_grep err "Cannot use the gate's record" "world-writable record not said"
rm -f "$G/kubelet.service"
echo "$ID2" >"$R/run/hostprep/elsewhere"
ln -s ../elsewhere "$G/kubelet.service"
gate kubelet.service 1 "symlinked record"
rm -f "$G/kubelet.service" "$R/run/hostprep/elsewhere"
# 8. no boot ID: the verdict decides and nothing is recorded (a record could prove nothing)
rm -f "$B" "$REF/proc/sys/kernel/random/boot_id"
report ready
gate kubelet.service 0 "no boot ID, ready"
expect_grep err 'Cannot read the boot ID' "no boot ID not said"
[ "$(rec kubelet.service)" = none ] || fail "recorded without a boot ID"
report not-ready
gate kubelet.service 1 "no boot ID, not ready"
echo "not-a-boot-id" >"$B"
cp "$B" "$REF/proc/sys/kernel/random/boot_id"
gate kubelet.service 1 "damaged boot ID, not ready"
# 9. the record cannot be written: ready starts anyway, and a later not-ready start waits
echo "$ID1" >"$B"
cp "$B" "$REF/proc/sys/kernel/random/boot_id"
rm -rf "$G"
echo "a file in the way" >"$G"
report ready
gate kubelet.service 0 "unwritable record, ready"
expect_grep err "Cannot record that kubelet\.service passed the gate" "unwritable record not said"
report not-ready
gate kubelet.service 1 "unwritable record, then not ready"
rm -f "$G"
# 10. usage: exit 2, nothing recorded
for args in "" "a.service b.service" "a/b.service" ".hidden" "../x"; do
	# shellcheck disable=SC2086 # words on purpose
	hp gate $args
	expect_rc 2
done
hp gate --oneline kubelet.service
expect_rc 2
[ -e "$G" ] && fail "a usage error made $G"
# only run/hostprep/ changed (treediff ignores it)
expect_tree_same
