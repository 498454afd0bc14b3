#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent oracle for `hostprep topology --json` on a fake root.

    topo_oracle.py ROOT JSON      exit 0 when they agree, else print each difference

Distances from the sysfs realpath chains and numa_node alone (written apart from the C,
on purpose), ACS Control words from `setpci ECAP_ACS+0x6.w` (pciutils):
  - the path components between "pciDDDD:BB" and the device are the bridges; the first
    is the root port, then upstream/downstream ports in turn, so a switch is the pair
    (component 2k-1, 2k);
  - PIX: one switch between, PXB: more, PHB: same pciDDDD:BB, NODE/SYS by numa_node
    (-1 on both: NODE, on one: SYS);
  - every ingress port named in a pair sits right below the lowest common switch, on the
    side of its endpoint; its Control equals setpci's and its redirect bits are
    Control & (RR|CR|EC).
"""
import json
import os
import subprocess
import sys


def chain(root, bdf):
    real = os.path.realpath(os.path.join(root, "sys/bus/pci/devices", bdf))
    parts = real.split("/")
    i = max(k for k, p in enumerate(parts) if p.startswith("pci"))
    return parts[i], parts[i + 1:]


def numa(root, bdf):
    try:
        with open(os.path.join(root, "sys/bus/pci/devices", bdf, "numa_node")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return -1


def same_device(a, b):
    return a[:-1] == b[:-1] and a[-1].split(".")[0] == b[-1].split(".")[0]


def distance(root, a, b):
    ha, ca = chain(root, a)
    hb, cb = chain(root, b)
    if same_device(ca, cb):
        return "PIX", None
    if ha != hb or ca[0] != cb[0]:
        if ha == hb:
            return "PHB", None
        na, nb = numa(root, a), numa(root, b)
        if na < 0 and nb < 0:
            return "NODE", None
        return ("NODE" if na == nb else "SYS"), None
    p = 0
    while ca[p] == cb[p]:
        p += 1
    # ca[p-1] is the meeting bridge; index 0 root port, odd upstream, even downstream
    if p - 1 == 0:
        return "PHB", None
    switches = {(p - 1 + 1) // 2}
    for c in (ca, cb):
        for k in range(p, len(c) - 1):
            switches.add((k + 1) // 2)
    ingress = (ca[p], cb[p]) if (p - 1) % 2 == 1 else None
    return ("PIX" if len(switches) == 1 else "PXB"), ingress


def setpci_ctrl(root, bdf):
    r = subprocess.run(["setpci", "-A", "linux-sysfs", "-O",
                        "sysfs.path=%s/sys/bus/pci" % root, "-s", bdf, "ECAP_ACS+0x6.w"],
                       capture_output=True, text=True)
    return int(r.stdout, 16) if r.returncode == 0 and r.stdout.strip() else None


def main(root, path):
    doc = json.load(open(path))
    devs = doc["devices"]
    bad = []
    for i, a in enumerate(devs):
        for j, b in enumerate(devs):
            want = "X" if i == j else distance(root, a["address"], b["address"])[0]
            if doc["matrix"][i][j] != want:
                bad.append("%s-%s: %s, oracle %s" % (a["id"], b["id"], doc["matrix"][i][j], want))
    ids = {d["id"]: d["address"] for d in devs}
    for pair in doc["pairs"]:
        d, ingress = distance(root, ids[pair["a"]], ids[pair["b"]])
        if d not in ("PIX", "PXB", "PHB"):
            d = "NODE"
        if pair["distance"] != d:
            bad.append("pair %s-%s: %s, oracle %s" % (pair["a"], pair["b"], pair["distance"], d))
        ports = [p for p in pair["ports"] if p["role"] == "ingress"]
        if ingress and [p["address"] for p in ports] != list(ingress):
            bad.append("pair %s-%s: ports %s, oracle %s" % (
                pair["a"], pair["b"], [p["address"] for p in ports], ingress))
        for p in pair["ports"]:
            ctrl = setpci_ctrl(root, p["address"])
            if p["acs"] == "known":
                if ctrl is None or int(p["control"], 16) != ctrl:
                    bad.append("%s: control %s, setpci %s" % (p["address"], p["control"], ctrl))
                bits = [n for n, m in (("RR", 4), ("CR", 8), ("EC", 0x20)) if ctrl and ctrl & m]
                if p["redirect"] != bits:
                    bad.append("%s: redirect %s, oracle %s" % (p["address"], p["redirect"], bits))
            elif p["acs"] == "none" and ctrl is not None:
                bad.append("%s: says no ACS, setpci reads %04x" % (p["address"], ctrl))
        redirected = any(p["redirect"] for p in pair["ports"])
        if redirected != (pair["p2p"] == "redirected"):
            bad.append("pair %s-%s: p2p %s" % (pair["a"], pair["b"], pair["p2p"]))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
