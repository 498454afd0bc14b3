/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <net/if.h>

#include "rdma/rdma-counters.h"
#include "rdma/rdma-parse.h"
#include "core/sysroot.h"

/*
 * Inventory of RDMA devices and their ports: the RDMA class directory (class/infiniband/DEV) read
 * through the root prefix, or libibverbs on the live host when a device opens. Read-only. A value
 * that cannot be read is kept as an error (negative errno) next to it, never guessed:
 * the checks turn it into a named "unknown".
 */

/*
 * Bounds on what a listing may hold; beyond them the listing is an error (unknown),
 * never a part. Real hosts: SR-IOV VFs each with a device (8 NICs x 127 VFs), mlx5 in
 * switchdev mode with a port per VF/SF representor, 256 GIDs per RoCE port, thousands
 * of veths on a Kubernetes node.
 */
#define RDMA_MAX_DEVICES 16384
#define RDMA_MAX_PORTS	 16384
#define RDMA_MAX_GIDS	 4096
#define RDMA_MAX_NETDEVS 65536

enum rdma_source {
	RDMA_SOURCE_SYSFS,
	RDMA_SOURCE_VERBS,
};

struct rdma_gid {
	unsigned index;
	uint8_t raw[16];
	enum rdma_gid_type type;
	int type_err;	     /* 0, or why gid_attrs/types/N could not be read */
	char ndev[IFNAMSIZ]; /* "" when the kernel has no netdev for it (EINVAL on read) */
};

struct rdma_port {
	unsigned num;
	int err;	      /* whole port unreadable (vanished, EACCES): state unknown */
	const char *err_what; /* the attribute that failed, static */
	enum rdma_port_state state;
	enum rdma_phys_state phys_state;
	struct rdma_rate rate;
	int rate_err;
	enum rdma_link_layer link_layer;
	unsigned active_mtu;   /* bytes; 0 = not known (sysfs has no file for IB ports) */
	struct rdma_gid *gids; /* non-empty entries only */
	size_t n_gids;
	bool gids_read; /* the table was read (only for Ethernet ports, or with verbs) */
	int gids_err;
	char *netdev;	  /* NULL when none is known */
	char *netdev_via; /* "gid_attrs/ndevs", "PCI function", "node_guid (EUI-64 of MAC)" */
	bool netdev_up;
	unsigned netdev_mtu;
	char *bond;	     /* the bond the netdev is enslaved to, or NULL */
	bool netdev_is_bond; /* the netdev is a bond master itself (RoCE LAG: mlx5_bond_0) */
	bool bond_up;
	/* Set by the wait: how long apply waited for this port (0: it did not wait). */
	uint64_t waited_usec;
	/* Set by the wait: what it saw of the link going down (rdma_wait_observe()). */
	struct rdma_wait_flap wait_flap;
};

struct rdma_device {
	char *name;
	int err; /* the device directory itself is unreadable */
	enum rdma_source source;
	char *source_note; /* why sysfs when verbs were tried (e.g. "verbs: Permission denied") */
	enum rdma_node_type node_type;
	uint8_t node_guid[8];
	bool have_guid;
	char *pci;	/* "0000:1a:00.0", NULL for a device without a PCI function (rxe, siw) */
	bool below_pci; /* no PCI function: a function below one (a scalable function) */
	uint16_t vendor, device;
	bool have_ids;
	char *fw_ver;	/* firmware ("28.39.1002"), NULL when the device has none to read */
	char *board_id; /* the board id (NVIDIA: PSID, "MT_0000000838"), NULL likewise */
	struct rdma_port *ports;
	size_t n_ports;
	bool ports_read; /* the ports were read (rdma_scan_ports() reads only those wanted) */
};

struct rdma_inventory {
	struct rdma_device *devs;
	size_t n_devs;
	int err; /* /sys/class/infiniband unreadable (not ENOENT: that is "no RDMA devices") */
};

/*
 * Devices are read in name order. want(): does the caller need this device's ports (a
 * rule selects it, or the listing wants all)? NULL = all. use_verbs: try libibverbs first.
 */
typedef bool (*rdma_want_fn)(const struct rdma_device *dev, void *userdata);
int rdma_scan(const struct sysroot *root, bool use_verbs, rdma_want_fn want, void *userdata,
	      struct rdma_inventory *ret);
/*
 * rdma_scan() in two halves, for a view read once and shared (src/rdma/rdma-run.c): the
 * devices and what names them (node type, GUID, PCI function), then the ports of the
 * devices want() selects and whose ports are not read yet (NULL: all), through verbs for
 * those verbs() selects (NULL: none; sysfs when the library or the device does not open).
 */
int rdma_scan_devices(const struct sysroot *root, struct rdma_inventory *ret);
int rdma_scan_ports(const struct sysroot *root, struct rdma_inventory *inv, rdma_want_fn want,
		    rdma_want_fn verbs, void *userdata);
/*
 * The ports of the devices want() selects, read again like rdma_scan_ports() (after the
 * boot wait: a port that came up has the rate, GIDs and netdev of its link now, not of
 * the down link read before). What the wait recorded of a port (waited_usec, wait_flap)
 * stays with its number.
 */
int rdma_rescan_ports(const struct sysroot *root, struct rdma_inventory *inv, rdma_want_fn want,
		      rdma_want_fn verbs, void *userdata);
/* Re-read state and phys_state of one port from sysfs (the wait's predicate). */
int rdma_port_reread_state(const struct sysroot *root, const char *dev, struct rdma_port *p);
void rdma_inventory_done(struct rdma_inventory *inv);

const struct rdma_gid *rdma_port_roce_v2_ip_gid(const struct rdma_port *p, bool ipv4_only);
const char *rdma_source_to_string(enum rdma_source s);
