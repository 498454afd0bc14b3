# SPDX-License-Identifier: GPL-2.0-or-later
"""Bond overlays on the l40-amd fixture, whose dual-port ConnectX-6 Dx (15b3:101d, class
0x020000 Ethernet, PFs 0000:02:00.0 and 0000:02:00.1) is the NIC mlx5 forms a RoCE LAG
on. (dgx8's ConnectX-7s are single-function InfiniBand parts, class 0x020700: no
Ethernet bond or RoCE LAG could sit on them.)

bond-lacp        bond0 802.3ad over ens2f0np0 + ens2f1np1, negotiated with a switch
                 (partner 00:1c:73:aa:bb:cc), both in aggregator 1; mlx5_bond_0 on PF 0
                 with GIDs whose ndev is bond0
bond-lacp-split  the same, but ens2f1np1's switch port is not in the LAG: it sits alone in
                 aggregator 2, defaulted, not collecting/distributing, no partner (00:..:00)
bond-lacp-nocap  bond-lacp as a process without CAP_NET_ADMIN reads it: ad_partner_mac
                 empty, /proc/net/bonding without aggregator info and LACP PDU details
bond-ab          bond0 active-backup over the same PFs: ens2f0np0 active and up,
                 ens2f1np1 backup with mii down after 3 link failures; no LAG device
bond-ab1         the same bond named bond1 (conf/hostprep.conf's active-backup example)
"""

from bondsys import LACP_ALONE, LACP_UP, Bond, Slave, add_bond, add_rdma_lag

PF0, PF1 = "0000:02:00.0", "0000:02:00.1"
MAC0, MAC1 = "b8:ce:f6:5e:10:40", "b8:ce:f6:5e:10:41"
SWITCH = "00:1c:73:aa:bb:cc"
GUID = "b8ce:f603:005e:1040"


def lacp_slaves(split=False):
    return [
        Slave("ens2f0np0", 4, MAC0, pci=PF0, aggregator=1, partner_mac=SWITCH, port_number=1),
        # a port outside the active aggregator is disabled: bonding_slave/state "backup"
        Slave("ens2f1np1", 5, MAC1, pci=PF1, aggregator=2 if split else 1,
              state="backup" if split else "active",
              actor_state=LACP_ALONE if split else LACP_UP,
              partner_state=0x01 if split else LACP_UP,
              partner_mac=None if split else SWITCH, link_failures=1 if split else 0,
              port_number=2),
    ]


def lacp(root, split=False, cap=True):
    add_bond(root, Bond("bond0", 6, lacp_slaves(split), ad_aggregator=1,
                        ad_num_ports=1 if split else 2, partner_mac=SWITCH, cap=cap))
    add_rdma_lag(root, "mlx5_bond_0", PF0, "bond0", GUID, ipv4="10.10.1.11")


def active_backup(root, name="bond0"):
    slaves = [Slave("ens2f0np0", 4, MAC0, pci=PF0),
              Slave("ens2f1np1", 5, MAC1, pci=PF1, mii="down", state="backup",
                    link_failures=3)]
    add_bond(root, Bond(name, 6, slaves, mode="active-backup", active="ens2f0np0",
                        xmit_hash_policy="layer2 0"))


OVERLAYS = {
    "bond-lacp": ("l40-amd", lambda root: lacp(root)),
    "bond-lacp-split": ("l40-amd", lambda root: lacp(root, split=True)),
    "bond-lacp-nocap": ("l40-amd", lambda root: lacp(root, cap=False)),
    "bond-ab": ("l40-amd", active_backup),
    "bond-ab1": ("l40-amd", lambda root: active_backup(root, "bond1")),
}
