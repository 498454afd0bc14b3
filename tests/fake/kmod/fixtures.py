# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernel-module overlays for fake hosts: an OFED GPU node, an inbox/OFED mix with
a stale driver, and Alibaba eRDMA VMs (standard mode, in use, compat mode,
mainline erdma, not loaded). Each overlay runs on a freshly built base fixture
(mkroot.py) and adds lib/modules/KVER (real .ko files + depmod indexes),
/proc/modules, /sys/module, RDMA devices (/sys/class/infiniband*, /dev/infiniband
as plain files), /etc/modprobe.d and, where a process uses a device,
/proc/PID/{comm,fd/N}.
"""

import os

from mkmods import Loaded, Mod, install, load

KVER = "6.1.0-27-amd64"
OFED = "24.10-1.1.4"
OFED_OLD = "23.10-1.1.9"
IB = "kernel/drivers/infiniband"
DKMS = "updates/dkms"


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def symlink(target, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def rel(target, start):
    return os.path.relpath(target, start)


# Debian 12's own builtins that matter here (pciehp has parameters: /sys/module/pciehp).
BUILTIN = ["kernel/drivers/pci/hotplug/pciehp.ko", "kernel/drivers/input/serio/i8042.ko"]
BUILTIN_PARAMS = {"pciehp": {"pciehp_poll_mode": "N", "pciehp_poll_time": "0"}}


def inbox_mods():
    """Debian's own RDMA core modules (intree, no version field)."""
    return [
        Mod("ib_core", IB + "/core/ib_core.ko", "6E0E5E8B9D3B4A2C1F0A9E8", intree=True,
            license="Dual BSD/GPL", parms=[("netns_mode", "bool", "Share device among net namespaces; default=1 (shared)")]),
        Mod("ib_uverbs", IB + "/core/ib_uverbs.ko", "7D0C1A2B3C4D5E6F7A8B9C0", intree=True,
            depends=["ib_core"], license="Dual BSD/GPL"),
        Mod("iw_cm", IB + "/core/iw_cm.ko", "8A1B2C3D4E5F60718293A4B", intree=True,
            depends=["ib_core"], license="Dual BSD/GPL"),
        Mod("ib_cm", IB + "/core/ib_cm.ko", "9B2C3D4E5F60718293A4B5C", intree=True,
            depends=["ib_core"], license="Dual BSD/GPL"),
        Mod("rdma_cm", IB + "/core/rdma_cm.ko", "A3C4D5E6F708192A3B4C5D6", intree=True,
            depends=["ib_core", "iw_cm", "ib_cm"], license="Dual BSD/GPL"),
        Mod("rdma_ucm", IB + "/core/rdma_ucm.ko", "B4D5E6F708192A3B4C5D6E7", intree=True,
            depends=["ib_core", "rdma_cm", "ib_uverbs"], license="Dual BSD/GPL"),
        Mod("mlx5_core", "kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko",
            "C5E6F708192A3B4C5D6E7F8", intree=True, license="Dual BSD/GPL",
            parms=[("prof_sel", "uint", "profile selector. Valid range 0 - 2")]),
        Mod("mlx5_ib", IB + "/hw/mlx5/mlx5_ib.ko", "D6F708192A3B4C5D6E7F809", intree=True,
            depends=["mlx5_core", "ib_core", "ib_uverbs"], license="Dual BSD/GPL"),
    ]


def ofed_mods(srcv):
    """MLNX_OFED 24.10 as DKMS builds them: every module depends on mlx_compat."""
    def m(name, sub, deps, **kw):
        return Mod(name, "%s/%s/%s.ko" % (DKMS, sub, name), srcv[name],
                   depends=["mlx_compat"] + deps, license="Dual BSD/GPL", **kw)
    return [
        Mod("mlx_compat", DKMS + "/compat/mlx_compat.ko", srcv["mlx_compat"],
            license="Dual BSD/GPL"),
        m("ib_core", "drivers/infiniband/core", [],
          parms=[("netns_mode", "bool", "Share device among net namespaces; default=1 (shared)")]),
        m("ib_uverbs", "drivers/infiniband/core", ["ib_core"]),
        m("iw_cm", "drivers/infiniband/core", ["ib_core"]),
        m("ib_cm", "drivers/infiniband/core", ["ib_core"]),
        m("rdma_cm", "drivers/infiniband/core", ["ib_core", "iw_cm", "ib_cm"]),
        m("rdma_ucm", "drivers/infiniband/core", ["ib_core", "rdma_cm", "ib_uverbs"]),
        m("mlx5_core", "drivers/net/ethernet/mellanox/mlx5/core", [], version=OFED,
          parms=[("prof_sel", "uint", "profile selector. Valid range 0 - 2")]),
        m("mlx5_ib", "drivers/infiniband/hw/mlx5", ["mlx5_core", "ib_core", "ib_uverbs"]),
    ]


SRCV_NEW = {"mlx_compat": "0A1B2C3D4E5F6A7B8C9D0E1", "ib_core": "1B2C3D4E5F6A7B8C9D0E1F2",
            "ib_uverbs": "2C3D4E5F6A7B8C9D0E1F2A3", "iw_cm": "3D4E5F6A7B8C9D0E1F2A3B4",
            "ib_cm": "4E5F6A7B8C9D0E1F2A3B4C5", "rdma_cm": "5F6A7B8C9D0E1F2A3B4C5D6",
            "rdma_ucm": "6A7B8C9D0E1F2A3B4C5D6E7", "mlx5_core": "7B8C9D0E1F2A3B4C5D6E7F8",
            "mlx5_ib": "8C9D0E1F2A3B4C5D6E7F8A9"}


def nvidia_mods():
    return [
        Mod("nvidia", "updates/dkms/nvidia.ko", "E7A8B9C0D1E2F3A4B5C6D7E", version="550.90.07",
            license="NVIDIA", parms=[("NVreg_EnableGpuFirmware", "uint", "")]),
        Mod("nvidia_peermem", "updates/dkms/nvidia-peermem.ko", "F8B9C0D1E2F3A4B5C6D7E8F",
            version="550.90.07", depends=["nvidia", "ib_core"], license="Dual BSD/GPL",
            parms=[("peerdirect_support", "int", "Set level of support for Peer-direct, 0 [default] or 1 [legacy, for example MLNX_OFED 4.9 LTS]")]),
    ]


def mlx5_rdma_devices(root):
    """mlx5_N for each function mlx5_core drives, uverbsN, /dev/infiniband nodes."""
    drv = os.path.join(root, "sys", "bus", "pci", "drivers", "mlx5_core")
    symlink("../../../../module/mlx5_core", os.path.join(drv, "module"))
    bdfs = sorted(b for b in os.listdir(drv) if b[0].isdigit())
    for i, bdf in enumerate(bdfs):
        rdma_device(root, os.path.realpath(os.path.join(drv, bdf)), "mlx5_%d" % i, i, "1: CA")
    write(os.path.join(root, "dev", "infiniband", "rdma_cm"), "", 0o666)


def rdma_device(root, pcidir, ibdev, n, node_type):
    sysd = os.path.join(root, "sys")
    d = os.path.join(pcidir, "infiniband", ibdev)
    write(os.path.join(d, "node_type"), node_type + "\n", 0o444)
    symlink(rel(pcidir, d), os.path.join(d, "device"))
    symlink(rel(d, os.path.join(sysd, "class", "infiniband")),
            os.path.join(sysd, "class", "infiniband", ibdev))
    v = os.path.join(pcidir, "infiniband_verbs", "uverbs%d" % n)
    write(os.path.join(v, "ibdev"), ibdev + "\n", 0o444)
    write(os.path.join(v, "dev"), "231:%d\n" % (192 + n), 0o444)
    symlink(rel(pcidir, v), os.path.join(v, "device"))
    symlink(rel(v, os.path.join(sysd, "class", "infiniband_verbs")),
            os.path.join(sysd, "class", "infiniband_verbs", "uverbs%d" % n))
    write(os.path.join(root, "dev", "infiniband", "uverbs%d" % n), "", 0o666)


def ofed_loaded(srcv, mlx5_srcv=None, ib_core_inbox=None):
    """The OFED stack as loaded: refcnts and holders as lsmod shows them."""
    ib_core_holders = ["nvidia_peermem", "rdma_ucm", "rdma_cm", "ib_cm", "iw_cm", "ib_uverbs",
                       "mlx5_ib"]
    ib_core = Loaded("ib_core", srcv["ib_core"], refcnt=7, holders=ib_core_holders,
                     params={"netns_mode": "Y"}, taint="OE")
    if ib_core_inbox:
        ib_core = Loaded("ib_core", ib_core_inbox, refcnt=7, holders=ib_core_holders,
                         params={"netns_mode": "Y"})
    compat_users = ["nvidia_peermem", "rdma_ucm", "rdma_cm", "ib_cm", "iw_cm", "ib_uverbs",
                    "mlx5_ib", "mlx5_core"]
    if not ib_core_inbox:
        compat_users.append("ib_core")
    return [
        Loaded("nvidia_peermem", "F8B9C0D1E2F3A4B5C6D7E8F", version="550.90.07", taint="OE",
               params={"peerdirect_support": "0"}),
        Loaded("rdma_ucm", srcv["rdma_ucm"], taint="OE"),
        Loaded("rdma_cm", srcv["rdma_cm"], refcnt=1, holders=["rdma_ucm"], taint="OE"),
        Loaded("ib_cm", srcv["ib_cm"], refcnt=1, holders=["rdma_cm"], taint="OE"),
        Loaded("iw_cm", srcv["iw_cm"], refcnt=1, holders=["rdma_cm"], taint="OE"),
        Loaded("ib_uverbs", srcv["ib_uverbs"], refcnt=2, holders=["rdma_ucm", "mlx5_ib"],
               taint="OE"),
        Loaded("mlx5_ib", srcv["mlx5_ib"], taint="OE"),
        Loaded("mlx5_core", mlx5_srcv or srcv["mlx5_core"], refcnt=1, holders=["mlx5_ib"],
               version=OFED if not mlx5_srcv else OFED_OLD, taint="OE",
               params={"prof_sel": "2"}),
        ib_core,
        Loaded("mlx_compat", srcv["mlx_compat"], refcnt=len(compat_users),
               holders=compat_users, taint="OE"),
        Loaded("nvidia", "E7A8B9C0D1E2F3A4B5C6D7E", refcnt=1, holders=["nvidia_peermem"],
               version="550.90.07", taint="POE", params={"NVreg_EnableGpuFirmware": "18"}),
    ]


def nvidia_proc(root, open_module):
    kind = "Open Kernel Module for x86_64" if open_module else "UNIX x86_64 Kernel Module"
    write(os.path.join(root, "proc", "driver", "nvidia", "version"),
          "NVRM version: NVIDIA %s  550.90.07  Fri May 31 09:35:42 UTC 2024\n"
          "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n" % kind, 0o444)


def ofed_gpu(root):
    """OFED 24.10 GPU node: the whole mlx5 stack from updates/dkms, peermem registered."""
    install(root, KVER, inbox_mods() + ofed_mods(SRCV_NEW) + nvidia_mods(), BUILTIN)
    load(root, ofed_loaded(SRCV_NEW), BUILTIN_PARAMS)
    mlx5_rdma_devices(root)
    write(os.path.join(root, "sys", "kernel", "mm", "memory_peers", "nv_mem", "version"),
          "1.3\n", 0o444)
    nvidia_proc(root, open_module=False)
    write(os.path.join(root, "etc", "depmod.d", "ubuntu.conf"),
          "search updates ubuntu built-in\n")


def ofed_mixed(root):
    """OFED upgraded on disk (24.10) while the old mlx5_core (23.10) still runs, and the
    inbox ib_core loaded from the initramfs; nvidia_peermem failed to load."""
    install(root, KVER, inbox_mods() + ofed_mods(SRCV_NEW) + nvidia_mods(), BUILTIN)
    old = "3F00D1E2A3B4C5D6E7F8091"
    loaded = [m for m in ofed_loaded(SRCV_NEW, mlx5_srcv=old,
                                     ib_core_inbox=inbox_mods()[0].srcversion)
              if m.name != "nvidia_peermem"]
    for m in loaded:
        m.holders = [h for h in m.holders if h != "nvidia_peermem"]
        if m.name in ("nvidia", "ib_core", "mlx_compat"):
            m.refcnt = len(m.holders)
    load(root, loaded, BUILTIN_PARAMS)
    mlx5_rdma_devices(root)
    nvidia_proc(root, open_module=True)


ERDMA_ALI = "kernel/../updates/erdma.ko"


def erdma_mods(mainline):
    if mainline:
        return [Mod("erdma", IB + "/hw/erdma/erdma.ko", "5A61B0C7D2E3F4A5B6C7D8E",
                    intree=True, depends=["ib_core", "ib_uverbs"], license="Dual BSD/GPL")]
    return [Mod("erdma", "updates/erdma.ko", "9C3F5E1A7B2D4C6E8F0A1B2", version="0.2.37",
                depends=["ib_core", "ib_uverbs"], license="Dual BSD/GPL",
                parms=[("compat_mode", "bool", "compat mode support")])]


def erdma_vm(root, *, loaded=True, compat="N", mainline=False, user=False, options=None,
             ucm=True):
    """options: an "options erdma ..." line in the package's /etc/modprobe.d/erdma.conf.
    ucm=False: what the package's modules-load.d loads and NCCL needs (ib_core ib_uverbs
    erdma): no rdma_cm/rdma_ucm, so no /dev/infiniband/rdma_cm."""
    install(root, KVER, inbox_mods() + erdma_mods(mainline), BUILTIN)
    inbox = {m.name: m.srcversion for m in inbox_mods()}
    mods = []
    if loaded:
        er = erdma_mods(mainline)[0]
        params = {} if mainline else {"compat_mode": compat}
        taint = "" if mainline else "OE"
        mods.append(Loaded("erdma", er.srcversion, refcnt=1 if user else 0, params=params,
                           version=er.version, taint=taint))
    users = ["erdma"] if loaded else []
    cm = ["rdma_ucm", "rdma_cm", "iw_cm", "ib_cm"] if ucm else []
    if ucm:
        mods += [
            Loaded("rdma_ucm", inbox["rdma_ucm"]),
            Loaded("rdma_cm", inbox["rdma_cm"], refcnt=1, holders=["rdma_ucm"]),
            Loaded("iw_cm", inbox["iw_cm"], refcnt=1, holders=["rdma_cm"]),
            Loaded("ib_cm", inbox["ib_cm"], refcnt=1, holders=["rdma_cm"]),
        ]
    uverbs_holders = (["rdma_ucm"] if ucm else []) + users
    mods += [
        Loaded("ib_uverbs", inbox["ib_uverbs"], refcnt=len(uverbs_holders),
               holders=uverbs_holders),
        Loaded("ib_core", inbox["ib_core"], refcnt=len(cm) + 1 + len(users),
               holders=cm + ["ib_uverbs"] + users, params={"netns_mode": "Y"}),
    ]
    load(root, mods, BUILTIN_PARAMS)
    write(os.path.join(root, "etc", "modprobe.d", "erdma.conf"),
          "# from the Alibaba Cloud erdma package\nsoftdep erdma pre: ib_uverbs\n" +
          ("options erdma %s\n" % options if options else ""))
    if ucm:
        write(os.path.join(root, "dev", "infiniband", "rdma_cm"), "", 0o666)
    if not loaded:
        return
    pcidir = os.path.join(root, "sys", "devices", "pci0000:00", "0000:00:05.0")
    for k, v in (("vendor", "0x1ded"), ("device", "0x107f"), ("class", "0x020000")):
        write(os.path.join(pcidir, k), v + "\n", 0o444)
    drv = os.path.join(root, "sys", "bus", "pci", "drivers", "erdma")
    symlink(rel(pcidir, drv), os.path.join(drv, "0000:00:05.0"))
    symlink(rel(drv, pcidir), os.path.join(pcidir, "driver"))
    symlink("../../../../module/erdma", os.path.join(drv, "module"))
    rdma_device(root, pcidir, "erdma_0", 0, "1: CA" if compat == "Y" else "4: RNIC")
    if user:
        pid = os.path.join(root, "proc", "4242")
        write(os.path.join(pid, "comm"), "ib_send_bw\n", 0o444)
        symlink("/dev/null", os.path.join(pid, "fd", "0"))
        symlink("/dev/infiniband/uverbs0", os.path.join(pid, "fd", "3"))
        symlink("/dev/infiniband/rdma_cm", os.path.join(pid, "fd", "4"))
    other = os.path.join(root, "proc", "1")
    write(os.path.join(other, "comm"), "systemd\n", 0o444)
    symlink("/dev/null", os.path.join(other, "fd", "0"))


def virtio_nic(root):
    """A VM whose management link eth0 is driven by virtio_net (unused, napi_tx=N): the
    default route and the ssh sessions go through it; eth1 (e1000e) is a second network.
    Routes and sockets as the kernel prints them (/proc/net/route, ipv6_route, tcp, tcp6)."""
    net = os.path.join(root, "sys", "class", "net")
    install(root, KVER, inbox_mods() + [
        Mod("virtio_net", "kernel/drivers/net/virtio_net.ko", "3D9A0E5C1B7F2A4C6E8D0B1",
            intree=True, license="GPL", parms=[("napi_tx", "bool", "")])], BUILTIN)
    load(root, [Loaded("virtio_net", "3D9A0E5C1B7F2A4C6E8D0B1", params={"napi_tx": "N"})],
         BUILTIN_PARAMS)
    nics = (("eth0", "virtio0", "virtio", "virtio_net", "52:54:00:12:34:56"),
            ("eth1", "0000:00:06.0", "pci", "e1000e", "52:54:00:ab:cd:ef"))
    for i, (ifname, dev, bus, drv, mac) in enumerate(nics):
        devdir = os.path.join(root, "sys", "devices", "pci0000:00", dev)
        d = os.path.join(devdir, "net", ifname)
        for k, v in (("ifindex", str(i + 2)), ("address", mac), ("operstate", "up")):
            write(os.path.join(d, k), v + "\n", 0o444)
        symlink(rel(d, net), os.path.join(net, ifname))
        symlink(rel(devdir, d), os.path.join(d, "device"))
        drvdir = os.path.join(root, "sys", "bus", bus, "drivers", drv)
        symlink(rel(drvdir, devdir), os.path.join(devdir, "driver"))
        symlink(rel(devdir, drvdir), os.path.join(drvdir, dev))
        symlink("../../../../module/%s" % drv, os.path.join(drvdir, "module"))
    hdr = ("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\t"
           "Window\tIRTT\n")
    write(os.path.join(root, "proc", "net", "route"), hdr +
          "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
          "eth0\t0000000A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
          "eth1\t0000090A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n", 0o444)
    write(os.path.join(root, "proc", "net", "ipv6_route"),
          "fe800000000000000000000000000000 40 00000000000000000000000000000000 00 "
          "00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n"
          "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
          "00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n",
          0o444)
    write(os.path.join(root, "proc", "net", "tcp"),
          "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
          "timeout inode\n"
          "   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0"
          "        0 1681 1 0000000000000000 100 0 0 10 0\n", 0o444)
    write(os.path.join(root, "proc", "net", "tcp6"),
          "  sl  local_address                         remote_address                        "
          "st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n", 0o444)


def ofed_inbox(root):
    """MLNX_OFED 24.10 installed (updates/dkms, modprobe resolves there) but the kernel's
    own stack running (loaded from the initramfs built before the install): no mlx_compat,
    the inbox srcversions, no taint, no version file."""
    install(root, KVER, inbox_mods() + ofed_mods(SRCV_NEW) + nvidia_mods(), BUILTIN)
    inbox = {m.name: m.srcversion for m in inbox_mods()}
    load(root, [
        Loaded("rdma_ucm", inbox["rdma_ucm"]),
        Loaded("mlx5_ib", inbox["mlx5_ib"]),
        Loaded("rdma_cm", inbox["rdma_cm"], refcnt=1, holders=["rdma_ucm"]),
        Loaded("ib_cm", inbox["ib_cm"], refcnt=1, holders=["rdma_cm"]),
        Loaded("iw_cm", inbox["iw_cm"], refcnt=1, holders=["rdma_cm"]),
        Loaded("ib_uverbs", inbox["ib_uverbs"], refcnt=2, holders=["rdma_ucm", "mlx5_ib"]),
        Loaded("mlx5_core", inbox["mlx5_core"], refcnt=1, holders=["mlx5_ib"],
               params={"prof_sel": "2"}),
        Loaded("ib_core", inbox["ib_core"], refcnt=6,
               holders=["rdma_ucm", "rdma_cm", "ib_cm", "iw_cm", "ib_uverbs", "mlx5_ib"],
               params={"netns_mode": "Y"}),
    ], BUILTIN_PARAMS)
    mlx5_rdma_devices(root)
    write(os.path.join(root, "etc", "depmod.d", "ubuntu.conf"),
          "search updates ubuntu built-in\n")


OVERLAYS = {
    "ofed-gpu": ("dgx8", ofed_gpu),
    "ofed-mixed": ("dgx8", ofed_mixed),
    "ofed-inbox": ("dgx8", ofed_inbox),
    "erdma-std": ("vm-noacs", lambda r: erdma_vm(r)),
    "erdma-inuse": ("vm-noacs", lambda r: erdma_vm(r, user=True)),
    "erdma-compat": ("vm-noacs", lambda r: erdma_vm(r, compat="Y")),
    "erdma-mainline": ("vm-noacs", lambda r: erdma_vm(r, mainline=True)),
    "erdma-absent": ("vm-noacs", lambda r: erdma_vm(r, loaded=False)),
    # issue 25 §4: compat mode from the package's erdma.conf, no rdma_cm (NCCL needs none)
    "erdma-nccl": ("vm-noacs",
                   lambda r: erdma_vm(r, compat="Y", options="compat_mode=Y", ucm=False)),
    "virtio-nic": ("vm-noacs", virtio_nic),
}
