# SPDX-License-Identifier: GPL-2.0-or-later
"""Linux bonding in a fake root, shaped like drivers/net/bonding writes it.

add_bond() makes the bond netdev (netsys.add_netdev, virtual), its slaves' netdevs (on
their PCI functions, with master/upper/lower links), /sys/class/net/BOND/bonding/*,
each slave's bonding_slave/* and /proc/net/bonding/BOND, with the values and the exact
text the kernel prints (bond_sysfs.c, bond_sysfs_slave.c, bond_procfs.c of 6.1):

- outside 802.3ad the ad_* attributes are empty and bonding_slave/ad_* read "N/A";
- ad_actor_key, ad_actor_sys_prio, ad_actor_system, ad_partner_key and ad_partner_mac
  are empty unless the reader has CAP_NET_ADMIN (cap=False writes what a non-root reader
  sees; /proc/net/bonding then lacks "System MAC address", the active aggregator info
  and each slave's LACP PDU details);
- slaves carry the bond's MAC in `address`, their own in bonding_slave/perm_hwaddr.

add_rdma_lag() adds an mlx5 RoCE LAG RDMA device (mlx5_bond_N) on the first PF, whose
GIDs' gid_attrs/ndevs name the bond.
"""

import os

from netsys import add_netdev, pci_dir, symlink, write

LACP_ACTIVITY, LACP_TIMEOUT, LACP_AGGREGATION, LACP_SYNC = 0x01, 0x02, 0x04, 0x08
LACP_COLLECTING, LACP_DISTRIBUTING, LACP_DEFAULTED, LACP_EXPIRED = 0x10, 0x20, 0x40, 0x80
# A negotiated fast-rate port: activity, short timeout, aggregation, sync, coll, dist.
LACP_UP = 0x3f
# Our side, nobody answering: activity, short timeout, aggregation, defaulted.
LACP_ALONE = LACP_ACTIVITY | LACP_TIMEOUT | LACP_AGGREGATION | LACP_DEFAULTED

MODES = ["balance-rr", "active-backup", "balance-xor", "broadcast", "802.3ad",
         "balance-tlb", "balance-alb"]
PROC_MODES = ["load balancing (round-robin)", "fault-tolerance (active-backup)",
              "load balancing (xor)", "fault-tolerance (broadcast)",
              "IEEE 802.3ad Dynamic link aggregation", "transmit load balancing",
              "adaptive load balancing"]
ZERO_MAC = "00:00:00:00:00:00"


class Slave:
    """One slave: pci is the BDF of its function (None: virtual); pcidir the function's
    real directory instead (a function not listed in bus/pci/devices)."""

    def __init__(self, name, ifindex, perm_mac, *, pci=None, pcidir=None, mii="up", state="active",
                 link_failures=0, speed=100000, aggregator=None, actor_state=LACP_UP,
                 partner_state=LACP_UP, partner_mac=None, port_number=1, queue_id=0):
        self.name, self.ifindex, self.perm_mac, self.pci = name, ifindex, perm_mac, pci
        self.pcidir = pcidir
        self.mii, self.state, self.link_failures, self.speed = mii, state, link_failures, speed
        self.aggregator, self.actor_state, self.partner_state = aggregator, actor_state, partner_state
        self.partner_mac, self.port_number, self.queue_id = partner_mac, port_number, queue_id


class Bond:
    def __init__(self, name, ifindex, slaves, *, mode="802.3ad", miimon=100, lacp_rate="fast",
                 xmit_hash_policy="layer3+4 1", active=None, ad_aggregator=None, ad_num_ports=None,
                 partner_mac=None, actor_key=21, partner_key=15, system_mac=None, cap=True,
                 mtu=1500):
        self.name, self.ifindex, self.slaves, self.mode = name, ifindex, slaves, mode
        self.miimon, self.lacp_rate, self.xmit_hash_policy = miimon, lacp_rate, xmit_hash_policy
        self.active, self.ad_aggregator, self.ad_num_ports = active, ad_aggregator, ad_num_ports
        self.partner_mac, self.actor_key, self.partner_key = partner_mac, actor_key, partner_key
        self.system_mac, self.cap, self.mtu = system_mac, cap, mtu

    @property
    def mac(self):
        return self.slaves[0].perm_mac if self.slaves else "00:00:00:00:00:00"

    @property
    def lacp(self):
        return self.mode == "802.3ad"

    @property
    def carrier(self):
        return any(s.mii == "up" for s in self.slaves)


def _w(d, name, text):
    """An attribute the way sysfs shows it: text + newline, or nothing at all."""
    write(os.path.join(d, name), text + "\n" if text is not None else "")


def _bonding_dir(root, b):
    d = os.path.join(os.path.realpath(os.path.join(root, "sys/class/net", b.name)), "bonding")
    mode_no = MODES.index(b.mode)
    lacp_cap = b.lacp and b.cap
    attrs = {
        "mode": "%s %d" % (b.mode, mode_no),
        "miimon": "%d" % b.miimon,
        "mii_status": "up" if b.carrier else "down",
        "slaves": " ".join(s.name for s in b.slaves) if b.slaves else None,
        "active_slave": b.active if b.mode in ("active-backup", "balance-tlb", "balance-alb") else None,
        "primary": None,
        "primary_reselect": "always 0",
        "updelay": "0",
        "downdelay": "0",
        "peer_notif_delay": "0",
        "use_carrier": "1",
        "arp_interval": "0",
        "arp_ip_target": None,
        "arp_validate": "none 0",
        "arp_all_targets": "any 0",
        "fail_over_mac": "none 0",
        "xmit_hash_policy": b.xmit_hash_policy,
        "lacp_active": "on 1",
        "lacp_rate": "%s %d" % (b.lacp_rate, 1 if b.lacp_rate == "fast" else 0),
        "ad_select": "stable 0",
        "min_links": "0",
        "num_grat_arp": "1",
        "num_unsol_na": "1",
        "all_slaves_active": "0",
        "resend_igmp": "1",
        "lp_interval": "1",
        "packets_per_slave": "1",
        "tlb_dynamic_lb": "1",
        "ad_user_port_key": "0",
        "ad_aggregator": "%d" % b.ad_aggregator if b.lacp and b.ad_aggregator else None,
        "ad_num_ports": "%d" % b.ad_num_ports if b.lacp and b.ad_aggregator else None,
        "ad_actor_key": "%d" % b.actor_key if lacp_cap and b.ad_aggregator else None,
        "ad_partner_key": "%d" % b.partner_key if lacp_cap and b.ad_aggregator else None,
        "ad_partner_mac": (b.partner_mac or ZERO_MAC) if lacp_cap and b.ad_aggregator else None,
        "ad_actor_sys_prio": "65535" if lacp_cap else None,
        "ad_actor_system": (b.system_mac or b.mac) if lacp_cap else None,
    }
    for k, v in attrs.items():
        _w(d, k, v)


def _slave_dir(root, b, s):
    d = os.path.join(os.path.realpath(os.path.join(root, "sys/class/net", s.name)),
                     "bonding_slave")
    lacp_agg = b.lacp and s.aggregator
    _w(d, "state", s.state)
    _w(d, "mii_status", s.mii)
    _w(d, "link_failure_count", "%d" % s.link_failures)
    _w(d, "perm_hwaddr", s.perm_mac)
    _w(d, "queue_id", "%d" % s.queue_id)
    _w(d, "ad_aggregator_id", "%d" % s.aggregator if lacp_agg else "N/A")
    _w(d, "ad_actor_oper_port_state", "%d" % s.actor_state if lacp_agg else "N/A")
    _w(d, "ad_partner_oper_port_state", "%d" % s.partner_state if lacp_agg else "N/A")


def _proc_master(b, kver):
    mode_no = MODES.index(b.mode)
    out = ["Ethernet Channel Bonding Driver: v%s" % kver, "",
           "Bonding Mode: %s" % PROC_MODES[mode_no]]
    if b.mode in ("balance-xor", "802.3ad", "balance-tlb"):
        name, num = b.xmit_hash_policy.split()
        out.append("Transmit Hash Policy: %s (%s)" % (name, num))
    if b.mode in ("active-backup", "balance-tlb", "balance-alb"):
        out.append("Primary Slave: None")
        out.append("Currently Active Slave: %s" % (b.active or "None"))
    out += ["MII Status: %s" % ("up" if b.carrier else "down"),
            "MII Polling Interval (ms): %d" % b.miimon, "Up Delay (ms): 0", "Down Delay (ms): 0",
            "Peer Notification Delay (ms): 0"]
    if b.lacp:
        out += ["", "802.3ad info", "LACP active: on", "LACP rate: %s" % b.lacp_rate,
                "Min links: 0", "Aggregator selection policy (ad_select): stable"]
        if b.cap:
            out += ["System priority: 65535", "System MAC address: %s" % (b.system_mac or b.mac)]
            if b.ad_aggregator:
                out += ["Active Aggregator Info:",
                        "\tAggregator ID: %d" % b.ad_aggregator,
                        "\tNumber of ports: %d" % b.ad_num_ports,
                        "\tActor Key: %d" % b.actor_key,
                        "\tPartner Key: %d" % b.partner_key,
                        "\tPartner Mac Address: %s" % (b.partner_mac or ZERO_MAC)]
            else:
                out.append("bond %s has no active aggregator" % b.name)
    return out


def _proc_slave(b, s):
    out = ["", "Slave Interface: %s" % s.name, "MII Status: %s" % s.mii,
           "Speed: %s" % ("%d Mbps" % s.speed if s.mii == "up" else "Unknown"),
           "Duplex: %s" % ("full" if s.mii == "up" else "unknown"),
           "Link Failure Count: %d" % s.link_failures,
           "Permanent HW addr: %s" % s.perm_mac, "Slave queue ID: %d" % s.queue_id]
    if not b.lacp:
        return out
    if not s.aggregator:
        return out + ["Aggregator ID: N/A"]
    churned = "none" if s.actor_state & LACP_SYNC else "churned"
    out += ["Aggregator ID: %d" % s.aggregator, "Actor Churn State: %s" % churned,
            "Partner Churn State: %s" % churned,
            "Actor Churned Count: %d" % (0 if churned == "none" else 1),
            "Partner Churned Count: %d" % (0 if churned == "none" else 1)]
    if b.cap:
        pmac = s.partner_mac or ZERO_MAC
        out += ["details actor lacp pdu:", "    system priority: 65535",
                "    system mac address: %s" % (b.system_mac or b.mac),
                "    port key: %d" % b.actor_key, "    port priority: 255",
                "    port number: %d" % s.port_number, "    port state: %d" % s.actor_state,
                "details partner lacp pdu:",
                "    system priority: %d" % (32667 if pmac != ZERO_MAC else 65535),
                "    system mac address: %s" % pmac,
                "    oper key: %d" % (b.partner_key if pmac != ZERO_MAC else 1),
                "    port priority: %d" % (32768 if pmac != ZERO_MAC else 255),
                "    port number: %d" % (276 + s.port_number if pmac != ZERO_MAC else 1),
                "    port state: %d" % s.partner_state]
    return out


def add_bond(root, b, kver="6.1.0-27-amd64"):
    """Create bond b (a Bond) and its slaves in root. The slaves must not exist yet."""
    add_netdev(root, b.name, b.ifindex, b.mac, mtu=b.mtu, operstate="up" if b.carrier else "down",
               carrier=1 if b.carrier else 0, flags="0x1403" if b.carrier else "0x1402",
               speed=sum(s.speed for s in b.slaves if s.mii == "up") or None)
    for s in b.slaves:
        up = s.mii == "up"
        add_netdev(root, s.name, s.ifindex, b.mac, pci=s.pci, pcidir=s.pcidir, mtu=b.mtu,
                   operstate="up" if up else "down",
                   carrier=1 if up else 0, speed=s.speed if up else None, master=b.name,
                   flags="0x1803" if up else "0x1802")
    _bonding_dir(root, b)
    for s in b.slaves:
        _slave_dir(root, b, s)
    lines = _proc_master(b, kver)
    for s in b.slaves:
        lines += _proc_slave(b, s)
    write(os.path.join(root, "proc/net/bonding", b.name), "\n".join(lines) + "\n", 0o444)


def add_rdma_lag(root, name, pci, bond, node_guid, *, gid_slots=255, ipv4=None,
                 rate="100 Gb/sec (2X HDR)", state="4: ACTIVE", phys_state="5: LinkUp"):
    """An mlx5 RoCE LAG device on PF pci: ports/1 with RoCE v1/v2 GIDs named after bond.
    Empty GID slots have empty ndevs/types files (the real kernel answers EINVAL there)."""
    d = os.path.join(pci_dir(root, pci), "infiniband", name)
    cls = os.path.join(root, "sys/class/infiniband")
    symlink(os.path.relpath(d, cls), os.path.join(cls, name))
    symlink("../../../%s" % pci, os.path.join(d, "device"))
    for k, v in {"node_type": "1: CA", "node_guid": node_guid, "sys_image_guid": node_guid,
                 "fw_ver": "22.39.2048", "hca_type": "MT4125", "board_id": "MT_0000000359",
                 "hw_rev": "0x0", "node_desc": "l40-amd-fake %s" % name}.items():
        _w(d, k, v)
    p = os.path.join(d, "ports/1")
    for k, v in {"state": state, "phys_state": phys_state, "rate": rate,
                 "link_layer": "Ethernet", "lid": "0x0", "sm_lid": "0x0", "lid_mask_count": "0",
                 "sm_sl": "0", "cap_mask": "0x00010000"}.items():
        _w(p, k, v)
    guid = node_guid.replace(":", "")
    ll = "fe80:0000:0000:0000:%s:%s:%s:%s" % (guid[0:4], guid[4:8], guid[8:12], guid[12:16])
    gids = [(ll, "IB/RoCE v1"), (ll, "RoCE v2")]
    if ipv4:
        a = [int(x) for x in ipv4.split(".")]
        v4 = "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % tuple(a)
        gids += [(v4, "IB/RoCE v1"), (v4, "RoCE v2")]
    for i in range(gid_slots):
        gid, typ = gids[i] if i < len(gids) else ("0000:" * 7 + "0000", None)
        _w(os.path.join(p, "gids"), str(i), gid)
        _w(os.path.join(p, "gid_attrs/ndevs"), str(i), bond if typ else None)
        _w(os.path.join(p, "gid_attrs/types"), str(i), typ)
