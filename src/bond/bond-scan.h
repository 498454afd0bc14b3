/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "bond/bond-config.h"
#include "bond/bond-parse.h"
#include "core/sysroot.h"

/*
 * What the host says about the bonds the config names, read through the root prefix:
 * /sys/class/net/BOND/bonding/, each slave's bonding_slave/ and PCI function, for
 * 802.3ad /proc/net/bonding/BOND (the partner MACs sysfs hides without CAP_NET_ADMIN),
 * and for RDMA= the LAG device under /sys/class/infiniband. Only bonds a rule names are
 * read. Each value carries its own error (-errno): a missing or garbled file makes that
 * one value unknown, never the whole bond.
 */

#define BOND_PCI_MAX 16 /* "DDDD:BB:DD.F" */

struct bond_slave_seen {
	char name[BOND_IFNAME_MAX + 1];
	int err; /* bonding_slave/ itself: -ENOENT when the slave vanished */
	int mii_err;
	enum bond_mii mii;
	int state_err;
	enum bond_slave_state state;
	int failures_err;
	unsigned link_failures;
	int agg_err; /* -ENODATA: "N/A" (no aggregator) */
	unsigned aggregator;
	int actor_err;
	uint8_t actor_state;
	int partner_state_err;
	uint8_t partner_state;
	struct bond_mac partner_mac; /* from /proc/net/bonding; len 0: not shown */
	char pci[BOND_PCI_MAX + 1];  /* "" when not a PCI function's netdev */
};

struct bond_lag_seen {
	int err;		    /* sys/class/infiniband/NAME: -ENOENT when there is none */
	char pci[BOND_PCI_MAX + 1]; /* its device link, "" when unreadable */
	int pci_err;
	char *ndev; /* the first gid_attrs/ndevs entry naming the bond, else the first seen */
	unsigned ndev_port, ndev_index;
	bool on_bond; /* an ndevs entry names the bond */
	int ndev_err; /* no entry readable: why (-ENODATA when every slot was empty) */
};

struct bond_seen {
	const struct bond_rule *rule;
	int err; /* -ENOENT: no such interface; -ENOTDIR: a netdev but not a bond */
	int oper_err;
	char operstate[16]; /* RFC 2863 as the kernel names it: "up", "down", ... */
	int mii_err;	    /* bonding/mii_status: the bond's carrier, up or down */
	enum bond_mii mii;
	int flags_err;
	unsigned long flags; /* IFF_UP: administratively up */
	int mode_err;
	enum bond_mode mode;
	int miimon_err;
	unsigned miimon;
	int slaves_err;
	char **slaves;
	int active_err;
	char *active; /* NULL: none */
	int agg_err;  /* -ENODATA: no active aggregator (802.3ad) */
	unsigned ad_aggregator;
	int num_ports_err;
	unsigned ad_num_ports;
	int partner_err; /* -EACCES: hidden without CAP_NET_ADMIN (sysfs and procfs) */
	struct bond_mac partner_mac;
	int proc_err; /* /proc/net/bonding/BOND, read for 802.3ad only */
	struct bond_slave_seen *slave;
	size_t n_slaves;
	struct bond_lag_seen lag;
};

struct bond_run {
	struct bond_seen *bonds;
	size_t n_bonds;
};

/* Read every rule's bond (again: the previous contents are freed). */
int bond_run_scan(struct bond_run *b, const struct sysroot *root, const struct bond_config *bc);
void bond_run_free(struct bond_run *b);
void bond_seen_done(struct bond_seen *s);
/* How many slaves have mii_status up. */
size_t bond_slaves_up(const struct bond_seen *s);
