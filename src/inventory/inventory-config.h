/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"
#include "pci/pci.h"

/*
 * [Inventory]: what a host of this kind must have, counted on the bus and in the RDMA
 * class (src/inventory/inventory-check.h says how a shortfall is explained).
 *
 *   [Inventory]
 *     GPUs=N                      GPU/accelerator functions (as `hostprep topology`
 *                                 classifies them, virtual functions not counted)
 *     NICs=N                      NIC functions (the same classification)
 *     RDMADevices=N               devices in the RDMA class (mlx5_0, mlx5_bond_0, ...),
 *                                 not those of a VF of a PF here (inventory-check.h)
 *     ActivePorts=LAYER:N...      list; RDMA ports up per link layer (InfiniBand,
 *                                 Ethernet), e.g. "InfiniBand:8 Ethernet:2"; up as
 *                                 rdma.port judges: ACTIVE and LinkUp
 *     GPUAddresses=ADDR...        list; addresses that must hold a responding GPU
 *     NICAddresses=ADDR...        list; the same for NICs
 *
 * N is 0..INVENTORY_COUNT_MAX; an empty value unsets a count (a list: empties it). No
 * [Inventory] section: nothing is expected and nothing is checked (no result at all).
 */

#define INVENTORY_COUNT_MAX 4096
#define INVENTORY_ADDRS_MAX 256

enum inventory_count {
	INVENTORY_GPUS,
	INVENTORY_NICS,
	INVENTORY_RDMA,
	INVENTORY_PORTS_IB,  /* ActivePorts=InfiniBand:N */
	INVENTORY_PORTS_ETH, /* ActivePorts=Ethernet:N */
	_INVENTORY_COUNT_MAX,
};

struct inventory_addr {
	char addr[PCI_ADDR_LEN]; /* canonical "dddd:bb:dd.f" */
	struct origin at;
};

struct inventory_config {
	struct config_singleton head;	 /* must come first */
	int count[_INVENTORY_COUNT_MAX]; /* -1: not given */
	struct origin count_at[_INVENTORY_COUNT_MAX];
	struct inventory_addr *addrs[2]; /* [TOPO_GPU] GPUAddresses=, [TOPO_NIC] NICAddresses= */
	size_t n_addrs[2];
};

extern const struct config_part inventory_config_part;
/* c's [Inventory] state; NULL when no file gives such a section. */
static inline const struct inventory_config *inventory_config_get(const struct config *c)
{
	return config_part_state(c, &inventory_config_part);
}

/* "GPUs", "NICs", "RDMADevices", "InfiniBand", "Ethernet": the key or the link layer. */
const char *inventory_count_name(enum inventory_count k);
/* "0".."4096" exactly (no sign, no blanks, no leading zeros but "0"): the count, else -EINVAL. */
int inventory_parse_count(const char *s);
/* One ActivePorts= word "LAYER:N" (layer case-insensitive); -EINVAL with *reason. */
int inventory_parse_ports_word(const char *w, enum inventory_count *ret_k, int *ret_n,
			       const char **reason);
