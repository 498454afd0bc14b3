# Issue 18: `status --oneline`, the node-problem-detector message: READY with the counts,
# or NOT READY naming the first failing checks, as many as fit in 80 bytes, then "+N
# more"; the exit status is status's; on stdout even when there is no report or it is
# damaged (NPD reads stdout only). The example plugin uses it.
# Issue 27: it names causes, each once (its id, its first object unless "host", "+N" for
# the other results of that cause), never the actual (which repeats the object); READY
# names the areas that warn.
newroot dgx8
hp status --oneline
expect_rc 1
[ "$(cat "$T/out")" = "NOT READY: no report: hostprep has not finished a run since boot" ] ||
	fail "no report: stdout '$(cat "$T/out")'"
useconf gpu-p2p
hp apply
expect_rc 0
hp status --oneline
expect_rc 0
[ "$(cat "$T/out")" = "READY: 24 pass, 2 warn, 1 skip (warn: acs)" ] || fail "ready: '$(cat "$T/out")'"

# one failure: its cause; the object "host" is not worth its bytes
sed -i 's/^Expect=any$/Expect=passthrough/' "$R/etc/hostprep/hostprep.conf" # its one [IOMMU]
hp check
expect_rc 1
hp status --oneline
expect_rc 1
[ "$(cat "$T/out")" = "NOT READY: iommu.mode:config" ] || fail "one failure: '$(cat "$T/out")'"
[ "$(wc -l <"$T/out")" = 1 ] || fail "more than one line"

# many: the first ones that fit, then +N more, within 80 bytes
newroot dgx8
useconf gpu-p2p
hp check
expect_rc 1
hp status --oneline
expect_rc 1
line=$(cat "$T/out")
[ ${#line} -le 80 ] || fail "longer than 80 bytes (${#line}): '$line'"
# the rule, independently: one item per cause (and verdict) of a fail or unknown, in
# report order of its first result: "CAUSE OBJECT +N"; the first always, the next while the
# line with "; +NN more" stays within 80 bytes
hp --json status
mapfile -t items < <(jqo '[.results | to_entries[] | select(.value.verdict == "fail" or .value.verdict == "unknown")]
	| group_by([.value.verdict, .value.cause]) | sort_by(.[0].key)[]
	| "\(.[0].value.cause)\(if .[0].value.object == "host" then "" else " " + .[0].value.object end)\(if length > 1 then " +\(length - 1)" else "" end)"')
want="NOT READY: ${items[0]}"
i=1
while [ $i -lt ${#items[@]} ]; do
	reserve=0
	[ $((${#items[@]} - i)) -gt 1 ] && reserve=12
	[ $((${#want} + 2 + ${#items[$i]} + reserve)) -le 80 ] || break
	want="$want; ${items[$i]}"
	i=$((i + 1))
done
[ $i -lt ${#items[@]} ] && want="$want; +$((${#items[@]} - i)) more"
[ "$line" = "$want" ] || fail "many problems: got '$line', want '$want'"
[ "$line" = "NOT READY: acs:apply 0000:15:01.0 +11" ] || fail "dgx8: 12 ACS ports are one cause: '$line'"
# the object is not repeated: no actual on the line
case $line in *0x001d*) fail "the actual is on the line: '$line'" ;; esac

# an IB host with several causes: each once, its ports counted
newroot ib-gpu
useconf rdma-ib-gpu
for d in mlx5_1 mlx5_2 mlx5_3; do
	echo "1: DOWN" >"$R/sys/class/infiniband/$d/ports/1/state"
	echo "2: Polling" >"$R/sys/class/infiniband/$d/ports/1/phys_state"
done
hp check
expect_rc 1
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: rdma\.port:down mlx5_1/1 \+2; rdma\.ports:cable Port:rails' \
	"IB causes: '$(cat "$T/out")'"
[ "$(grep -o 'rdma\.port:down' "$T/out" | wc -l)" = 1 ] || fail "a cause named twice: '$(cat "$T/out")'"

# short items: several fit on the line (a report as a run writes it, results short)
res() { printf '{"check":"%s","object":"%s","expected":"x","actual":"%s","verdict":"%s","remedy":null}' "$@"; }
{
	printf '{"schema":1,"version":"0.1.0","command":"apply","host":"h","time":"2026-11-25T00:00:00Z",'
	printf '"apply":true,"ready":false,"summary":{"pass":1,"skip":0,"warn":0,"unknown":1,"fail":3,"total":5},"results":['
	printf '%s,' "$(res rdma.port mlx5_0/1 DOWN/Polling fail)" "$(res acs 0000:17:00.0 0x001d pass)" \
		"$(res bond bond0 '1 of 2' fail)" "$(res module erdma missing unknown)"
	printf '%s]}\n' "$(res rdma.port mlx5_1/1 DOWN/Polling fail)"
} >"$R/run/hostprep/report.json"
hp status --oneline
expect_rc 1
# (a report from before causes: CHECK:inspect, as hostprep's reader takes it)
[ "$(cat "$T/out")" = "NOT READY: rdma.port:inspect mlx5_0/1 +1; bond:inspect bond0; +1 more" ] ||
	fail "short items: '$(cat "$T/out")'"
# a damaged report: not ready, said on stdout
printf 'garbage' >"$R/run/hostprep/report.json"
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: the last report cannot be used' "damaged report: stdout '$(cat "$T/out")'"

# usage: with status only, not with --json
hp check --oneline
expect_rc 2
expect_grep err '--oneline is an option of status, not of check'
hp --json status --oneline
expect_rc 2
expect_grep err '--oneline is not with --json'

# the NPD example runs it
J=$HERE/../../fleet/kubernetes/npd/hostprep-plugin.json
[ "$(jq -c '.rules[0].args' "$J")" = '["status","--oneline"]' ] ||
	fail "the NPD plugin does not run 'status --oneline': $(jq -c '.rules[0].args' "$J")"
