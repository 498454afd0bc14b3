#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The contracts between fleet/kubernetes' pieces that no schema sees (tests/fleet case 30).

  k8s-contracts.py DIR   one "ok NAME" or "fail NAME: why" line per contract

The names hostprep writes (the fake tier's golden NFD file, made by the real binary), the
condition NPD sets, the taint the kubelet registers (README.md), the taints the rules
manage and the DaemonSet tolerates, and what the DaemonSet may do; the report reader
(hostprep-report-status) shipped inside the ConfigMaps is the file's bytes, and the probe
and the NPD plugin run it from where the ConfigMaps are mounted; the Pod Security levels
README.md states, checked with baseline's rules (pss_baseline below).
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
      [v["hostPath"]["path"] for v in ds.get("volumes", []) if "hostPath" in v] == ["/run/hostprep"],
      "the DaemonSet must nsenter into PID 1 and run the host's /usr/bin/hostprep, with no other host mount")
main = ds["containers"][0]
sc = main["securityContext"]
check("kubernetes-daemonset-watcher-unprivileged",
      not sc.get("privileged") and sc.get("runAsNonRoot") and sc["capabilities"]["drop"] == ["ALL"]
      and sc.get("allowPrivilegeEscalation") is False and
      all(m.get("readOnly") for m in main.get("volumeMounts", [])) and
      ds.get("automountServiceAccountToken") is False,
      f"the status container has more than it needs: {sc}")

# The report reader: one file, copied into two ConfigMaps; the probe and NPD run that copy.
reader = open(f"{K}/hostprep-report-status").read()
ds_cm = [d for d in docs("daemonset.yaml") if d["kind"] == "ConfigMap"][0]
npd_cm = docs("npd/configmap.yaml")[0]
npd_c = json.load(open(f"{K}/npd/hostprep-plugin-container.json"))
check("kubernetes-reader-configmaps-are-the-file",
      ds_cm["data"].get("hostprep-report-status") == reader and
      npd_cm["data"].get("hostprep-report-status") == reader and
      npd_cm["data"].get("hostprep-plugin-container.json") == open(f"{K}/npd/hostprep-plugin-container.json").read(),
      "a ConfigMap's copy differs from fleet/kubernetes/hostprep-report-status or the plugin file: run tests/fleet/k8s-embed.py")
mounts = {m["name"]: m["mountPath"] for m in main.get("volumeMounts", [])}
cmvol = [v["name"] for v in ds.get("volumes", []) if v.get("configMap", {}).get("name") == ds_cm["metadata"]["name"]]
probe = main["readinessProbe"]["exec"]["command"]
check("kubernetes-daemonset-probe-runs-the-reader",
      len(cmvol) == 1 and cmvol[0] in mounts and
      probe == ["/bin/sh", mounts[cmvol[0]] + "/hostprep-report-status", "/run/hostprep/report.json"] and
      mounts.get("run-hostprep") == "/run/hostprep",
      f"probe {probe} does not run the ConfigMap's reader on the mounted report")
rule = npd_c["rules"][0]
check("kubernetes-npd-container-plugin-runs-the-reader",
      rule["path"] == "/bin/sh" and rule["args"] == ["/etc/hostprep-npd/hostprep-report-status", "/run/hostprep/report.json"]
      and "/etc/hostprep-npd/hostprep-plugin-container.json" in open(f"{K}/npd/README.md").read()
      and npd_c["conditions"] == npd["conditions"] and rule["condition"] == npd["rules"][0]["condition"],
      f"the container plugin {rule} does not run the reader, or its condition is not the host plugin's")


# Pod Security Standards, "baseline" (kubernetes.io/docs/concepts/security/pod-security-standards/):
# the controls that a pod spec can break, each returning why.
BASELINE_CAPS = {"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD",
                 "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"}
SAFE_SYSCTLS = {"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
                "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
                "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                "net.ipv4.tcp_keepalive_probes"}
SELINUX_TYPES = {None, "", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}


def pss_baseline(spec):
    bad = []
    for k in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(k):
            bad.append(k)
    scs = [("pod", spec.get("securityContext") or {})]
    for kind in ("initContainers", "containers", "ephemeralContainers"):
        for c in spec.get(kind) or []:
            scs.append((c["name"], c.get("securityContext") or {}))
            if any(p.get("hostPort") for p in c.get("ports") or []):
                bad.append(f"{c['name']}: hostPort")
    for who, sc in scs:
        if (sc.get("windowsOptions") or {}).get("hostProcess"):
            bad.append(f"{who}: hostProcess")
        if sc.get("privileged"):
            bad.append(f"{who}: privileged")
        added = set((sc.get("capabilities") or {}).get("add") or []) - BASELINE_CAPS
        if added:
            bad.append(f"{who}: capabilities {sorted(added)}")
        if (sc.get("seccompProfile") or {}).get("type") == "Unconfined":
            bad.append(f"{who}: seccomp Unconfined")
        if sc.get("procMount", "Default") != "Default":
            bad.append(f"{who}: procMount")
        se = sc.get("seLinuxOptions") or {}
        if se.get("type") not in SELINUX_TYPES or se.get("user") or se.get("role"):
            bad.append(f"{who}: seLinuxOptions")
        if (sc.get("appArmorProfile") or {}).get("type") == "Unconfined":
            bad.append(f"{who}: appArmor Unconfined")
    for v in spec.get("volumes") or []:
        if "hostPath" in v:
            bad.append(f"hostPath volume {v['name']}")
    for s_ in (spec.get("securityContext") or {}).get("sysctls") or []:
        if s_["name"] not in SAFE_SYSCTLS:
            bad.append(f"sysctl {s_['name']}")
    return bad


def pod_specs(f):
    for d in docs(f):
        t = d.get("spec", {}).get("template", {}).get("spec") if d["kind"] != "Pod" else d["spec"]
        if t:
            yield d, t


wl = list(pod_specs("baseline-workload.yaml"))
ns = [d for d in docs("baseline-workload.yaml") if d["kind"] == "Namespace"][0]
check("kubernetes-baseline-workload-passes-baseline",
      wl and all(not pss_baseline(t) for _, t in wl) and
      ns["metadata"]["labels"].get("pod-security.kubernetes.io/enforce") == "baseline" and
      all(d["metadata"]["namespace"] == ns["metadata"]["name"] for d, _ in wl),
      f"{[(d['metadata']['name'], pss_baseline(t)) for d, t in wl]} in a namespace that enforces baseline")
terms = wl[0][1]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
check("kubernetes-baseline-workload-asks-for-hostprep-ready",
      terms == [{"matchExpressions": [{"key": ready_label, "operator": "In", "values": ["true"]}]}] and
      f"\n{ready_label}=" in "\n" + nfd_file,
      f"{terms}: the workload must require {ready_label}=true, the label hostprep writes")
# the checker can fail: the DaemonSet breaks exactly these baseline controls, as README.md says
ds_bad = pss_baseline(ds)
check("kubernetes-daemonset-is-privileged-level",
      ds_bad == ["hostPID", "apply: privileged", "hostPath volume run-hostprep"] and
      "| `daemonset.yaml` | privileged |" in readme and "| `baseline-workload.yaml` | baseline |" in readme,
      f"baseline violations {ds_bad}, or README.md's privilege table does not say so")
