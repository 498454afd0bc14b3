# SPDX-License-Identifier: GPL-2.0-or-later
"""Workload-prerequisite overlays: a dgx8 GPU node whose four ConnectX-7 functions are
InfiniBand HCAs mlx5_0..mlx5_3 with every character device the RDMA stack registers,
shaped like the kernel's sysfs:

  sys/class/infiniband/mlx5_N              -> .../PCI/infiniband/mlx5_N
  sys/class/infiniband_verbs/uverbsN       -> .../PCI/infiniband_verbs/uverbsN
      ibdev, dev (231:192+N), abi_version; the class itself has abi_version
  sys/class/infiniband_mad/umadN, issmN    -> .../PCI/infiniband_mad/{umad,issm}N
      ibdev, port, dev (231:N, 231:64+N); the class itself has abi_version
  sys/class/misc/rdma_cm                   -> ../../devices/virtual/misc/rdma_cm, dev 10:58
  sys/module/{ib_core,ib_uverbs,ib_umad,rdma_ucm}, ib_core/parameters/netns_mode

No /dev nodes: the cases make them with mknod (as root), since a fixture tree is copied
with plain files only in mind. OVERLAYS: workload-ib (shared netns), workload-ib-excl
(netns_mode N), workload-ib-nomad (ib_umad and rdma_ucm not loaded).
"""

import os

from netsys import pci_dir, symlink, write

ABI_VERBS = "6"
ABI_MAD = "5"


def class_link(root, cls, name, real):
    symlink(os.path.relpath(real, os.path.join(root, "sys/class", cls)),
            os.path.join(root, "sys/class", cls, name))


def char_dev(root, pcidir, cls, name, ibdev, devnum, extra=None):
    d = os.path.join(pcidir, cls, name)
    write(os.path.join(d, "ibdev"), ibdev + "\n", 0o444)
    write(os.path.join(d, "dev"), devnum + "\n", 0o444)
    major, minor = devnum.split(":")
    write(os.path.join(d, "uevent"),
          "MAJOR=%s\nMINOR=%s\nDEVNAME=infiniband/%s\n" % (major, minor, name), 0o644)
    for k, v in (extra or {}).items():
        write(os.path.join(d, k), v + "\n", 0o444)
    symlink(os.path.relpath(pcidir, d), os.path.join(d, "device"))
    class_link(root, cls, name, d)


def module(root, name, params=None):
    d = os.path.join(root, "sys/module", name)
    write(os.path.join(d, "initstate"), "live\n", 0o444)
    write(os.path.join(d, "refcnt"), "0\n", 0o444)
    for k, v in (params or {}).items():
        write(os.path.join(d, "parameters", k), v + "\n", 0o444)


def mlx5_bdfs(root):
    drv = os.path.join(root, "sys/bus/pci/drivers/mlx5_core")
    return sorted(b for b in os.listdir(drv) if b[0].isdigit())


def ib_node(root, *, netns="Y", mad=True, ucm=True):
    module(root, "ib_core", {"netns_mode": netns})
    module(root, "ib_uverbs")
    write(os.path.join(root, "sys/class/infiniband_verbs/abi_version"), ABI_VERBS + "\n", 0o444)
    if mad:
        module(root, "ib_umad")
        write(os.path.join(root, "sys/class/infiniband_mad/abi_version"), ABI_MAD + "\n", 0o444)
    for n, bdf in enumerate(mlx5_bdfs(root)):
        pcidir = pci_dir(root, bdf)
        ibdev = "mlx5_%d" % n
        d = os.path.join(pcidir, "infiniband", ibdev)
        write(os.path.join(d, "node_type"), "1: CA\n", 0o444)
        symlink(os.path.relpath(pcidir, d), os.path.join(d, "device"))
        class_link(root, "infiniband", ibdev, d)
        char_dev(root, pcidir, "infiniband_verbs", "uverbs%d" % n, ibdev, "231:%d" % (192 + n),
                 {"abi_version": ABI_VERBS})
        if mad:
            char_dev(root, pcidir, "infiniband_mad", "umad%d" % n, ibdev, "231:%d" % n,
                     {"port": "1"})
            char_dev(root, pcidir, "infiniband_mad", "issm%d" % n, ibdev, "231:%d" % (64 + n),
                     {"port": "1"})
    if ucm:
        module(root, "rdma_ucm")
        d = os.path.join(root, "sys/devices/virtual/misc/rdma_cm")
        write(os.path.join(d, "dev"), "10:58\n", 0o444)
        write(os.path.join(d, "uevent"), "MAJOR=10\nMINOR=58\nDEVNAME=infiniband/rdma_cm\n")
        class_link(root, "misc", "rdma_cm", d)
    os.makedirs(os.path.join(root, "dev"), exist_ok=True)


OVERLAYS = {
    "workload-ib": ("dgx8", lambda r: ib_node(r)),
    "workload-ib-excl": ("dgx8", lambda r: ib_node(r, netns="N")),
    "workload-ib-nomad": ("dgx8", lambda r: ib_node(r, mad=False, ucm=False)),
}
