#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scaled realistic host trees for make bench.

    gen.py FUNCTIONS DIR      build a tree of exactly FUNCTIONS PCI functions into DIR
                              and print its census (JSON) on stdout

The fake tier's fixture code (tests/fake/mkroot.py) builds the tree, so the layout is
the one the tests trust: real sysfs nesting and symlinks, config space register by
register, real capability chains, IOMMU groups. What this file adds is the shape of
a big server, scaled:

  8 root complexes (Sapphire-Rapids-like IIO stacks), 4 per NUMA node, each with
    - a multi-function RCiEP at BB:00.0-3 (platform functions: no ACS, no links);
    - root ports 8086:352a at BB:DD.0 (ACS at 0x220), each leading to
      - a PCIe switch: upstream port without ACS, up to 16 downstream ports with ACS at
        0xf24 (Capability 0x007f incl. EC); switches alternate Broadcom PEX890xx 1000:c030
        (Gen5) and PLX PEX8796 10b5:8796 (Gen3; same capability layout, as PLX's parts
        kept it after Broadcom bought PLX). Behind the ports, in this order, repeated:
        H100 GPU, dual-function ConnectX-7 (00.0 + 00.1: a multi-function device
        without ACS, one IOMMU group), H100 GPU, NVMe;
      - or, for the last few functions of the budget, an NVMe drive on its own port;
  root complex 0 also carries the PCH (conventional functions at 00:1f.0/.4/.5) and the
  BMC's ASPEED PCIe-to-PCI bridge with its VGA function (a bridge without ACS).
One Intel DMAR unit per root complex, IOMMU on (groups of type DMA).
Bus numbers are handed out depth first; a root complex that does not fit in the rest
of a PCI domain's 256 buses starts the next domain (segment), as on real big hosts.
Deterministic: the same FUNCTIONS gives the same bytes.

Census keys: functions, bridges, acs_ports (bridges with an ACS capability),
selected_ports (ACS ports tests/bench/bench.conf selects: every ACS port above a GPU or
a NIC), gpus, nics (functions), nvme, switches, root_ports, domains, buses, groups.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fake"))
import mkroot as M  # noqa: E402  (the fake tier's fixture code)

RCS = 8
PORTS_PER_SWITCH = 16
CYCLE = ["gpu", "nic", "gpu", "nvme"]          # what sits behind successive switch ports
COST = {"gpu": 2, "nic": 3, "nvme": 2}         # functions: the downstream port + endpoint(s)
RP_ACS = (0x005f, 0x001d)                      # as the kernel leaves them with an IOMMU on
SW_ACS = (0x007f, 0x001d)
CPUS = {0: "0-55,112-167", 1: "56-111,168-223"}
PLATFORM = [0x09a2, 0x09a4, 0x09a3, 0x0998]    # SPR IIO RCiEPs (VT-d, mesh, RAS, ...)


def plan_rc(budget, rc0):
    """What one root complex holds, as a list of items, for exactly `budget` functions."""
    items = []
    budget -= len(PLATFORM)
    if rc0:
        items.append(("bmc",))                 # root port + ASPEED bridge + VGA
        budget -= 3 + 3                        # ... and the 3 PCH functions
    k = 0
    while budget >= 4:                         # root port + upstream + one port + endpoint
        ports, cost = [], 2
        while len(ports) < PORTS_PER_SWITCH:
            kind = CYCLE[k % len(CYCLE)]
            if cost + COST[kind] > budget:
                break
            ports.append(kind)
            cost += COST[kind]
            k += 1
        if not ports:
            break
        items.append(("switch", ports))
        budget -= cost
    while budget >= 2:
        items.append(("nvme",))                # root port + NVMe
        budget -= 2
    if budget == 1:
        items.append(("rciep",))               # one more platform function
        budget -= 1
    assert budget == 0
    return items


def buses_of(items):
    n = 1                                      # the root bus
    for it in items:
        n += {"switch": lambda: 2 + len(it[1]), "bmc": lambda: 2,
              "nvme": lambda: 1, "rciep": lambda: 0}[it[0]]()
    return n


class Gen:
    def __init__(self):
        self.irq = 0
        self.slot = 0
        self.serial = 0
        self.census = dict(functions=0, bridges=0, acs_ports=0, selected_ports=0, gpus=0,
                           nics=0, nvme=0, switches=0, root_ports=0)

    def next_irq(self):
        self.irq += 1
        return 24 + self.irq % 200

    def next_slot(self):
        self.slot += 1
        return self.slot

    def bdf(self, dom, bus, dev, fn=0):
        return "%04x:%02x:%02x.%d" % (dom, bus, dev, fn)

    def gpu(self, dom, bus):
        return [M.h100(self.bdf(dom, bus, 0), self.next_irq())]

    def nic(self, dom, bus):
        self.serial += 1
        s = 0xb83fd20300a1c000 + self.serial
        return [M.cx7(self.bdf(dom, bus, 0, fn), self.next_irq(), s) for fn in (0, 1)]

    def nvme(self, dom, bus):
        self.serial += 1
        return [M.mk(self.bdf(dom, bus, 0), 0x144d, 0xa80a, 0x010802, M.nvme_caps(),
                     svid=0x144d, sdid=0xa813, pcie=M.PCIE_EP, link=(4, 4, 4, 4),
                     driver="nvme", irq=self.next_irq(), serial=0x0038250041a02500 + self.serial)]

    def root_port(self, dom, bus, dev, children, secondary, link):
        return M.mk(self.bdf(dom, bus, dev), 0x8086, 0x352a, 0x060400,
                    M.intel_spr_root_port_caps(), rev=0x04, svid=0x8086, sdid=0x0000,
                    pcie=M.PCIE_ROOT_PORT, link=link, acs=RP_ACS, children=children,
                    secondary=secondary, driver="pcieport", slot=self.next_slot())

    def switch(self, dom, bus, dev, ports, alloc):
        """Root port BB:dev.0 -> upstream port -> downstream ports -> endpoints."""
        broadcom = self.census["switches"] % 2 == 0
        self.census["switches"] += 1
        vid, did, rev, speed = (0x1000, 0xc030, 0xb0, 5) if broadcom else \
                               (0x10b5, 0x8796, 0xab, 3)
        up_bus, int_bus = alloc(), alloc()
        downs = []
        for i, kind in enumerate(ports):
            ep_bus = alloc()
            eps = getattr(self, kind)(dom, ep_bus)
            downs.append(M.mk(self.bdf(dom, int_bus, i), vid, did, 0x060400,
                              M.plx_port_caps(True), rev=rev, svid=vid, sdid=0xa064,
                              pcie=M.PCIE_DOWNSTREAM, link=(speed, 16, speed, 16),
                              acs=SW_ACS, children=eps, secondary=ep_bus,
                              driver="pcieport", slot=self.next_slot()))
        self.serial += 1
        up = M.mk(self.bdf(dom, up_bus, 0), vid, did, 0x060400, M.plx_port_caps(False),
                  rev=rev, svid=vid, sdid=0xa064, pcie=M.PCIE_UPSTREAM,
                  link=(speed, 16, speed, 16), children=downs, secondary=int_bus,
                  driver="pcieport", serial=0x00a0c9fffe000000 + self.serial)
        return self.root_port(dom, bus, dev, [up], up_bus, (speed, 16, speed, 16))

    def bmc(self, dom, bus, dev, alloc):
        br_bus, vga_bus = alloc(), alloc()
        vga = M.mk(self.bdf(dom, vga_bus, 0), 0x1a03, 0x2000, 0x030000,
                   ([(0x40, M.CAP_PM), (0x50, M.CAP_MSI)], []), rev=0x52, svid=0x1a03,
                   sdid=0x2000, conventional=True, irq=self.next_irq())
        br = M.mk(self.bdf(dom, br_bus, 0), 0x1a03, 0x1150, 0x060400,
                  ([(0x50, M.CAP_PM), (0x78, M.CAP_EXP)], [(0x100, M.ECAP_AER)]), rev=0x06,
                  pcie=7, link=(2, 1, 2, 1), children=[vga], secondary=vga_bus)
        return self.root_port(dom, bus, dev, [br], br_bus, (3, 1, 2, 1))

    def rc(self, n, dom, bus, items):
        nxt = [bus]

        def alloc():
            nxt[0] += 1
            assert nxt[0] <= 0xff
            return nxt[0]

        devs = [M.mk(self.bdf(dom, bus, 0, fn), 0x8086, did, 0x088000, M.intel_rciep_caps(),
                     rev=0x04, pcie=M.PCIE_RCIEP) for fn, did in enumerate(PLATFORM)]
        dev = 1
        for it in items:
            assert dev < 0x1f, "too many root ports on one root bus"
            if it[0] == "switch":
                devs.append(self.switch(dom, bus, dev, it[1], alloc))
            elif it[0] == "nvme":
                b = alloc()
                devs.append(self.root_port(dom, bus, dev, self.nvme(dom, b), b, (4, 4, 4, 4)))
            elif it[0] == "bmc":
                devs.append(self.bmc(dom, bus, dev, alloc))
            elif it[0] == "rciep":
                devs.append(M.mk(self.bdf(dom, bus, 0, len(PLATFORM)), 0x8086, 0x09a7,
                                 0x088000, M.intel_rciep_caps(), rev=0x04, pcie=M.PCIE_RCIEP))
                continue
            dev += 1
        if n == 0:
            devs += [M.mk(self.bdf(dom, bus, 0x1f, 0), 0x8086, 0x1b81, 0x060100, ([], []),
                          rev=0x11, svid=0x8086, sdid=0x7270),
                     M.mk(self.bdf(dom, bus, 0x1f, 4), 0x8086, 0x1bc9, 0x0c0500, ([], []),
                          rev=0x11, svid=0x8086, sdid=0x7270, conventional=True, irq=16),
                     M.mk(self.bdf(dom, bus, 0x1f, 5), 0x8086, 0x1bca, 0x0c8000, ([], []),
                          rev=0x11, svid=0x8086, sdid=0x7270, conventional=True)]
        return devs


def count(census, devs):
    gpu_vendors = (0x10de, 0x15b3)             # what bench.conf selects upstream of
    for top in devs:
        for d in top.walk():
            census["functions"] += 1
            census["bridges"] += d.is_bridge
            census["acs_ports"] += d.acs is not None
            census["root_ports"] += d.pcie == M.PCIE_ROOT_PORT
            census["gpus"] += d.vendor == 0x10de
            census["nics"] += d.vendor == 0x15b3
            census["nvme"] += d.cls == 0x010802
            if d.acs is not None and any(c.vendor in gpu_vendors for c in d.walk()):
                census["selected_ports"] += 1


def fixture(functions):
    if functions < RCS * 16:
        raise SystemExit("gen.py: at least %d functions" % (RCS * 16))
    fx = M.Fixture("bench-%d" % functions, "bench%d-fake" % functions,
                   "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
                   "root=UUID=2f1e0d3c-4b5a-4c6d-8e7f-901a2b3c4d5e ro quiet")
    fx.iommu, fx.group_type = "intel", "DMA"
    g = Gen()
    dom, nxt, domains, buses = 0, 0, 1, 0
    for n in range(RCS):
        budget = functions // RCS + (1 if n < functions % RCS else 0)
        items = plan_rc(budget, n == 0)
        need = buses_of(items)
        assert need <= 256, "one root complex needs more than 256 buses"
        if nxt + need > 256:
            dom, nxt, domains = dom + 1, 0, domains + 1
        devs = g.rc(n, dom, nxt, items)
        node = n * 2 // RCS
        fx.roots.append((dom, nxt, node, CPUS[node], devs))
        fx.iommu_units.append(("dmar%d" % n, [(dom, nxt)], None))
        count(g.census, devs)
        nxt += need
        buses += need
    g.census.update(domains=domains, buses=buses)
    assert g.census["functions"] == functions, g.census
    return fx, g.census


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit():
        sys.stderr.write("usage: gen.py FUNCTIONS DIR\n")
        return 2
    root = os.path.abspath(argv[2])
    if os.path.exists(root) and os.listdir(root):
        sys.stderr.write("gen.py: %s exists and is not empty\n" % root)
        return 2
    fx, census = fixture(int(argv[1]))
    os.makedirs(root, exist_ok=True)
    os.umask(0o022)
    M.build(fx, root)
    census["groups"] = len(os.listdir(os.path.join(root, "sys", "kernel", "iommu_groups")))
    print(json.dumps(census, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
