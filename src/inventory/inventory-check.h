/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/result.h"
#include "core/strbuf.h"
#include "inventory/inventory-config.h"
#include "pci/pci.h"
#include "rdma/rdma-scan.h"
#include "topo/topo.h"

/*
 * The judgement of [Inventory], pure functions of what mod-inventory.c read: the GPU and
 * NIC functions of the topology (src/topo/topo.h), the RDMA devices and ports
 * (src/rdma/rdma-scan.h), the physical slots of sys/bus/pci/slots.
 *
 * A count passes when at least N are there (more is not a fault: the section says what
 * must be there). Functions that do not respond (config space all-ones or unreadable:
 * PCI_DEV_DEAD/GONE) are not on the bus for the count. A shortfall fails, or is unknown
 * when the ones that could not be read could make it up. The failing result names where
 * the missing ones should be, when sysfs can tell:
 *   - the listed addresses (GPUAddresses=, NICAddresses=) that are absent or dead;
 *   - the functions of that kind that do not respond;
 *   - physical slots (sys/bus/pci/slots/NAME/address) with no function behind them;
 *   - switch ports with nothing below while a sibling port holds a function of that kind.
 */

enum inventory_fn_state {
	INVENTORY_FN_OK,
	INVENTORY_FN_NO_DRIVER,	     /* responds, no driver bound */
	INVENTORY_FN_NO_DEVICE,	     /* NIC: driver bound, neither RDMA device nor netdev */
	INVENTORY_FN_NOT_RESPONDING, /* config space all-ones (fell off the bus) */
	INVENTORY_FN_GONE,	     /* listed, config space unreadable */
	INVENTORY_FN_UNKNOWN,	     /* the driver link could not be read */
};

#define INVENTORY_DRIVER_MAX 64

/* One GPU or NIC function as the check sees it. */
struct inventory_fn {
	size_t dev; /* index into the PCI inventory */
	enum topo_kind kind;
	enum inventory_fn_state state;
	char driver[INVENTORY_DRIVER_MAX]; /* "" when none is bound */
	int driver_err;			   /* INVENTORY_FN_UNKNOWN: why */
	bool has_rdma;			   /* an RDMA device names this function */
	bool has_netdev;		   /* a netdev (or an RDMA device) hangs off it */
};

/*
 * The state of one function: dev_state from the PCI scan, driver_err 0 (driver bound),
 * -ENOENT (none) or another error, has_device: an RDMA device or netdev (NICs only).
 */
enum inventory_fn_state inventory_fn_judge(enum topo_kind kind, enum pci_dev_state dev_state,
					   int driver_err, bool has_device);
/* Whether a function in that state is on the bus for the count (it responds). */
bool inventory_fn_present(enum inventory_fn_state s);
const char *inventory_fn_state_to_string(enum inventory_fn_state s);

/*
 * A count against what is expected: PASS when have >= expected; UNKNOWN when the
 * unreadable ones could make up the difference; else FAIL.
 */
enum verdict inventory_count_verdict(int expected, size_t have, size_t unreadable);

/* "0000:bb:00" (a slot's address file: domain, bus, device, no function) -> 0; -EINVAL. */
int inventory_parse_slot_address(const char *s, uint32_t *domain, uint8_t *bus, uint8_t *dev);
/* Whether any function of inv sits at domain:bus:dev (any function number). */
bool inventory_slot_occupied(const struct pci_inventory *inv, uint32_t domain, uint8_t bus,
			     uint8_t dev);

/*
 * For inventory_empty_port(): below[p] counts the functions whose parent is p, and
 * holds[p] says whether a function of the kind (is_kind[], by device index) is p or below
 * it. Arrays of inv->n; one walk up from each function.
 */
void inventory_mark_tree(const struct pci_inventory *inv, const bool *is_kind, size_t *below,
			 bool *holds);
/*
 * Whether bridge inv->devs[i] is an empty switch port for the kind inventory_mark_tree()
 * marked: no function below it, its parent is a bridge (it is not a root port), and a
 * sibling port (another bridge with the same parent) holds a function of that kind.
 */
bool inventory_empty_port(const struct pci_inventory *inv, const size_t *below, const bool *holds,
			  size_t i);

/*
 * Whether an RDMA device counts for RDMADevices= and its ports for ActivePorts=: the key
 * names the host's own devices, so a device of an SR-IOV virtual function whose physical
 * function is on this host (its PCI function has a physfn link, topo_is_virtfn()) is a
 * second view of a port the PF's device already has and does not count: it would hide
 * a PF that lost its device. A VF without a physfn link (a VM that was given the VF) is
 * the guest's own function and counts, as does a device without a PCI function (rxe,
 * siw). A scalable function's device (its link leads to an auxiliary device below the
 * PF, mlx5_core.sf.N) is such a second view too. Unknown: the link could not be read;
 * such a device may be either.
 */
enum inventory_rdma_role {
	INVENTORY_RDMA_COUNTED,
	INVENTORY_RDMA_VF,
	INVENTORY_RDMA_SF,
	INVENTORY_RDMA_UNKNOWN,
	_INVENTORY_RDMA_ROLE_MAX,
};

/*
 * The role from what class/infiniband/DEV/device said: has_link, whether the entry is
 * there (none: no PCI function behind the device); link_err, why it (or the device)
 * could not be opened; is_vf, topo_is_virtfn() of the function it leads to.
 */
enum inventory_rdma_role inventory_rdma_role(bool has_link, int link_err, int is_vf);

/* What ActivePorts= counts for one link layer. */
struct inventory_ports {
	size_t active;	   /* up as rdma.port would call them: rdma_port_judge() */
	size_t unreadable; /* could be up: the device, the port or its layer unreadable */
};

/*
 * The ports of layer ll over rd's devices whose role[i] (NULL: every one counted) is not
 * INVENTORY_RDMA_VF, each judged as rdma.port judges it (rdma_port_judge(), one
 * judgement): up only ACTIVE and LinkUp; ACTIVE over a physical state that cannot be
 * read, any port whose layer cannot be read, and an up port of a device of unknown role,
 * is unreadable (it could be the missing one); every other port of that layer is added
 * to down as "; mlx5_3/1 ACTIVE (Disabled)".
 */
void inventory_ports_tally(const struct rdma_inventory *rd, const enum inventory_rdma_role *role,
			   enum rdma_link_layer ll, struct inventory_ports *ret,
			   struct strbuf *down);
