#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/kubernetes: every manifest valid against the Kubernetes 1.22 models of Debian 12's
# python3-kubernetes (built-in kinds) or its CRD's schema (NodeFeatureRule from NFD
# v0.19.0, NodeReadinessRule from node-readiness-controller v0.5.0), with
# tests/fleet/k8s-validate.py, which must refuse each broken manifest of k8s-bad/ for the
# reason it names; then the contracts between the pieces, which no schema sees: the
# names hostprep writes, the condition NPD sets, the taint the kubelet registers, the
# taints the rules manage and the DaemonSet tolerates.
. tests/fleet/lib.sh
K=fleet/kubernetes
V=tests/fleet/k8s-validate.py
if ! /usr/bin/python3 -c 'import kubernetes, yaml' 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		fail kubernetes-validator "python3-kubernetes missing (tests/deps.sh fleet installs it)"
	else
		skip kubernetes-validator "python3-kubernetes missing (tests/deps.sh fleet installs it)"
	fi
	finish
fi

for f in tests/fleet/k8s-bad/*.yaml; do
	want=$(sed -n 's/^# expect: //p' "$f")
	out=$("$V" "$f")
	if [ -z "$want" ]; then
		fail "kubernetes-validator-refuses $(basename "$f")" "no '# expect:' line"
	elif grep -qF -- "$want" <<<"$out" && ! grep -q '^ok ' <<<"$out"; then
		ok "kubernetes-validator-refuses $(basename "$f")"
	else
		fail "kubernetes-validator-refuses $(basename "$f")" "wanted '$want', got: $out"
	fi
done

n=0
while IFS= read -r line; do
	case $line in
	"ok "*) ok "kubernetes-valid ${line#ok }" ;;
	*) fail kubernetes-valid "$line" ;;
	esac
	n=$((n + 1))
done < <("$V" "$K"/*.yaml)
[ $n -ge 4 ] || fail kubernetes-valid "only $n objects validated"

# The contracts between the pieces (each line: ok NAME or fail NAME: why).
out=$(tests/fleet/k8s-contracts.py "$K" 2>&1)
rc=$?
echo "$out"
grep -q '^fail ' <<<"$out" && FAILED=1
[ $rc = 0 ] || fail kubernetes-contracts "the contract checker crashed (exit $rc)"

# The DaemonSet's readiness probe (grep of the report) against reports hostprep wrote.
pat=$(/usr/bin/python3 -c '
import sys, yaml
d = [x for x in yaml.safe_load_all(open(sys.argv[1])) if x and x["kind"] == "DaemonSet"][0]
print(d["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["exec"]["command"][2])' "$K/daemonset.yaml")
if grep -qx -- "$pat" tests/fake/golden/dgx8-apply.json &&
	! grep -qx -- "$pat" tests/fake/golden/2socket-topology-check.json; then
	ok kubernetes-daemonset-probe-reads-the-report
else
	fail kubernetes-daemonset-probe-reads-the-report "'$pat' does not tell a ready report from a not-ready one"
fi
finish
