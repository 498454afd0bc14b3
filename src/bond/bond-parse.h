/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"

/*
 * Pure parsers for what the bonding driver prints: /sys/class/net/BOND/bonding/ATTR,
 * /sys/class/net/SLAVE/bonding_slave/ATTR (drivers/net/bonding/bond_sysfs*.c) and the
 * human view /proc/net/bonding/BOND (bond_procfs.c). No I/O here, so every parser has a
 * unit test (tests/unit/test_bond_parse.c). Every parser takes the attribute's text with
 * or without its trailing newline and returns -EINVAL for anything else.
 */

#define BOND_IFNAME_MAX 15 /* IFNAMSIZ - 1 */
#define BOND_MAC_MAX	20 /* INFINIBAND_ALEN: IPoIB slaves have 20-byte addresses */
#define BOND_SLAVES_MAX 64 /* more than any real bond; a longer list is garbage */

/* Numbering is the kernel's (BOND_MODE_*): "802.3ad 4". */
enum bond_mode {
	BOND_MODE_ROUNDROBIN,
	BOND_MODE_ACTIVEBACKUP,
	BOND_MODE_XOR,
	BOND_MODE_BROADCAST,
	BOND_MODE_8023AD,
	BOND_MODE_TLB,
	BOND_MODE_ALB,
	_BOND_MODE_MAX,
};

/* A slave's mii_status (bond_slave_link_status()); the bond's own is up or down. */
enum bond_mii {
	BOND_MII_UP,
	BOND_MII_GOING_DOWN,
	BOND_MII_DOWN,
	BOND_MII_GOING_BACK,
	_BOND_MII_MAX,
};

enum bond_slave_state {
	BOND_SLAVE_ACTIVE,
	BOND_SLAVE_BACKUP,
	_BOND_SLAVE_STATE_MAX,
};

enum bond_lacp_rate {
	BOND_LACP_SLOW,
	BOND_LACP_FAST,
	_BOND_LACP_RATE_MAX,
};

/* LACP port state bits (IEEE 802.1AX actor/partner state; bond_3ad.h AD_STATE_*). */
#define LACP_STATE_ACTIVITY	   0x01
#define LACP_STATE_TIMEOUT	   0x02
#define LACP_STATE_AGGREGATION	   0x04
#define LACP_STATE_SYNCHRONIZATION 0x08
#define LACP_STATE_COLLECTING	   0x10
#define LACP_STATE_DISTRIBUTING	   0x20
#define LACP_STATE_DEFAULTED	   0x40
#define LACP_STATE_EXPIRED	   0x80
#define LACP_STATE_COLL_DIST	   (LACP_STATE_COLLECTING | LACP_STATE_DISTRIBUTING)
#define LACP_STATE_DECODE_MAX	   96

struct bond_mac {
	uint8_t b[BOND_MAC_MAX];
	uint8_t len; /* 0: not known */
};

const char *bond_mode_to_string(enum bond_mode m);
/* A mode name as the config and ip-link spell it ("802.3ad"); -EINVAL if unknown. */
int bond_mode_from_name(const char *s);
/* bonding/mode: "802.3ad 4"; the name and the number must agree. */
int bond_parse_mode(const char *s, enum bond_mode *ret);
/* /proc/net/bonding "Bonding Mode:" text ("IEEE 802.3ad Dynamic link aggregation"). */
int bond_parse_proc_mode(const char *s, enum bond_mode *ret);

/* miimon, ad_aggregator, ad_num_ports, link_failure_count, ad_actor_key ...: decimal. */
int bond_parse_uint(const char *s, unsigned *ret);
/* Same, but "N/A" (bonding_slave/ATTR outside 802.3ad) gives -ENODATA. */
int bond_parse_uint_na(const char *s, unsigned *ret);

const char *bond_mii_to_string(enum bond_mii m);
int bond_parse_mii(const char *s, enum bond_mii *ret);
const char *bond_slave_state_to_string(enum bond_slave_state s);
int bond_parse_slave_state(const char *s, enum bond_slave_state *ret);
const char *bond_lacp_rate_to_string(enum bond_lacp_rate r);
/* lacp_rate: "slow 0" / "fast 1". */
int bond_parse_lacp_rate(const char *s, enum bond_lacp_rate *ret);

/* "aa:bb:cc:dd:ee:ff" (6 or 20 bytes, lower or upper case hex). */
int bond_parse_mac(const char *s, struct bond_mac *ret);
bool bond_mac_is_zero(const struct bond_mac *m);
/* "aa:bb:..." into buf (3 * BOND_MAC_MAX bytes), "unknown" when len is 0. */
const char *bond_mac_to_string(const struct bond_mac *m, char *buf, size_t size);

/* ad_actor_oper_port_state / ad_partner_oper_port_state: "61" (0-255); "N/A" -ENODATA. */
int bond_parse_port_state(const char *s, uint8_t *ret);
/* "0x3d (activity, aggregation, sync, collecting, distributing)" into buf. */
const char *lacp_state_to_string(uint8_t st, char *buf, size_t size);

/*
 * The kernel's dev_valid_name(): 1-15 bytes, not "." or "..", no '/', ':' or whitespace.
 */
bool bond_ifname_valid(const char *s);
/* An RDMA device name: [A-Za-z0-9_.-]{1,63} (IB_DEVICE_NAME_MAX - 1), not "." or "..". */
bool bond_rdma_name_valid(const char *s);

/* bonding/slaves: "ens1f0np0 ens1f1np1" (may be empty); NULL-terminated, malloc'd. */
int bond_parse_slaves(const char *s, char ***ret);
/* bonding/active_slave: a name or empty (no active slave): *ret NULL then. */
int bond_parse_active_slave(const char *s, char **ret);

/* What /proc/net/bonding/BOND says that sysfs lacks or hides without CAP_NET_ADMIN. */
struct bond_proc_slave {
	char name[BOND_IFNAME_MAX + 1];
	bool has_mii, has_agg, has_actor_state, has_partner_state;
	enum bond_mii mii;
	unsigned link_failures;
	bool has_link_failures;
	unsigned aggregator;
	struct bond_mac partner_mac; /* "details partner lacp pdu: system mac address" */
	uint8_t actor_state, partner_state;
};

struct bond_proc {
	bool has_mode;
	enum bond_mode mode;
	bool has_active_agg;
	unsigned active_agg;
	unsigned num_ports;
	struct bond_mac partner_mac; /* Active Aggregator Info; len 0 = not shown */
	char active_slave[BOND_IFNAME_MAX + 1];
	struct bond_proc_slave *slaves;
	size_t n_slaves;
};

/* The whole file's text. -EINVAL if it is not the bonding driver's format at all. */
int bond_proc_parse(const char *text, struct bond_proc *ret);
void bond_proc_done(struct bond_proc *p);
const struct bond_proc_slave *bond_proc_slave(const struct bond_proc *p, const char *name);
