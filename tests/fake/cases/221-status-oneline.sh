# Issue 18: `status --oneline`, the node-problem-detector message: READY with the counts,
# or NOT READY naming the first failing checks (check, object, what was seen), as many
# as fit in 80 bytes, then "+N more"; the exit status is status's; on stdout even when
# there is no report or it is damaged (NPD reads stdout only). The example plugin uses it.
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
[ "$(cat "$T/out")" = "READY: 24 pass, 2 warn, 1 skip" ] || fail "ready: '$(cat "$T/out")'"

# one failure: named in full (the actual cut at 40 bytes)
printf '[IOMMU]\nExpect=passthrough\n' >>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
hp status --oneline
expect_rc 1
[ "$(cat "$T/out")" = "NOT READY: iommu.mode host translated (units: dmar0,dmar1; groups:..." ] ||
	fail "one failure: '$(cat "$T/out")'"
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
# the rule, independently: items in report order, the first always, the next while the
# line with "; +NN more" stays within 80 bytes
hp --json status
mapfile -t items < <(jqo '.results[] | select(.verdict == "fail" or .verdict == "unknown") | "\(.check) \(.object)\t\(.actual)"')
# each actual cut after 40 bytes, trailing blanks dropped, "..." (the fixture's texts are ASCII)
cut_after() { # TEXT KEEP: TEXT longer than KEEP -> its first KEEP bytes, blanks dropped, "..."
	local a=$1
	[ ${#a} -le "$2" ] && { printf '%s' "$a"; return; }
	a=${a:0:$2}
	printf '%s...' "${a%"${a##*[! ]}"}"
}
cut() { # TEXT MAX: at most MAX bytes, "..." included
	if [ ${#1} -le "$2" ]; then printf '%s' "$1"; else cut_after "$1" $(($2 - 3)); fi
}
for k in "${!items[@]}"; do
	items[k]="${items[$k]%%$'\t'*} $(cut_after "${items[$k]#*$'\t'}" 40)"
done
# the first always, itself cut so that "; +NN more" still fits
want="NOT READY: $(cut "${items[0]}" $((80 - 11 - (${#items[@]} > 1 ? 12 : 0))))"
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
[ ${#items[@]} -gt 2 ] || fail "the fixture has too few problems to test '+N more'"

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
[ "$(cat "$T/out")" = "NOT READY: rdma.port mlx5_0/1 DOWN/Polling; bond bond0 1 of 2; +2 more" ] ||
	fail "short items: '$(cat "$T/out")'"
# a damaged report: not ready, said on stdout
printf 'garbage' >"$R/run/hostprep/report.json"
hp status --oneline
expect_rc 1
expect_grep out '^NOT READY: the last report cannot be used' "damaged report: stdout '$(cat "$T/out")'"

# usage: with status only, not with --json
hp check --oneline
expect_rc 2
hp --json status --oneline
expect_rc 2

# the NPD example runs it
J=$HERE/../../fleet/kubernetes/npd/hostprep-plugin.json
[ "$(jq -c '.rules[0].args' "$J")" = '["status","--oneline"]' ] ||
	fail "the NPD plugin does not run 'status --oneline': $(jq -c '.rules[0].args' "$J")"
