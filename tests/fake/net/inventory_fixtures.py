# SPDX-License-Identifier: GPL-2.0-or-later
"""Overlays for the [Inventory] and [AER] checks (fake cases 320-339). Kept here because
mkroot.py loads overlays from this directory.

inv-faults  ib-gpu plus a physical slot (bus/pci/slots/N/address) for each of dgx8's twelve
            switch downstream ports (slot numbers 0x20*n+i as the ports' Slot Capabilities
            say), and the faults a fleet sees:
            - 0000:3b:00.0 (H100 behind 39:01.0, slot 33) gone from the bus: no sysfs entry,
              no driver link, no IOMMU group member, no NVIDIA driver entry;
            - 0000:9b:00.0 (H100) not responding: config space reads all-ones;
            - 0000:ba:00.0 (H100) on the bus with no driver bound;
            - 0000:bc:00.0 (ConnectX-7, mlx5_core bound) without its RDMA device mlx5_6 and
              its IPoIB netdev ib3: a failed probe.
inv-disabled  ib-gpu with mlx5_3 port 1 "4: ACTIVE" / "3: Disabled" (the logical state left
            ACTIVE while the link is administratively down): no port rdma.port calls up.
inv-vf      ib-gpu with SR-IOV on: 0000:bc:00.1 (the second physical function, not in
            bus/pci/devices) lost its RDMA device mlx5_7 (mlx5_ib did not probe it), while
            0000:1a:00.0 has one virtual
            function 0000:1a:00.2 (15b3:101e, physfn/virtfn0 links, sriov_numvfs 1; not in
            bus/pci/devices, like the second functions) with its own RDMA device mlx5_8,
            InfiniBand port 1 ACTIVE/LinkUp: the VF's device and port would make up for the
            PF's lost ones in a count of everything in the RDMA class.
inv-qat     ib-gpu on a Sapphire Rapids-like host: the four RCiEPs 15:00.0, 37:00.0,
            97:00.0, b7:00.0 become Intel QuickAssist 4xxx endpoints (8086:4940, class 0b40,
            qat_4xxx bound), as on every SPR/EMR Xeon, and H100 0000:3b:00.0 fell off the bus
            (config space reads all-ones); physical slots as in inv-faults.
es1000-plain  hp-es1000 with the ICH's bridge 00:1e.0 turned into a plain PCIe bridge
            (prog-if 00, a PCI Express root port capability) and the ES1000's resource file
            gone (no BAR size to read): only the ES1000's own header, without any capability
            (conventional PCI), says it is no GPU.
aer-dgx8    dgx8 plus the kernel's AER counters (drivers/pci/pcie/aer.c, Linux 6.1 strings)
            on the GPUs, NICs and every port on their paths, except below root port
            b7:01.0 (AER owned elsewhere: no files); root ports also
            aer_rootport_total_err_{cor,fatal,nonfatal}. Non-zero: H100 18:00.0
            correctable RxErr 10 + BadTLP 2; H100 19:00.0 non-fatal CmpltTO 1; root port
            15:01.0 received 12 correctable and 1 non-fatal; everything else 0.
aer-broken  aer-dgx8 with 9c:00.0's aer_dev_fatal cut before its TOTAL_ERR_FATAL line.
"""

import os
import shutil
import sys

import netsys
import rdma_fixtures

COR = ["RxErr", "BadTLP", "BadDLLP", "Rollover", "Timeout", "NonFatalErr", "CorrIntErr",
       "HeaderOF"]
UNCOR = ["Undefined", "DLP", "SDES", "TLP", "FCP", "CmpltTO", "CmpltAbrt", "UnxCmplt", "RxOF",
         "MalfTLP", "ECRC", "UnsupReq", "ACSViol", "UncorrIntErr", "BlockedTLP",
         "AtomicOpBlocked", "TLPBlockedErr", "PoisonTLPBlocked"]
SWITCH_ROOTS = [0x15, 0x37, 0x97, 0xb7]


def slots(root):
    for n, rbus in enumerate(SWITCH_ROOTS):
        for i in range(3):
            netsys.write(os.path.join(root, "sys/bus/pci/slots", "%d" % (0x20 * n + i),
                                      "address"), "0000:%02x:00\n" % (rbus + 3 + i), 0o444)


def unlink_all(paths):
    for p in paths:
        if os.path.lexists(p):
            os.unlink(p)


def gone(root, bdf):
    d = netsys.pci_dir(root, bdf)
    group = os.path.realpath(os.path.join(d, "iommu_group"))
    unlink_all([os.path.join(root, "sys/bus/pci/devices", bdf),
                os.path.join(root, "sys/bus/pci/drivers/nvidia", bdf),
                os.path.join(group, "devices", bdf)])
    for unit in os.listdir(os.path.join(root, "sys/class/iommu")):
        unlink_all([os.path.join(root, "sys/class/iommu", unit, "devices", bdf)])
    shutil.rmtree(d)
    shutil.rmtree(os.path.join(root, "proc/driver/nvidia/gpus", bdf))


def not_responding(root, bdf):
    cfg = os.path.join(netsys.pci_dir(root, bdf), "config")
    size = os.path.getsize(cfg)
    with open(cfg, "wb") as f:
        f.write(b"\xff" * size)


def no_driver(root, bdf, driver):
    d = netsys.pci_dir(root, bdf)
    unlink_all([os.path.join(d, "driver"),
                os.path.join(root, "sys/bus/pci/drivers", driver, bdf)])


def failed_probe(root, bdf, rdma, netdev, uverbs):
    d = netsys.pci_dir(root, bdf)
    for sub in ("infiniband", "infiniband_verbs", "net"):
        shutil.rmtree(os.path.join(d, sub))
    unlink_all([os.path.join(root, "sys/class/infiniband", rdma),
                os.path.join(root, "sys/class/infiniband_verbs", uverbs),
                os.path.join(root, "sys/class/net", netdev)])


def inv_faults(root):
    rdma_fixtures.ib_gpu(root)
    slots(root)
    gone(root, "0000:3b:00.0")
    not_responding(root, "0000:9b:00.0")
    no_driver(root, "0000:ba:00.0", "nvidia")
    failed_probe(root, "0000:bc:00.0", "mlx5_6", "ib3", "uverbs6")


def dev_text(names, counts, total):
    lines = ["%s %d" % (n, counts.get(n, 0)) for n in names]
    return "\n".join(lines + ["TOTAL_%s %d" % (total, sum(counts.values()))]) + "\n"


def aer_files(d, cor=None, nonfatal=None, fatal=None, rootport=None):
    netsys.write(os.path.join(d, "aer_dev_correctable"), dev_text(COR, cor or {}, "ERR_COR"),
                 0o444)
    netsys.write(os.path.join(d, "aer_dev_nonfatal"),
                 dev_text(UNCOR, nonfatal or {}, "ERR_NONFATAL"), 0o444)
    netsys.write(os.path.join(d, "aer_dev_fatal"), dev_text(UNCOR, fatal or {}, "ERR_FATAL"),
                 0o444)
    if rootport is not None:
        for k, v in zip(("cor", "nonfatal", "fatal"), rootport):
            netsys.write(os.path.join(d, "aer_rootport_total_err_" + k), "%d\n" % v, 0o444)


def aer_dgx8(root):
    special = {
        "0000:18:00.0": {"cor": {"RxErr": 10, "BadTLP": 2}},
        "0000:19:00.0": {"nonfatal": {"CmpltTO": 1}},
    }
    for rbus in SWITCH_ROOTS:
        if rbus == 0xb7:
            continue  # no AER files below this root port
        rp = "0000:%02x:01.0" % rbus
        aer_files(netsys.pci_dir(root, rp), rootport=(12, 1, 0) if rbus == 0x15 else (0, 0, 0))
        aer_files(netsys.pci_dir(root, "0000:%02x:00.0" % (rbus + 1)))
        for i in range(3):
            aer_files(netsys.pci_dir(root, "0000:%02x:%02x.0" % (rbus + 2, i)))
            ep = "0000:%02x:00.0" % (rbus + 3 + i)
            aer_files(netsys.pci_dir(root, ep), **special.get(ep, {}))


def aer_broken(root):
    aer_dgx8(root)
    p = os.path.join(netsys.pci_dir(root, "0000:9c:00.0"), "aer_dev_fatal")
    os.chmod(p, 0o644)
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text[:text.index("TOTAL_")])
    os.chmod(p, 0o444)


def port_state(root, dev, port, state, phys):
    """Rewrite one RDMA port's state and phys_state files (0444, as the kernel's)."""
    d = os.path.join(root, "sys/class/infiniband", dev, "ports", "%d" % port)
    for name, text in (("state", state), ("phys_state", phys)):
        p = os.path.join(os.path.realpath(d), name)
        os.chmod(p, 0o644)
        with open(p, "w") as f:
            f.write(text + "\n")
        os.chmod(p, 0o444)


def add_vf(root, pf_bdf, vf_bdf, n):
    """SR-IOV virtual function n of pf_bdf, as the kernel links them (physfn, virtfnN)."""
    pf = netsys.pci_dir(root, pf_bdf)
    vf = netsys.add_pci_function(root, os.path.dirname(pf), vf_bdf, 0x15b3, 0x101e, 0x020700)
    netsys.symlink("../" + pf_bdf, os.path.join(vf, "physfn"))
    netsys.symlink("../" + vf_bdf, os.path.join(pf, "virtfn%d" % n))
    netsys.write(os.path.join(pf, "sriov_numvfs"), "%d\n" % (n + 1))
    netsys.write(os.path.join(pf, "sriov_totalvfs"), "16\n", 0o444)
    return vf


def lost_rdma(root, pcidir, rdma, uverbs):
    """The function's RDMA device gone, its PCI function and driver still there."""
    for sub in ("infiniband", "infiniband_verbs"):
        shutil.rmtree(os.path.join(pcidir, sub))
    unlink_all([os.path.join(root, "sys/class/infiniband", rdma),
                os.path.join(root, "sys/class/infiniband_verbs", uverbs)])


def inv_vf(root):
    rdma_fixtures.ib_gpu(root)
    lost_rdma(root, os.path.realpath(os.path.join(root, "sys/class/infiniband/mlx5_7/device")),
              "mlx5_7", "uverbs7")
    vf = add_vf(root, "0000:1a:00.0", "0000:1a:00.2", 0)
    d = netsys.add_rdma_device(root, vf, "mlx5_8", node_guid="b83f:d203:00a1:c0f0", uverbs=9)
    netsys.add_rdma_port(d, 1, slots=4)


def retype(root, bdf, vendor, device, cls, driver):
    """Another part at the same place: ids in config space and sysfs, its driver bound."""
    d = netsys.pci_dir(root, bdf)
    cfg = os.path.join(d, "config")
    with open(cfg, "r+b") as f:
        f.write(vendor.to_bytes(2, "little") + device.to_bytes(2, "little"))
        f.seek(9)
        f.write(bytes([cls & 0xff, cls >> 8 & 0xff, cls >> 16]))
    for name, text in (("vendor", "0x%04x" % vendor), ("device", "0x%04x" % device),
                       ("class", "0x%06x" % cls)):
        os.chmod(os.path.join(d, name), 0o644)
        netsys.write(os.path.join(d, name), text + "\n", 0o444)
    alias = "pci:v%08Xd%08Xsv00000000sd00000000bc%02Xsc%02Xi%02X" % (
        vendor, device, cls >> 16, cls >> 8 & 0xff, cls & 0xff)
    netsys.write(os.path.join(d, "modalias"), alias + "\n", 0o444)
    netsys.write(os.path.join(d, "uevent"),
                 "DRIVER=%s\nPCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=0000:0000\n"
                 "PCI_SLOT_NAME=%s\nMODALIAS=%s\n" % (driver, cls, vendor, device, bdf, alias))
    drv = os.path.join(root, "sys/bus/pci/drivers", driver)
    unlink_all([os.path.join(d, "driver")])
    netsys.symlink(os.path.relpath(drv, d), os.path.join(d, "driver"))
    netsys.symlink(os.path.relpath(d, drv), os.path.join(drv, bdf))


def inv_qat(root):
    rdma_fixtures.ib_gpu(root)
    slots(root)
    for rbus in SWITCH_ROOTS:
        retype(root, "0000:%02x:00.0" % rbus, 0x8086, 0x4940, 0x0b4000, "qat_4xxx")
    not_responding(root, "0000:3b:00.0")


def es1000_plain(root):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "real"))
    import edit
    edit.main(root, "prog-if", "0000:00:1e.0", "0x00")
    edit.main(root, "caps", "0000:00:1e.0", "pcie:4")
    os.unlink(os.path.join(netsys.pci_dir(root, "0000:01:03.0"), "resource"))


def inv_disabled(root):
    rdma_fixtures.ib_gpu(root)
    port_state(root, "mlx5_3", 1, "4: ACTIVE", "3: Disabled")


OVERLAYS = {
    "inv-faults": ("dgx8", inv_faults),
    "inv-disabled": ("dgx8", inv_disabled),
    "inv-vf": ("dgx8", inv_vf),
    "inv-qat": ("dgx8", inv_qat),
    "es1000-plain": ("hp-es1000", es1000_plain),
    "aer-dgx8": ("dgx8", aer_dgx8),
    "aer-broken": ("dgx8", aer_broken),
}
