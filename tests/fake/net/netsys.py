# SPDX-License-Identifier: GPL-2.0-or-later
"""Network devices in a fake root, shaped like the kernel's sysfs.

A PCI-backed netdev lives at sys/devices/.../DDDD:BB:DD.F/net/NAME with
sys/class/net/NAME -> ../../devices/.../net/NAME; a virtual one (bond, veth,
dummy) at sys/devices/virtual/net/NAME. Attribute files hold what the kernel
prints, newline-terminated. RDMA devices (sys/class/infiniband) and bonding
(bonding/, bonding_slave/, proc/net/bonding) are added by the modules that own
them on top of these.
"""

import os


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def symlink(target, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def pci_dir(root, bdf):
    """The real directory of a PCI function (resolving sys/bus/pci/devices/BDF)."""
    link = os.path.join(root, "sys/bus/pci/devices", bdf)
    return os.path.realpath(link)


def add_netdev(root, name, ifindex, mac, *, pci=None, operstate="up", carrier=1,
               speed=None, mtu=1500, type_=1, master=None, flags=None):
    """Create netdev NAME. pci: BDF of the function it belongs to (None: virtual).
    type_ 1 = ARPHRD_ETHER, 32 = ARPHRD_INFINIBAND. Returns its real directory."""
    if pci:
        d = os.path.join(pci_dir(root, pci), "net", name)
    else:
        d = os.path.join(root, "sys/devices/virtual/net", name)
    up = operstate == "up"
    attrs = {
        "ifindex": "%d" % ifindex,
        "address": mac,
        "operstate": operstate,
        "carrier": "%d" % carrier if up or carrier == 0 else "",
        "mtu": "%d" % mtu,
        "type": "%d" % type_,
        "flags": flags or ("0x1003" if up else "0x1002"),
        "addr_len": "20" if type_ == 32 else "6",
        "tx_queue_len": "1000",
        "dev_id": "0x0",
        "dev_port": "0",
    }
    if speed is not None:
        attrs["speed"] = "%d" % speed
        attrs["duplex"] = "full"
    for k, v in attrs.items():
        write(os.path.join(d, k), v + "\n")
    write(os.path.join(d, "uevent"), "INTERFACE=%s\nIFINDEX=%d\n" % (name, ifindex))
    symlink(os.path.relpath(d, os.path.join(root, "sys/class/net")),
            os.path.join(root, "sys/class/net", name))
    if pci:
        symlink("../../../%s" % pci, os.path.join(d, "device"))
    if master:
        mdir = os.path.realpath(os.path.join(root, "sys/class/net", master))
        symlink(os.path.relpath(mdir, d), os.path.join(d, "master"))
        symlink(os.path.relpath(d, mdir), os.path.join(mdir, "lower_" + name))
        symlink(os.path.relpath(mdir, d), os.path.join(d, "upper_" + master))
    return d
