#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/prometheus: the alerting rules load (promtool check rules), pass their unit tests
# (promtool test rules), those tests fail when a rule's threshold, "for:" or comparison
# is moved by one step (so they pin each edge), and every hostprep metric the rules read
# is one hostprep's textfile really has (the fake tier's golden of a real run).
. tests/fleet/lib.sh
P=fleet/prometheus
need promtool prometheus-rules || finish
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if promtool check rules "$P/hostprep-rules.yml" >"$T/out" 2>&1; then
	ok prometheus-check-rules
else
	fail prometheus-check-rules "$(tr '\n' ' ' <"$T/out")"
fi
if (cd "$P" && promtool test rules hostprep-rules.test.yml) >"$T/out" 2>&1; then
	ok prometheus-test-rules
else
	cat "$T/out"
	fail prometheus-test-rules "promtool test rules failed"
fi

# Each mutant must make the tests fail.
mutants=(
	's/changes(hostprep:check_bad\[2h\]) >= 4/changes(hostprep:check_bad[2h]) >= 3/'
	's/changes(hostprep_ready\[2h\]) >= 4/changes(hostprep_ready[2h]) >= 5/'
	's/for: 15m/for: 14m/'
	's/< on (instance, job) node_boot_time_seconds/<= on (instance, job) node_boot_time_seconds/'
	's/verdict=~"fail|unknown"/verdict=~"fail"/'
	's/(count by (version) (hostprep_info)) > 1/(count by (version) (hostprep_info)) > 2/'
	's/(hostprep_info{host_class!=""})) > 1/(hostprep_info{host_class!=""})) > 2/'
	's/(hostprep_info{host_class!=""})) > 1/(hostprep_info)) > 1/'
	's/count by (host_class) (count by (host_class, config_digest)/count (count by (config_digest)/'
	's/for: 30m/for: 29m/'
	's/up{job="node"} == 1 unless/up{job="node"} >= 0 unless/'
	's/up{job="node"} == 1 unless/up == 1 unless/'
	's/expr: hostprep_ready == 0/expr: hostprep_ready < 0/'
	's/(hostprep:nvidia_driver:hosts < on/(hostprep:nvidia_driver:hosts <= on/'
	's/(hostprep:gpu_vbios:hosts < on/(hostprep:gpu_vbios:hosts <= on/'
	's/(hostprep:rdma_firmware:hosts < on/(hostprep:rdma_firmware:hosts <= on/'
	's/(hostprep:pcie_topology:hosts < on/(hostprep:pcie_topology:hosts <= on/'
	's/max by (instance, board_id, firmware)/max by (instance, firmware)/'
	's/(count by (instance, model) (hostprep_gpu_info)) > 1)/(count by (instance, model) (hostprep_gpu_info)) > 2)/'
	's/for: 1h$/for: 59m/'
)
survived=()
for m in "${mutants[@]}"; do
	sed "$m" "$P/hostprep-rules.yml" >"$T/hostprep-rules.yml"
	cmp -s "$P/hostprep-rules.yml" "$T/hostprep-rules.yml" && { survived+=("(no match) $m"); continue; }
	cp "$P/hostprep-rules.test.yml" "$T/"
	(cd "$T" && promtool test rules hostprep-rules.test.yml) >/dev/null 2>&1 && survived+=("$m")
done
if [ ${#survived[@]} -eq 0 ]; then
	ok "prometheus-tests-pin-edges (${#mutants[@]} mutants killed)"
else
	fail prometheus-tests-pin-edges "survived: ${survived[*]}"
fi

# The metrics the rules read, against textfiles hostprep wrote (tests/fake 160's and 670's
# goldens: 670's host has RDMA devices).
G=tests/fake/golden/sink-dgx8-check.prom
G2=tests/fake/golden/sink-ib-gpu-facts.prom
missing=()
for m in $(grep -o 'hostprep_[a-z_]*' "$P/hostprep-rules.yml" | sort -u); do
	grep -q "^$m[{ ]" "$G" "$G2" || missing+=("$m")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok prometheus-rules-read-real-metrics
else
	fail prometheus-rules-read-real-metrics "not in hostprep's textfile ($G): ${missing[*]}"
fi
finish
