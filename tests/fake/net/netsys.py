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
               speed=None, mtu=1500, type_=1, master=None, flags=None, pcidir=None,
               dev_port=0):
    """Create netdev NAME. pci: BDF of the function it belongs to (None: virtual);
    pcidir: the function's real directory instead (a function not in bus/pci/devices).
    type_ 1 = ARPHRD_ETHER, 32 = ARPHRD_INFINIBAND. Returns its real directory."""
    if pcidir:
        pci = os.path.basename(pcidir)
        d = os.path.join(pcidir, "net", name)
    elif pci:
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
        "dev_port": "%d" % dev_port,
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


# ---------------------------------------------------------------- RDMA devices

def gid_text(raw):
    """16 bytes -> "fe80:0000:...", as ports/N/gids/M prints a GID."""
    return ":".join("%02x%02x" % (raw[i], raw[i + 1]) for i in range(0, 16, 2))


def gid_ipv4(a):
    """::ffff:a.b.c.d as GID bytes."""
    return bytes(10) + b"\xff\xff" + bytes(int(x) for x in a.split("."))


def gid_mac(mac):
    """erdma's standard (iWARP) mode GID: the MAC, then ten zero bytes (erdma_query_gid)."""
    return bytes(int(x, 16) for x in mac.split(":")) + bytes(10)


def gid_link_local(mac):
    """fe80::EUI-64 of a MAC (the default GID of a RoCE port)."""
    m = [int(x, 16) for x in mac.split(":")]
    return b"\xfe\x80" + bytes(6) + bytes([m[0] ^ 2, m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5]])


def add_rdma_device(root, pcidir, name, *, node_type="1: CA", node_guid, fw="28.39.1002",
                    uverbs=None):
    """sys/class/infiniband/NAME under the PCI function's infiniband/ directory."""
    sysd = os.path.join(root, "sys")
    d = os.path.join(pcidir, "infiniband", name)
    write(os.path.join(d, "node_type"), node_type + "\n", 0o444)
    write(os.path.join(d, "node_guid"), node_guid + "\n", 0o444)
    write(os.path.join(d, "sys_image_guid"), node_guid + "\n", 0o444)
    write(os.path.join(d, "fw_ver"), fw + "\n", 0o444)
    write(os.path.join(d, "node_desc"), "%s HCA-1\n" % name, 0o644)
    # the kernel's own form: ../../../DDDD:BB:DD.F
    symlink("../../../" + os.path.basename(pcidir), os.path.join(d, "device"))
    symlink(os.path.relpath(d, os.path.join(sysd, "class", "infiniband")),
            os.path.join(sysd, "class", "infiniband", name))
    if uverbs is not None:
        v = os.path.join(pcidir, "infiniband_verbs", "uverbs%d" % uverbs)
        write(os.path.join(v, "ibdev"), name + "\n", 0o444)
        symlink(os.path.relpath(v, os.path.join(sysd, "class", "infiniband_verbs")),
                os.path.join(sysd, "class", "infiniband_verbs", "uverbs%d" % uverbs))
    return d


def add_rdma_port(devdir, num, *, state="4: ACTIVE", phys="5: LinkUp",
                  rate="400 Gb/sec (4X NDR)", link_layer="InfiniBand", gids=(), slots=16,
                  lid="0x1", attrs=True):
    """ports/NUM with state, phys_state, rate, link_layer, gids/0..slots-1 and, with attrs,
    gid_attrs/{types,ndevs}/N. gids: [(index, raw16, type, ndev or None)]; other slots are
    the all-zero GID. The kernel's empty gid_attrs entries fail with EINVAL on read; here
    they are empty files (cases make them unreadable where it matters)."""
    p = os.path.join(devdir, "ports", "%d" % num)
    for k, v in (("state", state), ("phys_state", phys), ("rate", rate),
                 ("link_layer", link_layer), ("lid", lid), ("sm_lid", "0x1"),
                 ("lid_mask_count", "0"), ("cap_mask", "0xa651e848"), ("sm_sl", "0")):
        write(os.path.join(p, k), v + "\n", 0o444)
    byidx = {i: (raw, t, n) for i, raw, t, n in gids}
    for i in range(slots):
        raw, t, n = byidx.get(i, (bytes(16), None, None))
        write(os.path.join(p, "gids", "%d" % i), gid_text(raw) + "\n", 0o444)
        if attrs:
            write(os.path.join(p, "gid_attrs", "types", "%d" % i), (t + "\n") if t else "", 0o444)
            write(os.path.join(p, "gid_attrs", "ndevs", "%d" % i), (n + "\n") if n else "", 0o444)
    return p


def add_pci_function(root, parent_bdf_dir, bdf, vendor, device, cls, driver=None):
    """A bare PCI function directory beside/below an existing one (ids only): enough for
    RDMA device links; not listed in bus/pci/devices so the PCI modules never see it."""
    d = os.path.join(parent_bdf_dir, bdf)
    for k, v in (("vendor", "0x%04x" % vendor), ("device", "0x%04x" % device),
                 ("class", "0x%06x" % cls)):
        write(os.path.join(d, k), v + "\n", 0o444)
    return d
