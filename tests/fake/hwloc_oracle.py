#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""hwloc's reading of a root tree against `hostprep topology --json` on it.

    hwloc_oracle.py ROOT JSON     exit 0 when they agree, else print each difference

lstopo-no-graphics (Debian's hwloc) reads the same /sys and /proc below ROOT
(`-i ROOT/ --whole-io --of xml`); nothing here reads hostprep's code or its inventory:
  - every endpoint hostprep lists is a PCI function hwloc sees, of a class hostprep
    counts, and every function hwloc files as an endpoint is listed: accelerators are class
    0302, hwloc's CoProc/GPU OS devices, a co-processor (0b4x) or processing accelerator
    (1200) the kernel bound an accelerator driver to (ACCEL_DRIVERS: the sysfs driver link,
    not hostprep's table of ids; Intel QAT's qat_4xxx is none), or a display controller
    (0300/0380) of NVIDIA/AMD/Intel that pciutils (lspci -vv) shows with a memory region of
    256 MiB or more, on PCI Express itself (lspci shows an Express capability, or cannot
    read the list) and not behind a subtractive-decode bridge, a PCIe-to-PCI bridge or a
    bridge without an Express capability; NICs are class 02xx, 0c06,
    or a function with an OpenFabrics (RDMA) OS device. SR-IOV VFs are left out on both
    sides. Where they may differ (no fixture has it): a listed accelerator with no driver
    bound and no OS device is one for hostprep only.
  - the matrix: from hwloc's PCI tree (Bridge objects from the host bridge down; first
    the root port, then switch upstream/downstream ports in turn): PIX one switch, PXB
    more, PHB the same host bridge; different host bridges: NODE within one NUMA node of
    hwloc's locality (the CPU-side object the host bridge hangs below), SYS across. Where
    hwloc has no single node (the host bridge hangs below the whole machine: firmware gave
    no locality), hostprep's rule on its own numa_node is checked instead (null on both
    sides NODE, on one SYS).
  - NUMA: a device whose hwloc locality is one node has that numa_node in hostprep; the
    CPUs of hostprep's cpulist are hwloc's locality cpuset.
  - links: every hop's port is a bridge above its device in hwloc, or hostprep names it
    "unlisted" (missing from bus/pci/devices: hwloc does not see it either); every
    endpoint below a bridge has a hop above it (or above another function of its card)
    unless the device tree shows no PCIe link there.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

GPU_VENDORS = ("10de", "1002", "8086")
# Drivers of compute accelerators (the kernel's or the vendor's module names).
ACCEL_DRIVERS = ("mic", "ve_drv", "habanalabs", "amdgpu", "tenstorrent", "qaic")
OSDEV_GPU, OSDEV_NET, OSDEV_OFED, OSDEV_COPROC = "1", "2", "3", "5"


def lstopo(root):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HWLOC_")}
    r = subprocess.run(["lstopo-no-graphics", "-i", root + "/", "--whole-io", "--of", "xml", "-"],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("lstopo failed: %s" % r.stderr)
    return ET.fromstring(r.stdout)


def bitmap(s):
    """hwloc's "0x000000ff,0xffffffff" (32-bit words, most significant first) as a set."""
    v = int("".join(w[2:] if w.startswith("0x") else w for w in s.split(",")), 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def cpulist(s):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


class Tree:
    def __init__(self, xml):
        self.parent, self.pci = {}, {}
        for p in xml.iter("object"):
            for c in p.findall("object"):
                self.parent[c] = p
        for o in xml.iter("object"):
            if o.get("pci_busid"):
                self.pci[o.get("pci_busid")] = o

    def bridges(self, o):
        """(host bridge object, [bridge busids from the root port down])."""
        chain, p = [], self.parent.get(o)
        while p is not None and p.get("type") == "Bridge" and p.get("pci_busid"):
            chain.insert(0, p.get("pci_busid"))
            p = self.parent.get(p)
        return p, chain

    def locality(self, o):
        p = self.parent.get(o)
        while p is not None and not p.get("cpuset"):
            p = self.parent.get(p)
        return p

    def osdevs(self, o):
        return {c.get("osdev_type") for c in o.findall("object") if c.get("type") == "OSDev"}


def lspci(root, bdf):
    r = subprocess.run(["lspci", "-A", "linux-sysfs", "-O", "sysfs.path=%s/sys/bus/pci" % root,
                        "-nn", "-vv", "-s", bdf], capture_output=True, text=True)
    return r.stdout


def big_region(root, bdf):
    for m in re.finditer(r"Region \d+: Memory at .*\[size=(\d+)([KMG]?)\]", lspci(root, bdf)):
        size = int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]
        if size >= 256 << 20:
            return True
    return False


def driver(root, bdf):
    link = os.path.join(root, "sys/bus/pci/devices", bdf, "driver")
    return os.path.basename(os.readlink(link)) if os.path.islink(link) else None


def conventional(root, bdf):
    """lspci's reading of a function or bridge that is conventional PCI: no capability at
    all, or a chain read without PCI Express, or a PCIe-to-PCI bridge."""
    text = lspci(root, bdf)
    if "Subtractive decode" in text or "PCI-Express to PCI/PCI-X Bridge" in text:
        return True
    if "Capabilities: <access denied>" in text:
        return False
    return not re.search(r"Capabilities: \[[0-9a-f]+\] Express", text)


def oracle_kind(root, t, o):
    cls, ven = o.get("pci_type")[:4], o.get("pci_type").split("[")[1][:4]
    osd = t.osdevs(o)
    if cls == "0302" or osd & {OSDEV_GPU, OSDEV_COPROC}:
        return "gpu"
    if (cls == "1200" or cls.startswith("0b4")) and \
            driver(root, o.get("pci_busid")) in ACCEL_DRIVERS:
        return "gpu"
    if cls in ("0300", "0380") and ven in GPU_VENDORS:
        host, chain = t.bridges(o)
        if chain and big_region(root, o.get("pci_busid")) and \
                not conventional(root, chain[-1]) and not conventional(root, o.get("pci_busid")):
            return "gpu"
    if cls.startswith("02") or cls == "0c06" or OSDEV_OFED in osd:
        return "nic"
    return None


def is_vf(root, bdf):
    return os.path.lexists(os.path.join(root, "sys/bus/pci/devices", bdf, "physfn"))


def same_card(a, b):
    return a.rsplit(".", 1)[0] == b.rsplit(".", 1)[0]


def pci_distance(t, a, b):
    (ha, ca), (hb, cb) = t.bridges(t.pci[a]), t.bridges(t.pci[b])
    if ha is not hb:
        return None
    if ca == cb and same_card(a, b):
        return "PIX"
    p = 0
    while p < len(ca) and p < len(cb) and ca[p] == cb[p]:
        p += 1
    if p <= 1:
        return "PHB"
    switches = {p // 2}
    for c in (ca, cb):
        for k in range(p, len(c)):
            switches.add((k + 1) // 2)
    return "PIX" if len(switches) == 1 else "PXB"


def single_node(t, o):
    loc = t.locality(t.bridges(o)[0] or o)
    nodes = bitmap(loc.get("nodeset")) if loc is not None else set()
    return next(iter(nodes)) if len(nodes) == 1 else None


def check_devices(root, t, doc, bad):
    mine = {d["address"]: d["kind"] for d in doc["devices"]}
    for bdf, o in sorted(t.pci.items()):
        if o.get("type") != "PCIDev" or is_vf(root, bdf):
            continue
        want = oracle_kind(root, t, o)
        if mine.get(bdf) != want:
            bad.append("%s (%s): hostprep %s, hwloc+lspci %s" % (
                bdf, o.get("pci_type")[:16], mine.get(bdf), want))
    for bdf in mine:
        if bdf not in t.pci:
            bad.append("%s: hwloc sees no such function" % bdf)


def check_matrix(t, doc, bad):
    devs = doc["devices"]
    for i, a in enumerate(devs):
        for j, b in enumerate(devs):
            if i == j or a["address"] not in t.pci or b["address"] not in t.pci:
                continue
            want = pci_distance(t, a["address"], b["address"])
            if want is None:
                na, nb = single_node(t, t.pci[a["address"]]), single_node(t, t.pci[b["address"]])
                if na is None or nb is None:  # hwloc has no locality: hostprep's own rule
                    na, nb = a["numa_node"], b["numa_node"]
                    want = "NODE" if na == nb else "SYS"
                else:
                    want = "NODE" if na == nb else "SYS"
            if doc["matrix"][i][j] != want:
                bad.append("%s-%s: %s, hwloc %s" % (a["id"], b["id"], doc["matrix"][i][j], want))


def check_numa(t, doc, bad):
    for d in doc["devices"]:
        o = t.pci.get(d["address"])
        if o is None:
            continue
        n = single_node(t, o)
        if n is not None and d["numa_node"] != n:
            bad.append("%s: numa_node %s, hwloc node %d" % (d["id"], d["numa_node"], n))
        loc = t.locality(t.bridges(o)[0] or o)
        if d.get("cpulist") and loc is not None and cpulist(d["cpulist"]) != bitmap(loc.get("cpuset")):
            bad.append("%s: cpulist %s, hwloc cpuset %s" % (d["id"], d["cpulist"], loc.get("cpuset")))


def has_link(root, bdf):
    return os.path.exists(os.path.join(root, "sys/bus/pci/devices", bdf, "current_link_speed"))


def check_links(root, t, doc, bad):
    hops = doc.get("links", [])
    for h in hops:
        unlisted = h.get("unlisted", [])
        o = t.pci.get(h["device"])
        if o is None:
            if h["device"] not in unlisted:
                bad.append("hop %s: hwloc sees no such function" % h["device"])
            continue
        if h["port"] not in t.bridges(o)[1] and h["port"] not in unlisted:
            bad.append("hop %s: port %s is no bridge above it in hwloc" % (h["device"], h["port"]))
    for d in doc["devices"]:
        o = t.pci.get(d["address"])
        if o is None or not t.bridges(o)[1] or not has_link(root, d["address"]):
            continue
        if not any(same_card(h["device"], d["address"]) for h in hops):
            bad.append("%s: no link hop above it" % d["id"])


def main(root, path):
    doc = json.load(open(path))
    t = Tree(lstopo(root))
    bad = []
    check_devices(root, t, doc, bad)
    check_matrix(t, doc, bad)
    check_numa(t, doc, bad)
    check_links(root, t, doc, bad)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(os.path.realpath(sys.argv[1]), sys.argv[2]))
