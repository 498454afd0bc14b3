#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/prometheus/grafana-dashboard.json: valid JSON with the fields Grafana's import
# needs (title, uid, panels with unique ids, a type, a grid position and targets), every
# panel query valid PromQL (promtool parses each as a recording rule's expression: it
# has no offline query checker) that reads only metrics hostprep or node_exporter write.
. tests/fleet/lib.sh
D=fleet/prometheus/grafana-dashboard.json
need jq grafana-dashboard-json || finish
need promtool grafana-dashboard-promql || finish
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if jq -e '(.title | type == "string") and (.uid | test("^[a-zA-Z0-9_-]{1,40}$")) and
	(.panels | length > 0) and ([.panels[].id] | length == (unique | length)) and
	all(.panels[]; (.type | type == "string") and (.gridPos | .h > 0 and .w > 0 and .x + .w <= 24) and
		(.targets | length > 0) and all(.targets[]; .expr | type == "string" and length > 0))' \
	"$D" >/dev/null 2>"$T/err"; then
	ok grafana-dashboard-json
else
	fail grafana-dashboard-json "$D lacks what Grafana's import needs: $(cat "$T/err")"
fi

{
	echo 'groups: [{name: dashboard, rules: ['
	jq -r '.panels[] | .targets[] | .expr | @json | "  {record: \"dashboard:q\", expr: \(.)},"' "$D"
	echo ']}]'
} >"$T/rules.yml"
if promtool check rules "$T/rules.yml" >"$T/out" 2>&1; then
	ok "grafana-dashboard-promql ($(jq '[.panels[].targets[]] | length' "$D") queries)"
else
	fail grafana-dashboard-promql "$(tr '\n' ' ' <"$T/out")"
fi

G=tests/fake/golden/sink-dgx8-check.prom
bad=()
for m in $(jq -r '.panels[].targets[].expr' "$D" | grep -o '\b[a-z_]*_[a-z_]*\b' | grep -E '^(hostprep|node)_' | sort -u); do
	case $m in node_boot_time_seconds) continue ;; esac # node_exporter's own
	grep -q "^$m[{ ]" "$G" || bad+=("$m")
done
if [ ${#bad[@]} -eq 0 ]; then
	ok grafana-dashboard-reads-real-metrics
else
	fail grafana-dashboard-reads-real-metrics "not in hostprep's textfile: ${bad[*]}"
fi
finish
