#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An independent reader of p2p.json (docs/p2p-schema.md), as a job would run it
(unprivileged). It checks the document field by field against what it derives from the
sysfs tree itself: each device's parent port (the sysfs path) and that port's ACS Control
(the extended capability list of its config file, walked here, not by hostprep).

usage: p2p_reader.py P2P_JSON ROOT [redirected|direct]   exit 0: agrees; 1: says why
"""
import json
import os
import sys

REDIRECT = 0x0004 | 0x0008 | 0x0020  # RR CR EC
KNOWN = {"1da3:1020": "Habana Gaudi2", "8086:e223": "Intel Arc Pro B70"}


def acs_ctrl(root, bdf):
    with open(os.path.join(root, "sys/bus/pci/devices", bdf, "config"), "rb") as f:
        cfg = f.read()
    off = 0x100
    while off and off + 4 <= len(cfg):
        hdr = int.from_bytes(cfg[off:off + 4], "little")
        if hdr & 0xffff == 0x000d:
            return int.from_bytes(cfg[off + 6:off + 8], "little")
        off = hdr >> 20
    return None


def parent(root, bdf):
    link = os.readlink(os.path.join(root, "sys/bus/pci/devices", bdf))
    return link.rstrip("/").split("/")[-2]


def ident(root, bdf):
    d = os.path.join(root, "sys/bus/pci/devices", bdf)
    v = open(os.path.join(d, "vendor")).read().strip()[2:]
    dv = open(os.path.join(d, "device")).read().strip()[2:]
    return "%s:%s" % (v, dv)


def main(path, root, want):
    errs = []
    doc = json.load(open(path))
    if doc.get("schema") != 1:
        return ["schema %r, want 1" % doc.get("schema")]
    devs = {d["id"]: d for d in doc["devices"]}
    gpus = sorted(b for b in os.listdir(os.path.join(root, "sys/bus/pci/devices"))
                  if ident(root, b) in KNOWN)
    want_ids = ["GPU%d" % i for i in range(len(gpus))] + ["NIC0"]
    if [d["id"] for d in doc["devices"]] != want_ids:
        errs.append("devices %s, want %s" % ([d["id"] for d in doc["devices"]], want_ids))
    for i, bdf in enumerate(gpus):
        d = devs.get("GPU%d" % i, {})
        exp = {"kind": "gpu", "pci": bdf, "vendor_device": ident(root, bdf),
               "known_accelerator": KNOWN[ident(root, bdf)], "numa_node": 0, "name": bdf}
        for k, v in exp.items():
            if d.get(k) != v:
                errs.append("GPU%d.%s = %r, want %r" % (i, k, d.get(k), v))
    nic = devs.get("NIC0", {})
    if (nic.get("kind"), nic.get("pci"), nic.get("name"), nic.get("known_accelerator")) != \
            ("nic", "0000:07:00.0", "mlx5_0", None):
        errs.append("NIC0 = %r" % nic)
    pci = {k: v["pci"] for k, v in devs.items()}
    pairs = {(p["a"], p["b"]): p for p in doc["pairs"]}
    want_pairs = [(a, b) for i, a in enumerate(want_ids[:-1]) for b in want_ids[i + 1:]]
    if list(pairs) != want_pairs:
        errs.append("pairs %s, want %s" % (list(pairs), want_pairs))
    for (a, b), p in pairs.items():
        ports = [parent(root, pci[a]), parent(root, pci[b])]
        red = [q for q in ports if (acs_ctrl(root, q) or 0) & REDIRECT]
        verdict = "redirected" if red else "direct"
        arc = ident(root, pci[a]) == ident(root, pci[b]) == "8086:e223"
        exp = {"a_pci": pci[a], "b_pci": pci[b], "distance": "PIX", "p2p": verdict,
               "redirected_at": red, "nvlink": None}
        for k, v in exp.items():
            if p.get(k) != v:
                errs.append("%s-%s.%s = %r, want %r" % (a, b, k, p.get(k), v))
        if [q["address"] for q in p["ports"]] != ports:
            errs.append("%s-%s.ports %r, want %r" % (a, b, p["ports"], ports))
        for q in p["ports"]:
            ctrl = acs_ctrl(root, q["address"])
            if q["control"] != "0x%04x" % ctrl or q["acs"] != "known":
                errs.append("%s-%s port %s control %r, config says 0x%04x"
                            % (a, b, q["address"], q["control"], ctrl))
        risk = p.get("risk")
        if (risk is not None) != (arc and verdict == "redirected") or \
                (risk is not None and "all-ones" not in risk):
            errs.append("%s-%s.risk = %r" % (a, b, risk))
        if verdict != want:
            errs.append("%s-%s is %s, the case wants %s" % (a, b, verdict, want))
    return errs


if __name__ == "__main__":
    problems = main(*sys.argv[1:4])
    for e in problems:
        print("p2p_reader: " + e)
    sys.exit(1 if problems else 0)
