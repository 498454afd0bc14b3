# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernel logs for [Xid] over dgx8 (kept here because mkroot.py loads overlays from this
directory): dev/kmsg as a file of /dev/kmsg records ("PRIO,SEQ,USEC,FLAGS;MESSAGE", the
dictionary lines after a record beginning with a space), what a snapshot of a live host
records and a replay under --root reads.

dgx8-kmsg      a clean boot: the driver's own lines, a NIC's link at full width, no Xid
dgx8-kmsg-xid  the same boot, then GPU 0000:3b:00.0 fell off the bus (Xid 79) and an
               application faulted twice on GPU 0000:18:00.0 (Xid 13)
"""

import os

BOOT = [
    "6,0,0,-;Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org)",
    "6,1,0,-;Command line: BOOT_IMAGE=/vmlinuz-6.1.0-27-amd64 root=/dev/sda1 ro",
    "6,412,2513442,-;pci 0000:18:00.0: [10de:2330] type 00 class 0x030200",
    " SUBSYSTEM=pci",
    " DEVICE=+pci:0000:18:00.0",
    "6,901,9120333,-;mlx5_core 0000:1a:00.0: firmware version: 28.39.1002",
    "6,902,9120412,-;mlx5_core 0000:1a:00.0: 252.048 Gb/s available PCIe bandwidth "
    "(16.0 GT/s PCIe x16 link)",
    " SUBSYSTEM=pci",
    " DEVICE=+pci:0000:1a:00.0",
    "4,1203,14022873,-;nvidia: loading out-of-tree module taints kernel.",
    "6,1210,14322881,-;nvidia-nvlink: Nvlink Core is being initialized, major device number 507",
    "6,1214,14890112,-;NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.159.04",
    "6,1290,21003400,-;nvidia-nvswitch0: using MSI",
]

XID = [
    "4,1822,3804112004,-;NVRM: Xid (PCI:0000:18:00): 13, pid=20121, name=python3, "
    "Graphics Exception: ESR 0x405840=0x1000, 0x405844=0x0",
    "4,1823,3804112010,-;NVRM: Xid (PCI:0000:18:00): 13, pid=20121, name=python3, "
    "Graphics Exception: ChID 0010, Class 0000c7c0, Offset 00000000, Data 00000000",
    "4,1901,5211000123,-;NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, "
    "GPU has fallen off the bus.",
    "3,1902,5211000180,-;NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.",
]


def write_kmsg(root, lines):
    os.makedirs(os.path.join(root, "dev"), exist_ok=True)
    with open(os.path.join(root, "dev", "kmsg"), "w") as f:
        f.write("".join(line + "\n" for line in lines))


OVERLAYS = {
    "dgx8-kmsg": ("dgx8", lambda root: write_kmsg(root, BOOT)),
    "dgx8-kmsg-xid": ("dgx8", lambda root: write_kmsg(root, BOOT + XID)),
}
