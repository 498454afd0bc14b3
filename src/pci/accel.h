/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "pci/selector.h"

/*
 * The known accelerators, by vendor:device id, never by class alone: co-processors (0b40)
 * and processing accelerators (1200) hold much else (every Sapphire/Emerald Rapids Xeon
 * has Intel QuickAssist endpoints of class 0b40 on its root buses), and display
 * controllers (0300/0380) hold the BMC's VGA and consumer cards. What reads it:
 *   - `hostprep topology`, [Inventory] GPUs= and [AER]: a listed function is a GPU/
 *     accelerator whatever its class and wherever it sits (a VM's passed-through part is
 *     on a root bus); an unlisted co-processor or processing accelerator is not (fail
 *     closed: GPUs= comes up short and names it; [Topology] Accelerators= can select it).
 *   - the selector `accel` (pci/selector.h): the vendor's [ACS:gpu-paths] p2p: rule and
 *     [Topology] ExpectP2P= name these parts' peer-to-peer paths with it.
 * Data, not code: each entry cites where its ids come from (src/pci/accel.c).
 */
struct pci_accel_id {
	uint16_t vendor;
	uint16_t device_first, device_last; /* inclusive */
	uint16_t class_code;		    /* base class and subclass the entry needs; 0: any */
	const char *name;
	/*
	 * What the vendor (or its bug tracker) documents going wrong when this part's P2P
	 * traffic is redirected by ACS, beyond speed: named in the remedy of the acs and
	 * topology.p2p results of a path that still redirects. NULL: slowness only.
	 */
	const char *p2p_risk;
};

extern const struct pci_accel_id pci_accel_ids[];
extern const size_t pci_accel_ids_n;

/* The entry that lists id (vendor, device, class), or NULL. The first entry wins. */
const struct pci_accel_id *pci_accel_lookup(const struct pci_ident *id);
