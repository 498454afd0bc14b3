#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build a fake host root tree shaped like a real Linux sysfs/procfs.

    mkroot.py NAME DIR        build fixture NAME into DIR (DIR must not exist or be empty)
    mkroot.py --list          list the fixtures

The tree is what hostprep sees through --root DIR:
  DIR/sys/devices/pciDDDD:BB/DDDD:BB:DD.F/.../   real nesting, one dir per function,
        vendor device class subsystem_* revision irq numa_node local_cpulist enable
        resource current_/max_link_* config (binary, 4096 or 256 bytes) iommu_group
        driver subsystem modalias uevent
  DIR/sys/bus/pci/devices/<bdf> -> ../../../devices/...
  DIR/sys/bus/pci/drivers/<drv>/<bdf>
  DIR/sys/kernel/iommu_groups/N/{type,devices/<bdf>,reserved_regions}
  DIR/sys/class/iommu/{dmarN|ivhdN}   (only when the fixture has an IOMMU)
  DIR/sys/kernel/security/lockdown    "[none] integrity confidentiality"
  DIR/proc/cmdline, DIR/proc/sys/kernel/{hostname,osrelease}, DIR/etc/hostprep/, DIR/run/

Config space is built register by register: header type 0/1, status
capability-list bit, a capability chain from 0x34, a PCI Express capability with
the right Device/Port type and link registers, and an extended capability chain
from 0x100 that reaches ACS (0x000d) at the offset real hardware uses.
Python 3 standard library only. Deterministic: the same NAME gives the same bytes.
"""

import os
import re
import struct
import sys

# ---------------------------------------------------------------- constants

# PCI Express Device/Port type (PCIe cap +2, bits 7:4)
PCIE_EP, PCIE_LEGACY_EP, PCIE_ROOT_PORT, PCIE_UPSTREAM, PCIE_DOWNSTREAM = 0, 1, 4, 5, 6
PCIE_RCIEP = 9

SPEED_NAME = {1: "2.5 GT/s PCIe", 2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe",
              4: "16.0 GT/s PCIe", 5: "32.0 GT/s PCIe"}

CAP_PM, CAP_MSI, CAP_VNDR, CAP_SSVID, CAP_EXP, CAP_MSIX = 0x01, 0x05, 0x09, 0x0d, 0x10, 0x11
ECAP_AER, ECAP_VC, ECAP_DSN, ECAP_PWR, ECAP_VNDR = 0x0001, 0x0002, 0x0003, 0x0004, 0x000b
ECAP_ACS, ECAP_ARI, ECAP_LTR, ECAP_SECPCI, ECAP_DPC = 0x000d, 0x000e, 0x0018, 0x0019, 0x001d
ECAP_L1SS, ECAP_DLF, ECAP_PL16, ECAP_LMR, ECAP_PL32 = 0x001e, 0x0025, 0x0026, 0x0027, 0x002a
ECAP_REBAR = 0x0015


# ---------------------------------------------------------------- device model

class Dev:
    """One PCI function. children: functions on the secondary bus (bridges only)."""

    def __init__(self, bdf, vendor, device, cls, *, rev=0x00, svid=0, sdid=0,
                 pcie=None, link=None, caps=None, ecaps=None, acs=None,
                 children=(), secondary=None, driver=None, irq=0, slot=None,
                 conventional=False, serial=None):
        self.bdf = bdf
        dom, bus, devfn = bdf.split(":")
        self.domain = int(dom, 16)
        self.bus = int(bus, 16)
        d, f = devfn.split(".")
        self.dev, self.fn = int(d, 16), int(f, 16)
        self.vendor, self.device, self.cls, self.rev = vendor, device, cls, rev
        self.svid, self.sdid = svid, sdid
        self.pcie = pcie            # PCIe Device/Port type, None = conventional PCI
        self.link = link            # (max_speed, max_width, cur_speed, cur_width)
        self.caps = caps or []      # [(offset, id)] in chain order
        self.ecaps = ecaps or []    # [(offset, id)] in chain order
        self.acs = acs              # (cap, ctrl); offset comes from ecaps
        self.children = list(children)
        self.secondary = secondary
        self.driver = driver
        self.irq = irq
        self.slot = slot            # physical slot number (ports with a slot)
        self.conventional = conventional
        self.serial = serial
        self.multifunction = False
        self.numa = -1
        self.cpulist = ""
        self.group = None
        self.iommu = None           # name of the IOMMU unit serving this device
        self.is_bridge = (cls >> 8) == 0x0604

    @property
    def cfg_size(self):
        return 256 if self.pcie is None else 4096

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def subordinate(self):
        m = self.secondary
        for c in self.children:
            m = max(m, c.bus)
            if c.is_bridge:
                m = max(m, c.subordinate())
        return m


class Fixture:
    def __init__(self, name, hostname, cmdline, osrelease="6.1.0-27-amd64"):
        self.name = name
        self.hostname = hostname
        self.cmdline = cmdline
        self.osrelease = osrelease
        self.roots = []          # [(domain, bus, numa, cpulist, [Dev on root bus])]
        self.iommu = None        # None, "intel", "amd"
        self.group_type = None   # "DMA", "identity", ...
        self.iommu_units = []    # [(name, [root bus numbers], amd_pci_dev or None)]
        self.nvidia = {}         # bdf -> (model, uuid, minor): /proc/driver/nvidia/gpus
        self.root_parent = {}    # (domain, bus) -> bdf of the function its bridge is below (VMD)


# ---------------------------------------------------------------- config space

class Cfg:
    def __init__(self, size):
        self.b = bytearray(size)

    def w8(self, off, v):
        self.b[off] = v & 0xff

    def w16(self, off, v):
        struct.pack_into("<H", self.b, off, v & 0xffff)

    def w32(self, off, v):
        struct.pack_into("<I", self.b, off, v & 0xffffffff)


def build_config(d):
    c = Cfg(d.cfg_size)
    c.w16(0x00, d.vendor)
    c.w16(0x02, d.device)
    if d.is_bridge:
        cmd = 0x0547            # I/O, memory, bus master, parity, SERR, INTx disable
    elif d.conventional:
        cmd = 0x0507
    else:
        cmd = 0x0546
    c.w16(0x04, cmd)
    c.w16(0x06, 0x0010 if d.caps else 0x0000)   # bit 4: capabilities list
    c.w8(0x08, d.rev)
    c.w8(0x09, d.cls & 0xff)
    c.w8(0x0a, (d.cls >> 8) & 0xff)
    c.w8(0x0b, (d.cls >> 16) & 0xff)
    c.w8(0x0c, 0x10)                            # cache line size (64 bytes)
    hdr = 0x01 if d.is_bridge else 0x00
    if d.multifunction:
        hdr |= 0x80
    c.w8(0x0e, hdr)
    if d.is_bridge:
        c.w8(0x18, d.bus)                       # primary bus
        c.w8(0x19, d.secondary)                 # secondary bus
        c.w8(0x1a, d.subordinate())             # subordinate bus
        c.w8(0x1c, 0xf0)                        # I/O window closed
        c.w8(0x1d, 0x00)
        c.w16(0x20, 0xfff0)                     # memory window closed
        c.w16(0x22, 0x0000)
        c.w16(0x24, 0xfff1)                     # prefetchable window closed (64-bit)
        c.w16(0x26, 0x0001)
        c.w16(0x3e, 0x0012 if d.pcie == PCIE_ROOT_PORT else 0x0002)  # SERR (+ISA)
    else:
        c.w16(0x2c, d.svid)
        c.w16(0x2e, d.sdid)
    if d.caps:
        c.w8(0x34, d.caps[0][0])
    c.w8(0x3c, 0xff if d.irq == 0 else d.irq & 0xff)
    c.w8(0x3d, 0x01 if (d.pcie is not None or d.conventional) and d.cls >> 8 != 0x0600 else 0x00)

    # classic capability chain
    for i, (off, cid) in enumerate(d.caps):
        nxt = d.caps[i + 1][0] if i + 1 < len(d.caps) else 0
        c.w8(off, cid)
        c.w8(off + 1, nxt)
        fill_cap(c, d, off, cid)

    # extended capability chain (PCIe functions only)
    if d.pcie is not None and d.ecaps:
        assert d.ecaps[0][0] == 0x100, d.bdf
        for i, (off, cid) in enumerate(d.ecaps):
            nxt = d.ecaps[i + 1][0] if i + 1 < len(d.ecaps) else 0
            ver = 2 if cid == ECAP_AER else 1
            c.w32(off, cid | ver << 16 | nxt << 20)
            fill_ecap(c, d, off, cid)
    return bytes(c.b)


def fill_cap(c, d, off, cid):
    port = d.pcie in (PCIE_ROOT_PORT, PCIE_DOWNSTREAM, PCIE_UPSTREAM)
    if cid == CAP_PM:
        c.w16(off + 2, 0xc803 if port else 0x0003)       # PM version 3 (+PME from D0/D3)
        c.w16(off + 4, 0x0008)                           # D0, No_Soft_Reset
    elif cid == CAP_MSI:
        c.w16(off + 2, 0x0081)                           # 64-bit, enabled, 1 vector
        c.w32(off + 4, 0xfee00000 | (d.dev << 12))
        c.w32(off + 8, 0)
        c.w16(off + 12, 0x4020 + d.fn)
    elif cid == CAP_MSIX:
        c.w16(off + 2, 0x8000 | 0x3f)                    # enabled, 64 vectors
        c.w32(off + 4, 0x00b90000)                       # table at BAR0 + 0xb90000
        c.w32(off + 8, 0x00ba0000)                       # PBA at BAR0 + 0xba0000
    elif cid == CAP_SSVID:
        c.w16(off + 4, d.svid)
        c.w16(off + 6, d.sdid)
    elif cid == CAP_VNDR:
        if d.vendor == 0x1af4:
            # virtio_pci_cap: cfg_type 1 common, 2 notify, 3 isr, 4 device, 5 pci cfg
            vcaps = [o for o, i in d.caps if i == CAP_VNDR]
            cfg_type = [5, 2, 4, 3, 1][-len(vcaps):][vcaps.index(off)] if len(vcaps) <= 5 else 1
            c.w8(off + 2, 0x14 if cfg_type in (2, 5) else 0x10)
            c.w8(off + 3, cfg_type)
            c.w8(off + 4, 4 if cfg_type != 5 else 0)     # BAR 4 (64-bit MMIO)
            c.w32(off + 8, {1: 0x0000, 3: 0x1000, 4: 0x2000, 2: 0x3000}.get(cfg_type, 0))
            c.w32(off + 12, {1: 0x1000, 3: 0x1000, 4: 0x1000, 2: 0x1000}.get(cfg_type, 0))
            if cfg_type == 2:
                c.w32(off + 16, 4)                       # notify_off_multiplier
        else:
            c.w8(off + 2, 0x10)                          # length
    elif cid == CAP_EXP:
        fill_pcie(c, d, off)


def fill_pcie(c, d, off):
    t = d.pcie
    is_port = t in (PCIE_ROOT_PORT, PCIE_DOWNSTREAM, PCIE_UPSTREAM)
    down = t in (PCIE_ROOT_PORT, PCIE_DOWNSTREAM)
    slot = down and d.slot is not None
    c.w16(off + 2, 0x0002 | t << 4 | (0x0100 if slot else 0))   # version 2
    if is_port:
        devcap, devctl = 0x00008022, 0x002f          # 512B MPS, ExtTag, RBE; errors reported
    elif t == PCIE_RCIEP:
        devcap, devctl = 0x00008000, 0x0000
    else:
        devcap, devctl = 0x10008fe1, 0x2930          # 256B, ExtTag, no L0s/L1 limit, RBE, FLR
    c.w32(off + 4, devcap)
    c.w16(off + 8, devctl)
    c.w16(off + 10, 0x0000)
    if d.link and t != PCIE_RCIEP:
        mspeed, mwidth, cspeed, cwidth = d.link
        port_no = (d.dev << 3 | d.fn) if down else 0
        lnkcap = mspeed | mwidth << 4 | 0x2 << 10 | 0x7 << 12 | 0x6 << 15 | 1 << 22 | port_no << 24
        if down:
            lnkcap |= 1 << 19 | 1 << 20 | 1 << 21   # surprise down, DLL active rep., BW notif.
        c.w32(off + 0x0c, lnkcap)
        c.w16(off + 0x10, 0x0040)                     # common clock
        lnksta = 0
        up = cwidth > 0
        if up:
            lnksta = cspeed | cwidth << 4 | 1 << 12   # slot clock
            if down:
                lnksta |= 1 << 13                     # data link layer link active
        c.w16(off + 0x12, lnksta)
        if slot:
            c.w32(off + 0x14, d.slot << 19 | 1 << 18 | 75 << 7)   # slot #, no cmd compl., 75 W
            c.w16(off + 0x18, 0x0000)
            c.w16(off + 0x1a, 0x0040 if d.children else 0x0000)  # presence detect
        if t == PCIE_ROOT_PORT:
            c.w16(off + 0x1e, 0x0001)                 # CRS software visibility
        c.w32(off + 0x24, 0x0000087f if is_port else 0x0000081f)
        c.w16(off + 0x28, 0x0020 if down else 0x0000)  # ARI forwarding enable
        c.w32(off + 0x2c, ((1 << mspeed) - 1) << 1)  # supported link speeds vector
        c.w16(off + 0x30, mspeed)                     # target link speed
        c.w16(off + 0x32, 0x001e if cspeed >= 3 and up else 0x0000)


def fill_ecap(c, d, off, cid):
    if cid == ECAP_AER:
        c.w32(off + 0x08, 0x00000000)                # uncorrectable mask
        c.w32(off + 0x0c, 0x00462030)                # uncorrectable severity (default)
        c.w32(off + 0x14, 0x00002000)                # correctable mask: advisory non-fatal
        c.w32(off + 0x18, 0x000000a0)                # ECRC generation/check capable
    elif cid == ECAP_DSN:
        s = d.serial if d.serial is not None else 0
        c.w32(off + 4, s & 0xffffffff)
        c.w32(off + 8, s >> 32)
    elif cid == ECAP_ACS:
        cap, ctrl = d.acs
        c.w16(off + 4, cap)
        c.w16(off + 6, ctrl)
        # egress control vector (+8) when EC is implemented: all zero
    elif cid == ECAP_ARI:
        c.w16(off + 4, 0x0100 if d.multifunction and d.fn == 0 else 0x0000)
    elif cid == ECAP_DPC:
        c.w16(off + 4, 0x1a80 if d.pcie == PCIE_ROOT_PORT else 0x0080)
    elif cid == ECAP_VNDR:
        c.w32(off + 4, 0x0001 | 1 << 16 | 0x010 << 20)   # ID 1, rev 1, length 0x10
    elif cid == ECAP_L1SS:
        c.w32(off + 4, 0x0028281f)
    elif cid == ECAP_LTR:
        c.w16(off + 4, 0x1003)
        c.w16(off + 6, 0x1003)
    elif cid == ECAP_REBAR:
        c.w32(off + 4, 0x0003f000)                   # BAR sizes 256MB..8GB supported
        c.w32(off + 8, 0x00000820)                   # BAR1, 1 resizable BAR, size 256MB
    # VC, power budgeting, secondary PCIe, DLF, PL16/32, lane margining: zero bodies


# ---------------------------------------------------------------- capability layouts
# (classic chain, extended chain) per kind of silicon; ACS offsets are the real ones.

def intel_spr_root_port_caps():
    caps = [(0x40, CAP_EXP), (0x80, CAP_MSI), (0x90, CAP_SSVID), (0xa0, CAP_PM)]
    ecaps = [(0x100, ECAP_AER), (0x148, ECAP_SECPCI), (0x180, ECAP_DLF), (0x1a0, ECAP_PL16),
             (0x220, ECAP_ACS), (0x230, ECAP_DPC), (0x290, ECAP_PL32), (0x2c0, ECAP_LMR)]
    return caps, ecaps


def intel_rciep_caps():
    return [(0x40, CAP_EXP)], [(0x100, ECAP_VNDR)]


def plx_port_caps(downstream):
    caps = [(0x40, CAP_PM), (0x48, CAP_MSI), (0x68, CAP_EXP), (0xa4, CAP_SSVID)]
    ecaps = [(0x100, ECAP_DSN), (0x138, ECAP_PWR), (0x148, ECAP_VC), (0x300, ECAP_SECPCI),
             (0x950, ECAP_VNDR)]
    if downstream:
        ecaps.append((0xf24, ECAP_ACS))      # cap 0x007f has EC: +8 egress vector (32 bytes)
    ecaps.append((0xfb4, ECAP_AER))
    return caps, ecaps


def nvidia_gpu_caps():
    caps = [(0x60, CAP_PM), (0x68, CAP_MSI), (0x78, CAP_EXP), (0xb4, CAP_VNDR), (0xc8, CAP_MSIX)]
    ecaps = [(0x100, ECAP_VC), (0x258, ECAP_L1SS), (0x128, ECAP_PWR), (0x420, ECAP_AER),
             (0x600, ECAP_VNDR), (0x900, ECAP_SECPCI), (0xbb0, ECAP_REBAR), (0xc1c, ECAP_PL16),
             (0xd00, ECAP_LMR), (0xe00, ECAP_PL32)]
    return caps, ecaps


def mlx5_caps(fn):
    caps = [(0x60, CAP_EXP), (0x9c, CAP_MSIX), (0xc0, CAP_VNDR), (0x40, CAP_PM)]
    ecaps = [(0x100, ECAP_AER), (0x150, ECAP_ARI), (0x180, ECAP_SECPCI), (0x1c0, ECAP_PL16),
             (0x230, ECAP_DSN)]
    return caps, ecaps


def nvme_caps():
    caps = [(0x40, CAP_PM), (0x50, CAP_MSI), (0x70, CAP_EXP), (0xb0, CAP_MSIX)]
    ecaps = [(0x100, ECAP_AER), (0x148, ECAP_DSN), (0x158, ECAP_PWR), (0x168, ECAP_SECPCI),
             (0x188, ECAP_LTR), (0x190, ECAP_L1SS)]
    return caps, ecaps


def amd_gpp_caps():
    caps = [(0x50, CAP_PM), (0x58, CAP_EXP), (0xa0, CAP_MSI), (0xc0, CAP_SSVID)]
    ecaps = [(0x100, ECAP_VNDR), (0x150, ECAP_AER), (0x270, ECAP_SECPCI), (0x2a0, ECAP_ACS),
             (0x370, ECAP_L1SS), (0x380, ECAP_DPC), (0x400, ECAP_DLF), (0x410, ECAP_PL16),
             (0x440, ECAP_LMR)]
    return caps, ecaps


def amd_rc_caps():
    return [], []


def qemu_root_port_caps():
    # QEMU pcie-root-port without ACS: [54] Express Root Port, [48] MSI-X, [40] SSVID; [100] AER
    return [(0x54, CAP_EXP), (0x48, CAP_MSIX), (0x40, CAP_SSVID)], [(0x100, ECAP_AER)]


def virtio_pcie_caps():
    caps = [(0xe4, CAP_PM), (0xd0, CAP_VNDR), (0xbc, CAP_VNDR), (0xac, CAP_VNDR),
            (0x9c, CAP_VNDR), (0x8c, CAP_VNDR), (0x80, CAP_MSIX), (0x40, CAP_EXP)]
    return caps, []


def virtio_conventional_caps():
    return [(0x84, CAP_VNDR), (0x70, CAP_VNDR), (0x60, CAP_VNDR), (0x50, CAP_VNDR),
            (0x40, CAP_VNDR)], []


# ---------------------------------------------------------------- device factories

def mk(bdf, vendor, device, cls, layout, **kw):
    caps, ecaps = layout
    return Dev(bdf, vendor, device, cls, caps=caps, ecaps=ecaps, **kw)


def h100(bdf, irq):
    return mk(bdf, 0x10de, 0x2330, 0x030200, nvidia_gpu_caps(), rev=0xa1, svid=0x10de,
              sdid=0x16c1, pcie=PCIE_EP, link=(5, 16, 5, 16), driver="nvidia", irq=irq)


def cx7(bdf, irq, serial):
    return mk(bdf, 0x15b3, 0x1021, 0x020700, mlx5_caps(0), svid=0x15b3, sdid=0x0041,
              pcie=PCIE_EP, link=(5, 16, 5, 16), driver="mlx5_core", irq=irq, serial=serial)


def fx_dgx8():
    fx = Fixture("dgx8", "dgx8-fake",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
                 "root=UUID=2f1e0d3c-4b5a-4c6d-8e7f-901a2b3c4d5e ro quiet")
    fx.iommu, fx.group_type = "intel", "DMA"
    rp_acs = (0x005f, 0x001d)          # SV TB RR CR UF DT; kernel set SV|RR|CR|UF
    sw_acs = (0x007f, 0x001d)          # PLX/Broadcom downstream port, EC implemented

    def rciep(bus):
        return mk("0000:%02x:00.0" % bus, 0x8086, 0x09a2, 0x088000, intel_rciep_caps(),
                  rev=0x04, pcie=PCIE_RCIEP)

    def root_port(bus, children, secondary, slot, link):
        return mk("0000:%02x:01.0" % bus, 0x8086, 0x352a, 0x060400, intel_spr_root_port_caps(),
                  rev=0x04, svid=0x8086, sdid=0x0000, pcie=PCIE_ROOT_PORT, link=link,
                  acs=rp_acs, children=children, secondary=secondary, driver="pcieport",
                  irq=0, slot=slot)

    def switch(rbus, n, irq0):
        up_bus, dn_bus = rbus + 1, rbus + 2
        downs = []
        for i in range(3):
            ep_bus = rbus + 3 + i
            ep_bdf = "0000:%02x:00.0" % ep_bus
            ep = h100(ep_bdf, irq0 + i) if i < 2 else cx7(ep_bdf, irq0 + i,
                                                          0xb83fd20300a1c000 + n)
            downs.append(mk("0000:%02x:%02x.0" % (dn_bus, i), 0x1000, 0xc030, 0x060400,
                            plx_port_caps(True), rev=0xb0, svid=0x1000, sdid=0xa064,
                            pcie=PCIE_DOWNSTREAM, link=(5, 16, 5, 16), acs=sw_acs,
                            children=[ep], secondary=ep_bus, driver="pcieport",
                            slot=0x20 * n + i))
        up = mk("0000:%02x:00.0" % up_bus, 0x1000, 0xc030, 0x060400, plx_port_caps(False),
                rev=0xb0, svid=0x1000, sdid=0xa064, pcie=PCIE_UPSTREAM, link=(5, 16, 5, 16),
                children=downs, secondary=dn_bus, driver="pcieport",
                serial=0x00a0c9fffe000000 + n)
        return root_port(rbus, [up], up_bus, 0x10 + n, (5, 16, 5, 16))

    cpus = {0: "0-55,112-167", 1: "56-111,168-223"}
    # root bus 00: misc + NVMe on its own root port
    nvme = mk("0000:01:00.0", 0x144d, 0xa80a, 0x010802, nvme_caps(), svid=0x144d,
              sdid=0xa813, pcie=PCIE_EP, link=(4, 4, 4, 4), driver="nvme", irq=16,
              serial=0x0038250041a02500)
    fx.roots.append((0, 0x00, 0, cpus[0], [
        rciep(0x00), root_port(0x00, [nvme], 0x01, 0x01, (4, 4, 4, 4))]))
    for n, (bus, node) in enumerate([(0x15, 0), (0x37, 0), (0x97, 1), (0xb7, 1)]):
        fx.roots.append((0, bus, node, cpus[node], [rciep(bus), switch(bus, n, 40 + 8 * n)]))
    fx.iommu_units = [("dmar0", [0x00, 0x15, 0x37], None), ("dmar1", [0x97, 0xb7], None)]
    # The driver's entries: minors in the order the driver probed, not PCI order (as seen
    # on HGX boards), so index (PCI order) and minor differ.
    gpus = ["0000:%02x:00.0" % b for b in (0x18, 0x19, 0x3a, 0x3b, 0x9a, 0x9b, 0xba, 0xbb)]
    for i, (bdf, minor) in enumerate(zip(gpus, (2, 3, 0, 1, 6, 7, 4, 5))):
        fx.nvidia[bdf] = ("NVIDIA H100 80GB HBM3",
                          "GPU-%08x-4e1c-9a2b-%04x-%012x" % (0x5a4f8ad5 + i, 0x1f3c + i,
                                                             0x1b8bc2d10000 + bdf_int(bdf)),
                          minor)
    return fx


def bdf_int(bdf):
    return int(bdf.replace(":", "").replace(".", ""), 16)


def nvidia_information(bdf, model, uuid, minor, irq):
    """/proc/driver/nvidia/gpus/BDF/information as the 535+ driver prints it."""
    return ("Model: \t\t %s\nIRQ:   \t\t %d\nGPU UUID: \t %s\nVideo BIOS: \t 96.00.74.00.11\n"
            "Bus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t 0xfffffffffffff\n"
            "Bus Location: \t %s\nDevice Minor: \t %d\nGPU Excluded:\t No\n"
            % (model, irq, uuid, bdf, minor))


def fx_l40_amd():
    fx = Fixture("l40-amd", "l40-amd-fake",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
                 "root=UUID=7c0a3e52-91d4-4c8e-b6a1-3f2d5e6c7b80 ro iommu=pt quiet")
    fx.iommu, fx.group_type = "amd", "identity"
    gpp_acs = (0x005f, 0x001d)
    cpus = {0: "0-31,64-95", 1: "32-63,96-127"}

    # Links (max speed, max width, current speed, current width), both ends of each hop
    # agreeing on the current state as the kernel shows it: L40s are Gen4 x16 parts; the one
    # at 41 trained at x8 in a x16 slot (degraded), the one at 81 sits in a x8 slot (not
    # degraded), the one at c1 idles at 2.5 GT/s (NVIDIA's power saving); the ConnectX-6 Dx
    # (Gen4 x16) runs at Gen3 in a Gen4 slot.
    def l40(bdf, irq, link=(4, 16, 4, 16)):
        return mk(bdf, 0x10de, 0x26b5, 0x030200, nvidia_gpu_caps(), rev=0xa1, svid=0x10de,
                  sdid=0x169d, pcie=PCIE_EP, link=link, driver="nvidia", irq=irq)

    def cx6dx(bdf, irq):
        return mk(bdf, 0x15b3, 0x101d, 0x020000, mlx5_caps(0), svid=0x15b3, sdid=0x0016,
                  pcie=PCIE_EP, link=(4, 16, 3, 16), driver="mlx5_core", irq=irq,
                  serial=0xe8ebd30300b2c3d0)

    def gpp(bus, fn, children, secondary, slot, link=(4, 16, 4, 16)):
        return mk("0000:%02x:01.%d" % (bus, fn), 0x1022, 0x1483, 0x060400, amd_gpp_caps(),
                  svid=0x1022, sdid=0x1453, pcie=PCIE_ROOT_PORT, link=link, acs=gpp_acs,
                  children=children, secondary=secondary, driver="pcieport", slot=slot)

    def base(bus):
        rc = mk("0000:%02x:00.0" % bus, 0x1022, 0x1480, 0x060000, amd_rc_caps(),
                svid=0x1022, sdid=0x1480)
        iommu = mk("0000:%02x:00.2" % bus, 0x1022, 0x1481, 0x080600,
                   ([(0x40, 0x0f), (0x64, CAP_MSI), (0x74, 0x08)], []),
                   svid=0x1022, sdid=0x1481, conventional=True)
        dummy = mk("0000:%02x:01.0" % bus, 0x1022, 0x1482, 0x060000, ([], []))
        return [rc, iommu, dummy]

    nic = [cx6dx("0000:02:00.0", 60), cx6dx("0000:02:00.1", 61)]
    fx.roots.append((0, 0x00, 0, cpus[0], base(0x00) + [
        gpp(0x00, 1, [l40("0000:01:00.0", 50)], 0x01, 1),
        gpp(0x00, 2, nic, 0x02, 2, link=(4, 16, 3, 16))]))
    fx.roots.append((0, 0x40, 0, cpus[0], base(0x40) + [
        gpp(0x40, 1, [l40("0000:41:00.0", 51, (4, 16, 4, 8))], 0x41, 3, link=(4, 16, 4, 8))]))
    fx.roots.append((0, 0x80, 1, cpus[1], base(0x80) + [
        gpp(0x80, 1, [l40("0000:81:00.0", 52, (4, 16, 4, 8))], 0x81, 4, link=(4, 8, 4, 8))]))
    fx.roots.append((0, 0xc0, 1, cpus[1], base(0xc0) + [
        gpp(0xc0, 1, [l40("0000:c1:00.0", 53, (4, 16, 1, 16))], 0xc1, 5,
            link=(4, 16, 1, 16)),
        gpp(0xc0, 2, [], 0xc2, 6, link=(4, 16, 1, 0))]))      # empty slot, link down
    fx.iommu_units = [("ivhd%d" % i, [b], "0000:%02x:00.2" % b)
                      for i, b in enumerate([0x00, 0x40, 0x80, 0xc0])]
    return fx


def fx_vm_noacs():
    fx = Fixture("vm-noacs", "vm-noacs-fake",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
                 "root=UUID=0e5b7d1a-3c2f-4a6b-9d8e-1f0a2b3c4d5e ro console=ttyS0,115200")
    hb = mk("0000:00:00.0", 0x8086, 0x29c0, 0x060000, ([], []), svid=0x1af4, sdid=0x1100)
    vga = mk("0000:00:01.0", 0x1234, 0x1111, 0x030000, ([], []), rev=0x02, svid=0x1af4,
             sdid=0x1100, conventional=True)

    def rp(fn, children, secondary, slot):
        return mk("0000:00:02.%d" % fn, 0x1b36, 0x000c, 0x060400, qemu_root_port_caps(),
                  svid=0x1b36, sdid=0x0000, pcie=PCIE_ROOT_PORT, link=(1, 1, 1, 1 if children else 0),
                  children=children, secondary=secondary, driver="pcieport", irq=22 + fn,
                  slot=slot)

    def virtio(bdf, device, cls, irq):
        return mk(bdf, 0x1af4, device, cls, virtio_pcie_caps(), rev=0x01, svid=0x1af4,
                  sdid=0x1100, pcie=PCIE_EP, link=(1, 1, 1, 1), driver="virtio-pci", irq=irq)

    gpu = mk("0000:03:00.0", 0x10de, 0x2330, 0x030200, nvidia_gpu_caps(), rev=0xa1,
             svid=0x10de, sdid=0x16c1, pcie=PCIE_EP, link=(5, 16, 5, 16), driver="nvidia",
             irq=30)
    balloon = mk("0000:00:03.0", 0x1af4, 0x1045, 0x00ff00, virtio_conventional_caps(),
                 rev=0x01, svid=0x1af4, sdid=0x1100, conventional=True, driver="virtio-pci",
                 irq=11)
    lpc = mk("0000:00:1f.0", 0x8086, 0x2918, 0x060100, ([], []), rev=0x02, svid=0x1af4,
             sdid=0x1100)
    sata = mk("0000:00:1f.2", 0x8086, 0x2922, 0x010601, ([(0x80, CAP_MSI), (0xa8, 0x12)], []),
              rev=0x02, svid=0x1af4, sdid=0x1100, conventional=True, driver="ahci", irq=33)
    smbus = mk("0000:00:1f.3", 0x8086, 0x2930, 0x0c0500, ([], []), rev=0x02, svid=0x1af4,
               sdid=0x1100, conventional=True, irq=16)
    fx.roots.append((0, 0x00, -1, "0-7", [
        hb, vga,
        rp(0, [virtio("0000:01:00.0", 0x1041, 0x020000, 24)], 0x01, 0),
        rp(1, [virtio("0000:02:00.0", 0x1042, 0x010000, 25)], 0x02, 1),
        rp(2, [gpu], 0x03, 2),
        rp(3, [], 0x04, 3),
        balloon, lpc, sata, smbus]))
    return fx


def fx_2socket():
    """Two sockets, five root complexes, a two-level switch, GPUs and NICs spread out:
    every distance class, redirecting and clean ports, names from infiniband/ and net/.
    See tests/fake/README.md for the tree."""
    fx = Fixture("2socket", "2socket-fake",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
                 "root=UUID=5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d ro quiet")
    fx.iommu, fx.group_type = "intel", "DMA"
    cpus = {0: "0-31,64-95", 1: "32-63,96-127"}
    rp_acs = (0x005f, 0x001d)

    def root_port(bus, dev, children, secondary, slot):
        return mk("0000:%02x:%02x.0" % (bus, dev), 0x8086, 0x352a, 0x060400,
                  intel_spr_root_port_caps(), rev=0x04, svid=0x8086, pcie=PCIE_ROOT_PORT,
                  link=(5, 16, 5, 16), acs=rp_acs, children=children, secondary=secondary,
                  driver="pcieport", slot=slot)

    def port(bdf, up, children, secondary, ctrl=None, slot=None):
        return mk(bdf, 0x1000, 0xc030, 0x060400, plx_port_caps(not up), rev=0xb0,
                  svid=0x1000, sdid=0xa064, pcie=PCIE_UPSTREAM if up else PCIE_DOWNSTREAM,
                  link=(5, 16, 5, 16), acs=None if up else (0x007f, ctrl),
                  children=children, secondary=secondary, driver="pcieport", slot=slot)

    def gpu(bdf, irq):
        return h100(bdf, irq)

    def cx7_fn(bdf, irq, fn, serial):
        return mk(bdf, 0x15b3, 0x1021, 0x020700, mlx5_caps(fn), svid=0x15b3, sdid=0x0041,
                  pcie=PCIE_EP, link=(5, 16, 5, 16), driver="mlx5_core", irq=irq,
                  serial=serial)

    def cx6dx(bdf, irq):
        return mk(bdf, 0x15b3, 0x101d, 0x020000, mlx5_caps(0), svid=0x15b3, sdid=0x0016,
                  pcie=PCIE_EP, link=(4, 16, 4, 16), driver="mlx5_core", irq=irq,
                  serial=0xe8ebd30300b2c3e0)

    def e810(bdf, irq):
        return mk(bdf, 0x8086, 0x159b, 0x020000, mlx5_caps(0), svid=0x8086, sdid=0x0003,
                  pcie=PCIE_EP, link=(4, 16, 4, 16), driver="ice", irq=irq)

    bmc = mk("0000:02:00.0", 0x1a03, 0x2000, 0x030000, ([], []), rev=0x41, svid=0x1a03,
             sdid=0x2000, conventional=True)
    bmc_bridge = mk("0000:01:00.0", 0x1a03, 0x1150, 0x060400, ([], []), rev=0x06,
                    children=[bmc], secondary=0x02, conventional=True)
    # socket 0, root bus 16: a two-level switch (PXB between its halves)
    lower = port("0000:1a:00.0", True, [
        port("0000:1b:00.0", False, [gpu("0000:1c:00.0", 41)], 0x1c, 0x001d, 0x31),
        port("0000:1b:01.0", False, [cx7_fn("0000:1d:00.0", 42, 0, 0xb83fd20300a1d000),
                                     cx7_fn("0000:1d:00.1", 43, 1, 0xb83fd20300a1d000)],
             0x1d, 0x0000, 0x32)], 0x1b)
    upper = port("0000:17:00.0", True, [
        port("0000:18:00.0", False, [gpu("0000:19:00.0", 40)], 0x19, 0x001d, 0x21),
        port("0000:18:01.0", False, [lower], 0x1a, 0x0011),
        port("0000:18:02.0", False, [cx6dx("0000:1e:00.0", 44)], 0x1e, 0x001d, 0x22)], 0x18)
    fx.roots.append((0, 0x00, 0, cpus[0], [root_port(0x00, 0x1c, [bmc_bridge], 0x01, 0x01)]))
    fx.roots.append((0, 0x16, 0, cpus[0], [root_port(0x16, 0x01, [upper], 0x17, 0x10)]))
    # socket 0, root bus 30: a GPU and a NIC on two root ports of one host bridge (PHB)
    fx.roots.append((0, 0x30, 0, cpus[0], [
        root_port(0x30, 0x01, [gpu("0000:31:00.0", 50)], 0x31, 0x11),
        root_port(0x30, 0x02, [e810("0000:32:00.0", 51)], 0x32, 0x12)]))
    # socket 1, root bus 80: one switch, a GPU and a NIC, EC on one port
    sw = port("0000:81:00.0", True, [
        port("0000:82:00.0", False, [gpu("0000:83:00.0", 60)], 0x83, 0x001d, 0x41),
        port("0000:82:01.0", False, [cx7_fn("0000:84:00.0", 61, 0, 0xb83fd20300a1e000)],
             0x84, 0x0020, 0x42)], 0x82)
    fx.roots.append((0, 0x80, 1, cpus[1], [root_port(0x80, 0x01, [sw], 0x81, 0x13)]))
    # socket 1, root bus a0: a lone GPU
    fx.roots.append((0, 0xa0, 1, cpus[1], [root_port(0xa0, 0x01, [gpu("0000:a1:00.0", 70)],
                                                     0xa1, 0x14)]))
    fx.iommu_units = [("dmar0", [0x00, 0x16, 0x30], None), ("dmar1", [0x80, 0xa0], None)]
    fx.post = names_2socket
    return fx


def names_2socket(root):
    """RDMA devices and netdevs the NICs are named by."""
    import netsys
    ib = {"0000:1d:00.0": "mlx5_0", "0000:1d:00.1": "mlx5_1", "0000:1e:00.0": "mlx5_2",
          "0000:84:00.0": "mlx5_3"}
    for n, (bdf, name) in enumerate(sorted(ib.items())):
        netsys.add_rdma_device(root, netsys.pci_dir(root, bdf), name,
                               node_guid="b83f:d203:00a1:%04x" % n, uverbs=n)
    netsys.add_netdev(root, "ens2f0np0", 4, "e8:eb:d3:b2:c3:e0", pci="0000:1e:00.0")
    netsys.add_netdev(root, "ens5f0", 5, "b4:96:91:00:00:01", pci="0000:32:00.0")


FIXTURES = {
    "dgx8": (fx_dgx8, None),
    "l40-amd": (fx_l40_amd, None),
    "vm-noacs": (fx_vm_noacs, None),
    "dgx8-nonroot": (fx_dgx8, 64),     # config files truncated to 64 bytes
    "dgx8-nommconf": (fx_dgx8, 256),   # no extended config space (pci=nommconf, no ECAM)
    "2socket": (fx_2socket, None),
}


def fx_hp_es1000():
    """An HP ProLiant with two 5520 I/O hubs (one per socket), three Tesla M2070 (0302),
    a ConnectX-2 VPI filed as 0c06 and the onboard ATI ES1000 (1002:515e, class 0300)
    behind the ICH's subtractive-decode PCI bridge 00:1e.0: the PCI part of hwloc's
    tests/hwloc/xml/24em64t-2n6c2t-pci.xml (BSD-3-Clause, open-mpi/hwloc commit
    6a15da121d6f; tests/fake/real/README.md), with the BAR sizes such cards have and the CPU
    topology lstopo needs. The ES1000 is no GPU; the Teslas are nvidia-smi 0-2."""
    fx = Fixture("hp-es1000", "proliant-sl390s",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=/dev/sda1 ro quiet")
    cpus = {0: "0,2,4,6,8,10,12,14,16,18,20,22", 1: "1,3,5,7,9,11,13,15,17,19,21,23"}

    def root_port(bus, dev, device, children, secondary, width):
        return mk("0000:%02x:%02x.0" % (bus, dev), 0x8086, device, 0x060400,
                  intel_spr_root_port_caps(), rev=0x13, pcie=PCIE_ROOT_PORT,
                  link=(2, width, 2, width), acs=(0x001f, 0x0000), children=children,
                  secondary=secondary,
                  driver="pcieport")

    def m2070(bdf, irq):
        return mk(bdf, 0x10de, 0x06d2, 0x030200, nvidia_gpu_caps(), rev=0xa3, svid=0x10de,
                  sdid=0x0830, pcie=PCIE_EP, link=(2, 16, 2, 16), driver="nvidia", irq=irq)

    igb = [mk("0000:04:00.%d" % f, 0x8086, 0x10c9, 0x020000, ([], []), rev=0x01,
              svid=0x103c, sdid=0x323f, pcie=PCIE_EP, link=(2, 4, 2, 4), driver="igb",
              irq=30 + f) for f in (0, 1)]
    cx2 = mk("0000:05:00.0", 0x15b3, 0x6746, 0x0c0600, mlx5_caps(0), rev=0xb0, svid=0x103c,
             sdid=0x3349, pcie=PCIE_EP, link=(2, 8, 2, 8), driver="mlx4_core", irq=40)
    es1000 = mk("0000:01:03.0", 0x1002, 0x515e, 0x030000, ([], []), rev=0x02, svid=0x103c,
                sdid=0x31fb, conventional=True, driver="radeon", irq=11)
    ich = mk("0000:00:1e.0", 0x8086, 0x244e, 0x060401, ([], []), rev=0x90,
             children=[es1000], secondary=0x01, conventional=True)
    fx.roots.append((0, 0x00, 0, cpus[0], [
        root_port(0x00, 0x01, 0x3408, igb, 0x04, 4),
        root_port(0x00, 0x05, 0x340c, [cx2], 0x05, 8),
        root_port(0x00, 0x07, 0x340e, [m2070("0000:06:00.0", 50)], 0x06, 16),
        ich]))
    fx.roots.append((0, 0x10, 1, cpus[1], [
        root_port(0x10, 0x03, 0x340a, [m2070("0000:14:00.0", 60)], 0x14, 16),
        root_port(0x10, 0x07, 0x340e, [m2070("0000:11:00.0", 61)], 0x11, 16)]))
    fx.post = post_hp_es1000
    return fx


def resource_bars(bars, n=13):
    """resource lines: bars = [(start, size, flags)] for BARs 0.. (size 0: unused)."""
    line = "0x%016x 0x%016x 0x%016x\n"
    out = [line % ((start, start + size - 1, flags) if size else (0, 0, 0))
           for start, size, flags in bars]
    return "".join(out) + line % (0, 0, 0) * (n - len(bars))


def cpu_topology(root, nodes):
    """sys/devices/system/{cpu,node} for nodes = {node: [cpu...]}, one package per node,
    one thread per core: what lstopo reads to place host bridges (local_cpus)."""
    sysd = os.path.join(root, "sys/devices/system")
    allc = sorted(c for v in nodes.values() for c in v)
    last = "0-%d\n" % allc[-1]
    for f in ("online", "possible", "present"):
        write(os.path.join(sysd, "cpu", f), last)
    write(os.path.join(sysd, "node/online"), "0-%d\n" % (len(nodes) - 1))
    write(os.path.join(sysd, "node/possible"), "0-%d\n" % (len(nodes) - 1))
    for node, cs in nodes.items():
        mask = sum(1 << c for c in cs)
        nd = os.path.join(sysd, "node", "node%d" % node)
        write(os.path.join(nd, "cpumap"), "%08x\n" % mask)
        write(os.path.join(nd, "cpulist"), ",".join(map(str, cs)) + "\n")
        write(os.path.join(nd, "meminfo"), "Node %d MemTotal:       18874368 kB\n" % node)
        for k, c in enumerate(cs):
            t = os.path.join(sysd, "cpu", "cpu%d" % c, "topology")
            write(os.path.join(t, "physical_package_id"), "%d\n" % node)
            write(os.path.join(t, "core_id"), "%d\n" % k)
            write(os.path.join(t, "thread_siblings"), "%08x\n" % (1 << c))
            write(os.path.join(t, "thread_siblings_list"), "%d\n" % c)
            write(os.path.join(t, "core_siblings"), "%08x\n" % mask)
            write(os.path.join(t, "core_siblings_list"), ",".join(map(str, cs)) + "\n")
            symlink("../../node/node%d" % node, os.path.join(sysd, "cpu", "cpu%d" % c,
                                                              "node%d" % node))


def post_hp_es1000(root):
    """BAR sizes, local_cpus per I/O hub, CPU topology, the HCA's names."""
    import netsys
    nodes = {0: list(range(0, 24, 2)), 1: list(range(1, 24, 2))}
    cpu_topology(root, nodes)
    mem, pref, pref64, io = 0x40200, 0x42208, 0x14220c, 0x40101
    bars = {  # as lspci -vv shows such boards
        "0000:01:03.0": [(0xd8000000, 128 << 20, pref), (0x3000, 0x100, io),
                         (0xf7ff0000, 64 << 10, mem)],
        "0000:04:00.0": [(0xfbe60000, 128 << 10, mem), (0xfb800000, 4 << 20, mem),
                         (0x5000, 0x20, io), (0xfbe5c000, 16 << 10, mem)],
        "0000:04:00.1": [(0xfbee0000, 128 << 10, mem), (0xfbc00000, 4 << 20, mem),
                         (0x5020, 0x20, io), (0xfbedc000, 16 << 10, mem)],
        "0000:05:00.0": [(0xfbf00000, 1 << 20, mem), (0, 0, 0), (0xf8800000, 8 << 20, pref64)],
    }
    for n, gpu in enumerate(("0000:06:00.0", "0000:11:00.0", "0000:14:00.0")):
        # Tesla M2070 (Fermi): BAR0 32 MiB, BAR1 128 MiB and BAR3 64 MiB prefetchable
        base = 0xe0000000 + n * 0x10000000
        bars[gpu] = [(0xf4000000 - n * 0x2000000, 32 << 20, mem), (base, 128 << 20, pref64),
                     (0, 0, 0), (base + (128 << 20), 64 << 20, pref64), (0, 0, 0),
                     (0x6000 + n * 0x80, 0x80, io)]
    for bdf, b in bars.items():
        with open(os.path.join(netsys.pci_dir(root, bdf), "resource"), "w") as f:
            f.write(resource_bars(b))
    masks = {0: sum(1 << c for c in nodes[0]), 1: sum(1 << c for c in nodes[1])}
    pci = os.path.join(root, "sys/bus/pci/devices")
    for bdf in os.listdir(pci):
        node = 0 if int(bdf.split(":")[1], 16) < 0x10 else 1
        with open(os.path.join(pci, bdf, "local_cpus"), "w") as f:
            f.write("%08x\n" % masks[node])
    netsys.add_rdma_device(root, netsys.pci_dir(root, "0000:05:00.0"), "mlx4_0",
                           node_guid="78e7:d103:0021:5535")
    netsys.add_netdev(root, "eth0", 2, "78:e7:d1:21:55:30", pci="0000:04:00.0", speed=1000)
    netsys.add_netdev(root, "eth1", 3, "78:e7:d1:21:55:31", pci="0000:04:00.1", speed=1000)
    netsys.add_netdev(root, "ib0", 4, "80:00:00:48:fe:80:00:00:00:00:00:00:78:e7:d1:03:00:21:"
                      "55:35", pci="0000:05:00.0", type_=32, speed=40000)


FIXTURES["hp-es1000"] = (fx_hp_es1000, None)


# ---------------------------------------------------------------- tree writer

def write(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    os.chmod(path, mode)


def symlink(target, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def rel(target, linkdir):
    return os.path.relpath(target, linkdir)


def resource_text(d):
    # 13 lines (BARs 0-5, ROM, SR-IOV BARs) for endpoints, 17 for bridges (+windows)
    n = 17 if d.is_bridge else 13
    return "".join("0x%016x 0x%016x 0x%016x\n" % (0, 0, 0) for _ in range(n))


def modalias(d):
    return "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
        d.vendor, d.device, d.svid, d.sdid, d.cls >> 16, (d.cls >> 8) & 0xff, d.cls & 0xff)


def build(fx, root, truncate=None):
    sysd = os.path.join(root, "sys")
    groups = {}   # group number -> [dev]

    # multi-function flags, NUMA, IOMMU unit, groups
    allbuses = []
    for dom, bus, node, cpulist, devs in fx.roots:
        for top in devs:
            for d in top.walk():
                d.numa, d.cpulist = node, cpulist
                allbuses.append(d)
    byslot = {}
    for d in allbuses:
        byslot.setdefault((d.domain, d.bus, d.dev), []).append(d)
    for fns in byslot.values():
        if len(fns) > 1:
            for d in fns:
                d.multifunction = True
    if fx.iommu:
        unit_of = {}
        for name, buses, _pcidev in fx.iommu_units:
            for b in buses:     # a root bus, or (domain, bus) where domains reuse numbers
                unit_of[b] = name
        amd_iommu_devs = {u[2] for u in fx.iommu_units if u[2]}
        n = 0
        for dom, bus, node, cpulist, devs in fx.roots:
            for top in devs:
                for d in top.walk():
                    if d.bdf in amd_iommu_devs:
                        continue          # the IOMMU itself is in no group
                    d.iommu = unit_of.get((dom, bus)) or unit_of[bus]
                    # functions of one multi-function endpoint without ACS share a group
                    shared = None
                    if d.multifunction and d.fn != 0 and not d.is_bridge and d.acs is None:
                        for o in byslot[(d.domain, d.bus, d.dev)]:
                            if o.fn == 0 and o.group is not None:
                                shared = o.group
                    if shared is not None:
                        d.group = shared
                    else:
                        d.group = n
                        n += 1
                    groups.setdefault(d.group, []).append(d)

    # devices
    for dom, bus, node, cpulist, devs in fx.roots:
        above = fx.root_parent.get((dom, bus))
        top_dir = next(d.path for d in allbuses if d.bdf == above) if above \
            else os.path.join(sysd, "devices")
        hb = os.path.join(top_dir, "pci%04x:%02x" % (dom, bus))
        os.makedirs(os.path.join(hb, "power"), exist_ok=True)
        write(os.path.join(hb, "uevent"), "")
        write_pci_bus(sysd, hb, dom, bus, cpulist)
        for top in devs:
            write_dev(fx, sysd, hb, top, truncate)

    # bus/pci
    busdir = os.path.join(sysd, "bus", "pci")
    os.makedirs(os.path.join(busdir, "devices"), exist_ok=True)
    os.makedirs(os.path.join(busdir, "slots"), exist_ok=True)
    write(os.path.join(busdir, "drivers_autoprobe"), "1\n")
    write(os.path.join(busdir, "resource_alignment"), "\n")
    write(os.path.join(busdir, "rescan"), "", 0o200)
    for d in allbuses:
        symlink(rel(d.path, os.path.join(busdir, "devices")),
                os.path.join(busdir, "devices", d.bdf))
        if d.driver:
            ddir = os.path.join(busdir, "drivers", d.driver)
            symlink(rel(d.path, ddir), os.path.join(ddir, d.bdf))
            symlink(rel(ddir, d.path), os.path.join(d.path, "driver"))

    # IOMMU
    if fx.iommu:
        for g, members in sorted(groups.items()):
            gd = os.path.join(sysd, "kernel", "iommu_groups", str(g))
            write(os.path.join(gd, "type"), fx.group_type + "\n")
            write(os.path.join(gd, "reserved_regions"),
                  "0x00000000fee00000 0x00000000feefffff msi\n")
            for d in members:
                symlink(rel(d.path, os.path.join(gd, "devices")),
                        os.path.join(gd, "devices", d.bdf))
                symlink(rel(gd, d.path), os.path.join(d.path, "iommu_group"))
        for idx, (name, buses, pcidev) in enumerate(fx.iommu_units):
            if fx.iommu == "intel":
                ud = os.path.join(sysd, "devices", "virtual", "iommu", name)
                write(os.path.join(ud, "intel-iommu", "version"), "1:0\n")
                write(os.path.join(ud, "intel-iommu", "address"),
                      "%x\n" % (0xc5ffc000 - idx * 0x2000000))
                write(os.path.join(ud, "intel-iommu", "cap"), "d2008c40660462\n")
                write(os.path.join(ud, "intel-iommu", "ecap"), "f25ff050f1eff\n")
            else:
                pd = next(d for d in allbuses if d.bdf == pcidev)
                ud = os.path.join(pd.path, "iommu", name)
                write(os.path.join(ud, "amd-iommu", "cap"), "0x00190000\n")
                write(os.path.join(ud, "amd-iommu", "features"), "0x25bf732fa2295afe\n")
            write(os.path.join(ud, "uevent"), "")
            os.makedirs(os.path.join(ud, "power"), exist_ok=True)
            symlink(rel(os.path.join(sysd, "class", "iommu"), ud), os.path.join(ud, "subsystem"))
            for d in allbuses:
                if d.iommu == name:
                    symlink(rel(d.path, os.path.join(ud, "devices")),
                            os.path.join(ud, "devices", d.bdf))
                    symlink(rel(ud, d.path), os.path.join(d.path, "iommu"))
            symlink(rel(ud, os.path.join(sysd, "class", "iommu")),
                    os.path.join(sysd, "class", "iommu", name))

    # securityfs (mounted on Debian): kernel lockdown off
    write(os.path.join(sysd, "kernel", "security", "lockdown"),
          "[none] integrity confidentiality\n", 0o444)

    # the NVIDIA driver's per-GPU entries (only while nvidia.ko is loaded)
    for d in allbuses:
        if d.bdf in fx.nvidia:
            model, uuid, minor = fx.nvidia[d.bdf]
            write(os.path.join(root, "proc", "driver", "nvidia", "gpus", d.bdf, "information"),
                  nvidia_information(d.bdf, model, uuid, minor, d.irq), 0o444)

    # proc, etc, run
    write(os.path.join(root, "proc", "cmdline"), fx.cmdline + "\n", 0o444)
    write(os.path.join(root, "proc", "sys", "kernel", "hostname"), fx.hostname + "\n")
    write(os.path.join(root, "proc", "sys", "kernel", "osrelease"), fx.osrelease + "\n", 0o444)
    os.makedirs(os.path.join(root, "etc", "hostprep"), exist_ok=True)
    os.makedirs(os.path.join(root, "run"), exist_ok=True)
    os.chmod(os.path.join(root, "run"), 0o755)


def write_pci_bus(sysd, parent, dom, bus, cpulist):
    name = "%04x:%02x" % (dom, bus)
    pb = os.path.join(parent, "pci_bus", name)
    write(os.path.join(pb, "cpulistaffinity"), (cpulist or "0") + "\n")
    write(os.path.join(pb, "rescan"), "", 0o200)
    write(os.path.join(pb, "uevent"), "")
    os.makedirs(os.path.join(pb, "power"), exist_ok=True)
    cls = os.path.join(sysd, "class", "pci_bus")
    symlink(rel(pb, cls), os.path.join(cls, name))
    symlink(rel(cls, pb), os.path.join(pb, "subsystem"))
    symlink(rel(parent, pb), os.path.join(pb, "device"))


def write_dev(fx, sysd, parent, d, truncate):
    p = os.path.join(parent, d.bdf)
    d.path = p
    os.makedirs(os.path.join(p, "power"), exist_ok=True)
    cfg = build_config(d)
    if truncate:
        cfg = cfg[:truncate]
    write(os.path.join(p, "config"), cfg, 0o644)
    write(os.path.join(p, "vendor"), "0x%04x\n" % d.vendor, 0o444)
    write(os.path.join(p, "device"), "0x%04x\n" % d.device, 0o444)
    write(os.path.join(p, "class"), "0x%06x\n" % d.cls, 0o444)
    write(os.path.join(p, "subsystem_vendor"), "0x%04x\n" % d.svid, 0o444)
    write(os.path.join(p, "subsystem_device"), "0x%04x\n" % d.sdid, 0o444)
    write(os.path.join(p, "revision"), "0x%02x\n" % d.rev, 0o444)
    write(os.path.join(p, "irq"), "%d\n" % d.irq, 0o444)
    write(os.path.join(p, "numa_node"), "%d\n" % d.numa, 0o644)
    write(os.path.join(p, "local_cpulist"), (d.cpulist or "0") + "\n", 0o444)
    write(os.path.join(p, "local_cpus"), "ffffffff\n", 0o444)
    write(os.path.join(p, "enable"), "1\n" if d.driver else "0\n", 0o600)
    write(os.path.join(p, "resource"), resource_text(d), 0o444)
    write(os.path.join(p, "modalias"), modalias(d) + "\n", 0o444)
    write(os.path.join(p, "dma_mask_bits"), "64\n", 0o444)
    write(os.path.join(p, "consistent_dma_mask_bits"), "64\n", 0o444)
    write(os.path.join(p, "broken_parity_status"), "0\n", 0o644)
    write(os.path.join(p, "msi_bus"), "1\n", 0o644)
    write(os.path.join(p, "d3cold_allowed"), "1\n", 0o644)
    write(os.path.join(p, "driver_override"), "(null)\n", 0o644)
    write(os.path.join(p, "remove"), "", 0o200)
    write(os.path.join(p, "rescan"), "", 0o200)
    uevent = ""
    if d.driver:
        uevent += "DRIVER=%s\n" % d.driver
    uevent += "PCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n" \
              "PCI_SLOT_NAME=%s\nMODALIAS=%s\n" % (d.cls, d.vendor, d.device, d.svid, d.sdid,
                                                 d.bdf, modalias(d))
    write(os.path.join(p, "uevent"), uevent)
    if d.pcie is not None and d.link and d.pcie != PCIE_RCIEP:
        ms, mw, cs, cw = d.link
        write(os.path.join(p, "max_link_speed"), SPEED_NAME[ms] + "\n", 0o444)
        write(os.path.join(p, "max_link_width"), "%d\n" % mw, 0o444)
        write(os.path.join(p, "current_link_speed"),
              (SPEED_NAME[cs] if cw else "Unknown") + "\n", 0o444)
        write(os.path.join(p, "current_link_width"), "%d\n" % cw, 0o444)
    if d.is_bridge:
        write(os.path.join(p, "secondary_bus_number"), "%d\n" % d.secondary, 0o444)
        write(os.path.join(p, "subordinate_bus_number"), "%d\n" % d.subordinate(), 0o444)
        write_pci_bus(sysd, p, d.domain, d.secondary, d.cpulist)
    symlink(rel(os.path.join(sysd, "bus", "pci"), p), os.path.join(p, "subsystem"))
    for c in d.children:
        assert c.bus == d.secondary, (d.bdf, c.bdf)
        write_dev(fx, sysd, p, c, truncate)


def kmod_overlays():
    """Overlay fixtures (a base fixture plus more): tests/fake/kmod/fixtures.py and every
    tests/fake/net/*_fixtures.py (RDMA ports, bonds, workload), each with an OVERLAYS dict
    name -> (base fixture, function(root))."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "kmod"))
    sys.path.insert(0, os.path.join(here, "net"))
    import importlib
    import fixtures
    overlays = dict(fixtures.OVERLAYS)
    for f in sorted(os.listdir(os.path.join(here, "net"))):
        if f.endswith("_fixtures.py"):
            overlays.update(importlib.import_module(f[:-3]).OVERLAYS)
    return overlays


def fx_gpus(n):
    """n H100s, each alone below its own root port on bus 00: a host with more GPUs than
    any real one, to pin what hostprep does with a quadratic pair list (p2p.json lists
    n(n-1)/2 pairs up to its cap: gpus-91 makes 4095, gpus-92 4186)."""
    fx = Fixture("gpus-%d" % n, "gpus%d-fake" % n,
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=/dev/sda1 ro quiet")
    fx.iommu, fx.group_type = "intel", "DMA"
    ports = []
    for i in range(n):
        bus = i + 1
        ports.append(mk("0000:00:%02x.%d" % (i // 8 + 1, i % 8), 0x8086, 0x352a, 0x060400,
                        intel_spr_root_port_caps(), rev=0x04, svid=0x8086, sdid=0x0000,
                        pcie=PCIE_ROOT_PORT, link=(5, 16, 5, 16), acs=(0x005f, 0x001d),
                        children=[h100("0000:%02x:00.0" % bus, 40 + i)], secondary=bus,
                        driver="pcieport", irq=0, slot=i + 1))
    fx.roots.append((0, 0x00, 0, "0-7", ports))
    fx.iommu_units = [("dmar0", [0x00], None)]
    return fx


def main(argv):
    overlays = kmod_overlays()
    m = re.fullmatch(r"gpus-(\d+)", argv[1]) if len(argv) == 3 else None
    if m and 1 <= int(m.group(1)) <= 240:
        FIXTURES[argv[1]] = (lambda: fx_gpus(int(m.group(1))), None)
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(list(FIXTURES) + list(overlays)))
        return 0
    if len(argv) == 3 and argv[1] in overlays:
        base, overlay = overlays[argv[1]]
        argv = [argv[0], base, argv[2]]
    else:
        overlay = None
    if len(argv) != 3 or argv[1] not in FIXTURES:
        sys.stderr.write("usage: mkroot.py {%s} DIR\n       mkroot.py --list\n"
                         % "|".join(FIXTURES))
        return 2
    name, root = argv[1], os.path.abspath(argv[2])
    if os.path.exists(root) and os.listdir(root):
        sys.stderr.write("mkroot.py: %s exists and is not empty\n" % root)
        return 2
    if root in ("/", "") or os.path.realpath(root) == "/":
        sys.stderr.write("mkroot.py: refusing to build over /\n")
        return 2
    os.makedirs(root, exist_ok=True)
    os.umask(0o022)
    factory, truncate = FIXTURES[name]
    fx = factory()
    build(fx, root, truncate)
    if getattr(fx, "post", None):
        fx.post(root)
    if overlay:
        overlay(root)
    return 0


def fx_gb200():
    """A GB200-like tray (shape from NVIDIA's GB200 NVL72 compute tray, written by hand):
    two Grace CPUs (NUMA 0 and 1, 72 cores each), each with two Blackwell GPUs
    (10de:2941, 0302) and two ConnectX-7 (15b3:1021, 0207), every one of them alone on its
    own Grace root port in its own PCI domain: no switch anywhere, so GPU-NIC pairs on one
    Grace are NODE and across Graces SYS, and no pair reaches PIX/PXB/PHB (P2P between GPUs
    goes over NVLink, which PCI sysfs does not show)."""
    fx = Fixture("gb200", "gb200-tray",
                 "BOOT_IMAGE=/boot/vmlinuz-6.8.0-1015-nvidia-64k root=UUID=0e4f7c2a ro "
                 "iommu.passthrough=1", osrelease="6.8.0-1015-nvidia-64k")
    cpus = {0: "0-71", 1: "72-143"}

    def grace_port(dom, child):
        return mk("%04x:00:00.0" % dom, 0x10de, 0x22b1, 0x060400, qemu_root_port_caps(),
                  rev=0x01, pcie=PCIE_ROOT_PORT, link=(5, 16, 5, 16), acs=(0x005f, 0x0000),
                  children=[child], secondary=0x01, driver="pcieport")

    def b200(dom, irq):
        return mk("%04x:01:00.0" % dom, 0x10de, 0x2941, 0x030200, nvidia_gpu_caps(),
                  rev=0xa1, svid=0x10de, sdid=0x199b, pcie=PCIE_EP, link=(5, 16, 5, 16),
                  driver="nvidia", irq=irq)

    def cx7(dom, irq, serial):
        return mk("%04x:01:00.0" % dom, 0x15b3, 0x1021, 0x020700, mlx5_caps(0),
                  svid=0x15b3, sdid=0x0041, pcie=PCIE_EP, link=(5, 16, 5, 16),
                  driver="mlx5_core", irq=irq, serial=serial)

    for node, (nics, gpus) in enumerate((((0x0000, 0x0002), (0x0008, 0x0009)),
                                         ((0x0010, 0x0012), (0x0018, 0x0019)))):
        for k, dom in enumerate(nics):
            fx.roots.append((dom, 0x00, node, cpus[node], [
                grace_port(dom, cx7(dom, 100 + dom, 0x58a2e10300c0e000 + dom))]))
        for k, dom in enumerate(gpus):
            fx.roots.append((dom, 0x00, node, cpus[node], [grace_port(dom, b200(dom, 200 + dom))]))
    fx.post = names_gb200
    return fx


def names_gb200(root):
    import netsys
    for n, dom in enumerate((0x0000, 0x0002, 0x0010, 0x0012)):
        bdf = "%04x:01:00.0" % dom
        netsys.add_rdma_device(root, netsys.pci_dir(root, bdf), "mlx5_%d" % n,
                               node_guid="58a2:e103:00c0:%04x" % dom, uverbs=n)


FIXTURES["gb200"] = (fx_gb200, None)


def fx_accel_plx():
    """An accelerator host (issue 29): one Sapphire Rapids root port, a PLX PEX 8796 switch
    below it (10b5:8796, downstream ACS at 0xf24, cap 0x007f, the kernel's 0x001d: RR and
    CR on), and on its downstream ports two Habana Gaudi2 (1da3:1020, 1200), two Intel Arc
    Pro B70 (8086:e223, 0300), a ConnectX-7 (0207) and an Intel QuickAssist 8970 adapter
    (8086:37c8, 0b40: no accelerator, its port must stay as it is); the Xeon's own QAT
    (8086:4940, 0b40) is a root-complex integrated endpoint on the root bus."""
    fx = Fixture("accel-plx", "accel-plx-fake",
                 "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=5d1c2b3a ro quiet")
    fx.iommu, fx.group_type = "intel", "DMA"
    ep_caps = ([(0x40, CAP_PM), (0x50, CAP_MSI), (0x70, CAP_EXP), (0xb0, CAP_MSIX)],
               [(0x100, ECAP_AER), (0x148, ECAP_SECPCI), (0x200, ECAP_PL16)])
    eps = [
        mk("0000:03:00.0", 0x1da3, 0x1020, 0x120000, ep_caps, pcie=PCIE_EP,
           link=(4, 16, 4, 16), driver="habanalabs", irq=40),
        mk("0000:04:00.0", 0x1da3, 0x1020, 0x120000, ep_caps, pcie=PCIE_EP,
           link=(4, 16, 4, 16), driver="habanalabs", irq=41),
        mk("0000:05:00.0", 0x8086, 0xe223, 0x030000, ep_caps, pcie=PCIE_EP,
           link=(4, 16, 4, 16), driver="xe", irq=42),
        mk("0000:06:00.0", 0x8086, 0xe223, 0x030000, ep_caps, pcie=PCIE_EP,
           link=(4, 16, 4, 16), driver="xe", irq=43),
        cx7("0000:07:00.0", 44, 0xb83fd20300a1d000),
        mk("0000:08:00.0", 0x8086, 0x37c8, 0x0b4000, ep_caps, svid=0x8086, sdid=0x0002,
           pcie=PCIE_EP, link=(3, 16, 3, 16), driver="c6xx", irq=45),
    ]
    downs = [mk("0000:02:%02x.0" % i, 0x10b5, 0x8796, 0x060400, plx_port_caps(True),
                rev=0xab, pcie=PCIE_DOWNSTREAM, link=(3, 16, 3, 16), acs=(0x007f, 0x001d),
                children=[ep], secondary=0x03 + i, driver="pcieport", slot=0x30 + i)
             for i, ep in enumerate(eps)]
    up = mk("0000:01:00.0", 0x10b5, 0x8796, 0x060400, plx_port_caps(False), rev=0xab,
            pcie=PCIE_UPSTREAM, link=(3, 16, 3, 16), children=downs, secondary=0x02,
            driver="pcieport")
    rp = mk("0000:00:01.0", 0x8086, 0x352a, 0x060400, intel_spr_root_port_caps(), rev=0x04,
            pcie=PCIE_ROOT_PORT, link=(4, 16, 3, 16), acs=(0x005f, 0x001d), children=[up],
            secondary=0x01, driver="pcieport", slot=0x01)
    qat = mk("0000:00:02.0", 0x8086, 0x4940, 0x0b4000, intel_rciep_caps(), rev=0x40,
             pcie=PCIE_RCIEP, driver="4xxx")
    fx.roots.append((0, 0x00, 0, "0-31", [rp, qat]))
    fx.iommu_units = [("dmar0", [0x00], None)]
    fx.post = names_accel_plx
    return fx


def names_accel_plx(root):
    import netsys
    netsys.add_rdma_device(root, netsys.pci_dir(root, "0000:07:00.0"), "mlx5_0",
                           node_guid="b83f:d203:00a1:d000", uverbs=0)


FIXTURES["accel-plx"] = (fx_accel_plx, None)





def fx_hgx_h100():
    """An HGX H100 baseboard host (issue 28 §2): dgx8's eight H100 SXM5 and their PCIe
    switches, plus the four third-generation NVSwitches (10de:22a3, class 0680, bound to
    nvidia-nvswitch) behind one more Broadcom switch on their own root port, as `lspci`
    lists them on HGX H100 8-GPU boards. PCI sysfs shows no NVLink: the NVML record each
    case writes says which links are up (tests/fake/nvml_record.py)."""
    fx = fx_dgx8()
    fx.name, fx.hostname = "hgx-h100", "hgx-h100-fake"
    sw_acs = (0x007f, 0x001d)
    downs = []
    for i in range(4):
        sw_bus = 0x63 + i
        nvsw = mk("0000:%02x:00.0" % sw_bus, 0x10de, 0x22a3, 0x068000, nvidia_gpu_caps(),
                  rev=0xa1, svid=0x10de, sdid=0x1796, pcie=PCIE_EP, link=(4, 2, 4, 2),
                  driver="nvidia-nvswitch", irq=90 + i)
        downs.append(mk("0000:62:%02x.0" % i, 0x1000, 0xc030, 0x060400, plx_port_caps(True),
                        rev=0xb0, svid=0x1000, sdid=0xa064, pcie=PCIE_DOWNSTREAM,
                        link=(4, 2, 4, 2), acs=sw_acs, children=[nvsw], secondary=sw_bus,
                        driver="pcieport", slot=0x90 + i))
    up = mk("0000:61:00.0", 0x1000, 0xc030, 0x060400, plx_port_caps(False), rev=0xb0,
            svid=0x1000, sdid=0xa064, pcie=PCIE_UPSTREAM, link=(4, 8, 4, 8), children=downs,
            secondary=0x62, driver="pcieport", serial=0x00a0c9fffe0000f0)
    rp = mk("0000:60:01.0", 0x8086, 0x352a, 0x060400, intel_spr_root_port_caps(), rev=0x04,
            svid=0x8086, sdid=0x0000, pcie=PCIE_ROOT_PORT, link=(4, 8, 4, 8),
            acs=(0x005f, 0x001d), children=[up], secondary=0x61, driver="pcieport", irq=0,
            slot=0x60)
    fx.roots.append((0, 0x60, 0, "0-55,112-167", [rp]))
    fx.iommu_units = [("dmar0", [0x00, 0x15, 0x37, 0x60], None), ("dmar1", [0x97, 0xb7], None)]
    return fx


FIXTURES["hgx-h100"] = (fx_hgx_h100, None)


def fx_vmd():
    """dgx8 plus an Intel VMD (Volume Management Device, 8086:28c0, class 0104, bound to
    vmd) on root bus 00 that hosts PCI domain 10000: one Sapphire Rapids root port and a
    ConnectX-7 below it. As the kernel lays it out (drivers/pci/controller/vmd.c), the
    domain's root bus sits below the VMD function, not below sys/devices, and its
    functions are named with a five-digit domain: .../0000:00:0e.0/pci10000:00/
    10000:00:02.0/10000:01:00.0."""
    fx = fx_dgx8()
    fx.name, fx.hostname = "vmd", "vmd-fake"
    vmd = mk("0000:00:0e.0", 0x8086, 0x28c0, 0x010400, nvme_caps(), rev=0x04, svid=0x8086,
             sdid=0x0000, pcie=PCIE_RCIEP, driver="vmd", irq=24)
    fx.roots[0][4].append(vmd)
    nic = cx7("10000:01:00.0", 70, 0xb83fd20300a1e000)
    rp = mk("10000:00:02.0", 0x8086, 0x352a, 0x060400, intel_spr_root_port_caps(), rev=0x04,
            svid=0x8086, sdid=0x0000, pcie=PCIE_ROOT_PORT, link=(5, 16, 5, 16),
            acs=(0x005f, 0x001d), children=[nic], secondary=0x01, driver="pcieport", irq=0,
            slot=0x52)
    fx.roots.append((0x10000, 0x00, 0, "0-55,112-167", [rp]))
    fx.root_parent[(0x10000, 0x00)] = "0000:00:0e.0"
    return fx


FIXTURES["vmd"] = (fx_vmd, None)

if __name__ == "__main__":
    sys.exit(main(sys.argv))
