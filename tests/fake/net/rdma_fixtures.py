# SPDX-License-Identifier: GPL-2.0-or-later
"""RDMA port overlays for fake hosts (sysfs shape of mlx5 and Alibaba erdma).

ib-gpu   dgx8 plus eight InfiniBand ports mlx5_0..mlx5_7 (the four CX-7 functions of
         dgx8 and their second functions); mlx5_3 port 1 is "1: DOWN" / "2: Polling" /
         "10 Gb/sec (4X SDR)" (no cable). IPoIB netdevs ib0..ib3 exist but are down. A
         dual-port CX-7 in Ethernet mode (0000:00:06.0/.1) bonded as bond0 carries the RoCE
         LAG device mlx5_bond_0: its device link is the first PF, its gid ndevs name bond0,
         GIDs 2/3 are ::ffff:10.0.0.11 (RoCE v1 / v2).
ib-gpu-lag        ib-gpu with bond0 a real 802.3ad bond (bonding sysfs, /proc/net/bonding)
                  over ens6f0np0 + ens6f1np1, negotiated with the switch, both slaves in
                  aggregator 1: the IB GPU node with a healthy RoCE LAG.
ib-gpu-lag-split  the same, but ens6f1np1's switch port is not in the LAG: it sits alone in
                  aggregator 2, not collecting/distributing, no partner.
vmd-ib   ib-gpu on the vmd fixture: also mlx5_8 (port 1 ACTIVE, 400 Gb/sec NDR, netdev ib4)
         on the ConnectX-7 in Intel VMD's domain, 10000:01:00.0 (a five-digit domain).
erdma-vm vm-noacs plus an Alibaba eRDMA device in standard mode: erdma_0, node_type
         "4: RNIC", no gid_attrs, node_guid = EUI-64 of the virtio NIC eth0's MAC,
         "100 Gb/sec (4X EDR)".
"""

import os

import netsys
from netsys import add_netdev, add_pci_function, add_rdma_device, add_rdma_port
from netsys import gid_ipv4, gid_link_local, gid_mac

CX7_IB = [("0000:1a:00.0", 0x15), ("0000:3c:00.0", 0x37), ("0000:9c:00.0", 0x97),
          ("0000:bc:00.0", 0xb7)]


def ib_gpu(root, lag=None):
    n = 0
    for bdf, _rbus in CX7_IB:
        f0 = netsys.pci_dir(root, bdf)
        f1 = add_pci_function(root, os.path.dirname(f0), bdf[:-1] + "1", 0x15b3, 0x1021,
                              0x020700)
        for fn, pdir in ((0, f0), (1, f1)):
            name = "mlx5_%d" % n
            guid = "b83f:d203:00a1:c0%02x" % (0x10 + n)
            d = add_rdma_device(root, pdir, name, node_guid=guid, uverbs=n)
            port_gid = bytes.fromhex("fe80000000000000" + guid.replace(":", ""))
            if n == 3:
                add_rdma_port(d, 1, state="1: DOWN", phys="2: Polling",
                              rate="10 Gb/sec (4X SDR)", lid="0xffff",
                              gids=[(0, port_gid, "IB/RoCE v1", None)], slots=4)
            else:
                add_rdma_port(d, 1, gids=[(0, port_gid, "IB/RoCE v1", None)], slots=4)
            if fn == 0:
                g = guid.replace(":", "")
                hwaddr = "00:00:10:87:fe:80:00:00:00:00:00:00:" + ":".join(
                    g[i:i + 2] for i in range(0, 16, 2))
                add_netdev(root, "ib%d" % (n // 2), 20 + n, hwaddr,
                           pcidir=pdir, operstate="down", carrier=0, mtu=4092, type_=32)
            n += 1
    roce_lag(root, lag)


def lacp_bond(root, pf0, pf1, mac, split):
    """bond0 802.3ad over the two PFs, as the bonding driver shows it (bondsys)."""
    import bondsys
    switch = "00:1c:73:aa:bb:cc"
    slaves = [
        bondsys.Slave("ens6f0np0", 11, mac, pcidir=pf0, aggregator=1, partner_mac=switch,
                      port_number=1, speed=200000),
        bondsys.Slave("ens6f1np1", 12, "b8:3f:d2:a1:c6:01", pcidir=pf1,
                      aggregator=2 if split else 1, state="backup" if split else "active",
                      actor_state=bondsys.LACP_ALONE if split else bondsys.LACP_UP,
                      partner_state=0x01 if split else bondsys.LACP_UP,
                      partner_mac=None if split else switch, link_failures=1 if split else 0,
                      port_number=2, speed=200000),
    ]
    bondsys.add_bond(root, bondsys.Bond("bond0", 10, slaves, ad_aggregator=1,
                                        ad_num_ports=1 if split else 2, partner_mac=switch,
                                        mtu=9000))


def roce_lag(root, lag=None):
    """lag None: bond0 and its slaves as plain netdevs; "lacp"/"split": a real bond."""
    host = os.path.join(root, "sys", "devices", "pci0000:00")
    pf0 = add_pci_function(root, host, "0000:00:06.0", 0x15b3, 0x1021, 0x020000)
    pf1 = add_pci_function(root, host, "0000:00:06.1", 0x15b3, 0x1021, 0x020000)
    mac = "b8:3f:d2:a1:c6:00"
    if lag:
        lacp_bond(root, pf0, pf1, mac, lag == "split")
    else:
        add_netdev(root, "bond0", 10, mac, mtu=9000, flags="0x1403")
        add_netdev(root, "ens6f0np0", 11, mac, pcidir=pf0, mtu=9000, speed=200000,
                   master="bond0", flags="0x1803")
        add_netdev(root, "ens6f1np1", 12, mac, pcidir=pf1, mtu=9000, speed=200000,
                   master="bond0", flags="0x1803", dev_port=0)
    d = add_rdma_device(root, pf0, "mlx5_bond_0", node_guid="b83f:d203:00a1:c600", uverbs=8)
    ll = gid_link_local(mac)
    v4 = gid_ipv4("10.0.0.11")
    add_rdma_port(d, 1, rate="200 Gb/sec (4X HDR)", link_layer="Ethernet", lid="0x0",
                  gids=[(0, ll, "IB/RoCE v1", "bond0"), (1, ll, "RoCE v2", "bond0"),
                        (2, v4, "IB/RoCE v1", "bond0"), (3, v4, "RoCE v2", "bond0")],
                  slots=8)


def vmd_ib(root):
    ib_gpu(root)
    pdir = netsys.pci_dir(root, "10000:01:00.0")
    guid = "b83f:d203:00a1:e000"
    d = add_rdma_device(root, pdir, "mlx5_8", node_guid=guid, uverbs=9)
    add_rdma_port(d, 1, gids=[(0, bytes.fromhex("fe80000000000000" + guid.replace(":", "")),
                               "IB/RoCE v1", None)], slots=4)
    g = guid.replace(":", "")
    add_netdev(root, "ib4", 28, "00:00:10:87:fe:80:00:00:00:00:00:00:" +
               ":".join(g[i:i + 2] for i in range(0, 16, 2)), pcidir=pdir, mtu=4092, type_=32)


def erdma_vm(root):
    mac = "00:16:3e:12:34:56"
    add_netdev(root, "eth0", 2, mac, pci="0000:01:00.0", mtu=1500)
    host = os.path.join(root, "sys", "devices", "pci0000:00")
    pf = add_pci_function(root, host, "0000:00:05.0", 0x1ded, 0x107f, 0x020000)
    d = add_rdma_device(root, pf, "erdma_0", node_type="4: RNIC",
                        node_guid="0216:3eff:fe12:3456", fw="0.2.0", uverbs=0)
    add_rdma_port(d, 1, rate="100 Gb/sec (4X EDR)", link_layer="Ethernet", lid="0x0",
                  gids=[(0, gid_mac(mac), None, None)], slots=1, attrs=False)


OVERLAYS = {
    "ib-gpu": ("dgx8", ib_gpu),
    "ib-gpu-lag": ("dgx8", lambda root: ib_gpu(root, "lacp")),
    "ib-gpu-lag-split": ("dgx8", lambda root: ib_gpu(root, "split")),
    "vmd-ib": ("vmd", vmd_ib),
    "erdma-vm": ("vm-noacs", erdma_vm),
}
