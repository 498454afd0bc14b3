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
done < <("$V" "$K"/*.yaml "$K"/npd/*.yaml)
[ $n -ge 4 ] || fail kubernetes-valid "only $n objects validated"

# The contracts between the pieces (each line: ok NAME or fail NAME: why).
out=$(tests/fleet/k8s-contracts.py "$K" 2>&1)
rc=$?
echo "$out"
grep -q '^fail ' <<<"$out" && FAILED=1
[ $rc = 0 ] || fail kubernetes-contracts "the contract checker crashed (exit $rc)"

# The DaemonSet's readiness probe, run as the kubelet would: its command, with the script
# from the manifest's own ConfigMap at its mount point and the report at /run/hostprep,
# against reports hostprep wrote (ready, not ready) and the same ready report compact
# (jq -c): a probe that reads one layout of the JSON would call it not ready.
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-k8s.XXXXXX")
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 - "$K/daemonset.yaml" "$T" <<'PY' || fail kubernetes-daemonset-probe "cannot read the probe from the manifest"
import sys, yaml
docs = [x for x in yaml.safe_load_all(open(sys.argv[1])) if x]
ds = [d for d in docs if d["kind"] == "DaemonSet"][0]["spec"]["template"]["spec"]
c = ds["containers"][0]
cms = {d["metadata"]["name"]: d["data"] for d in docs if d["kind"] == "ConfigMap"}
vols = {v["name"]: v for v in ds["volumes"]}
with open(sys.argv[2] + "/probe", "w") as f:
    for m in c.get("volumeMounts", []):
        v = vols[m["name"]]
        if "configMap" in v:  # the mount's files
            for k, data in cms[v["configMap"]["name"]].items():
                f.write(f"file {m['mountPath']}/{k}\n")
                open(f"{sys.argv[2]}/cm-{k}", "w").write(data)
    f.write("cmd " + "\x1f".join(c["readinessProbe"]["exec"]["command"]) + "\n")
PY
probe() { # REPORT: the probe's exit status with the report at /run/hostprep/report.json
	local cmd a args=()
	cmd=$(sed -n 's/^cmd //p' "$T/probe")
	IFS=$'\x1f' read -r -a args <<<"$cmd"
	for a in "${!args[@]}"; do
		case ${args[$a]} in
		/run/hostprep/report.json) args[$a]=$1 ;;
		*) while read -r _ p; do [ "${args[$a]}" = "$p" ] && args[$a]=$T/cm-${p##*/}; done < <(grep '^file ' "$T/probe") ;;
		esac
	done
	env -i PATH=/usr/bin:/bin "${args[@]}" >/dev/null 2>&1
}
strip() { sed '${/^\[exit [0-9]*\]$/d}' "$1"; }
strip tests/fake/golden/dgx8-apply.json >"$T/ready.json"
strip tests/fake/golden/2socket-topology-check.json >"$T/not.json"
jq -c . "$T/ready.json" >"$T/ready-compact.json"
probe "$T/ready.json"; r1=$?
probe "$T/not.json"; r2=$?
probe "$T/ready-compact.json"; r3=$?
probe "$T/absent.json"; r4=$?
if [ "$r1 $r2 $r3 $r4" = "0 1 0 1" ]; then
	ok kubernetes-daemonset-probe-parses-the-report
else
	fail kubernetes-daemonset-probe-parses-the-report "ready $r1, not ready $r2, ready compact $r3, no report $r4 (want 0 1 0 1)"
fi
finish
