#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The contracts between fleet/kubernetes' pieces that no schema sees (tests/fleet case 30).

  k8s-contracts.py DIR   one "ok NAME" or "fail NAME: why" line per contract

The names hostprep writes (the fake tier's golden NFD file, made by the real binary), the
condition NPD sets, the taint the kubelet registers (README.md), the taints the rules
manage and the DaemonSet tolerates, and what the DaemonSet may do.
"""
import json, re, sys, yaml
K = sys.argv[1]
def docs(f):
    return [d for d in yaml.safe_load_all(open(f"{K}/{f}")) if d]
def check(name, cond, why):
    print(f"ok {name}" if cond else f"fail {name}: {why}")

npd = json.load(open(f"{K}/npd/hostprep-plugin.json"))
nrr = docs("nodereadinessrule.yaml")[0]["spec"]
nfr = docs("nodefeaturerule.yaml")[0]["spec"]["rules"][0]
ds = [d for d in docs("daemonset.yaml") if d["kind"] == "DaemonSet"][0]["spec"]["template"]["spec"]
readme = open(f"{K}/README.md").read()
nfd_file = open("tests/fake/golden/sink-dgx8-check.nfd").read()
ready_label = "feature.node.kubernetes.io/hostprep.ready"

conds = {c["type"] for c in npd["conditions"]}
check("kubernetes-nrr-reads-npd-condition",
      [c["type"] for c in nrr["conditions"]] == ["HostprepNotReady"] and "HostprepNotReady" in conds
      and nrr["conditions"][0]["requiredStatus"] == "False",
      f"NRR conditions {nrr['conditions']} vs NPD's {conds}")
key = nrr["taint"]["key"]
# the CRD's CEL rules on the taint, evaluated here (k8s-validate.py does not run CEL)
check("kubernetes-nrr-taint-key-cel",
      key.startswith("readiness.k8s.io/") and len(key.split("/")) == 2 and
      re.fullmatch(r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?", key.split("/")[1]) and
      len(key.split("/")[1]) <= 63 and len(nrr["taint"].get("value", "")) <= 63 and
      nrr["taint"]["effect"] in ("NoSchedule", "PreferNoSchedule", "NoExecute"),
      f"taint {nrr['taint']} breaks the CRD's rules")
reg = f"--register-with-taints={key}={nrr['taint']['value']}:{nrr['taint']['effect']}"
check("kubernetes-registration-taint-is-the-rules", reg in readme,
      f"README.md does not register the NRR's taint ({reg})")
sel = nrr["nodeSelector"]["matchExpressions"]
check("kubernetes-nrr-selects-hostprep-nodes",
      sel == [{"key": ready_label, "operator": "Exists"}] and f"\n{ready_label}=" in "\n" + nfd_file,
      f"nodeSelector {sel} vs the label hostprep writes")
expr = nfr["matchFeatures"][0]
check("kubernetes-nfd-rule-reads-hostprep-label",
      expr["feature"] == "local.label" and
      expr["matchExpressions"] == {ready_label: {"op": "In", "value": ["false"]}} and
      f"{ready_label}=false" in nfd_file,
      f"{expr} does not match what hostprep writes ({nfd_file.splitlines()[0]})")
nt = nfr["taints"][0]["key"]
check("kubernetes-nfd-taint-namespace",
      re.fullmatch(r"([a-z0-9-]+\.)*feature\.node\.kubernetes\.io/[A-Za-z0-9][-A-Za-z0-9_.]*", nt) is not None,
      f"{nt}: NFD manages taints under feature.node.kubernetes.io/ only")
tol = {(t["key"], t.get("effect")) for t in ds.get("tolerations", [])}
check("kubernetes-daemonset-tolerates-the-taints",
      (key, nrr["taint"]["effect"]) in tol and (nt, nfr["taints"][0]["effect"]) in tol,
      f"tolerations {tol} miss {key} or {nt}: it could not run where it is needed")
init = ds["initContainers"][0]
cmd = " ".join(init["command"])
check("kubernetes-daemonset-runs-the-hosts-hostprep",
      ds.get("hostPID") is True and "nsenter --target 1 --mount" in cmd and
      "/usr/bin/hostprep apply" in cmd and not ds.get("hostNetwork") and
      all(v.get("hostPath", {}).get("path") == "/run/hostprep" for v in ds.get("volumes", [])),
      "the DaemonSet must nsenter into PID 1 and run the host's /usr/bin/hostprep, with no other host mount")
main = ds["containers"][0]
sc = main["securityContext"]
check("kubernetes-daemonset-watcher-unprivileged",
      not sc.get("privileged") and sc.get("runAsNonRoot") and sc["capabilities"]["drop"] == ["ALL"]
      and sc.get("allowPrivilegeEscalation") is False and
      all(m.get("readOnly") for m in main.get("volumeMounts", [])) and
      ds.get("automountServiceAccountToken") is False,
      f"the status container has more than it needs: {sc}")
