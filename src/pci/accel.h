/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "pci/selector.h"

/*
 * The known accelerators that are neither display nor 3D controllers: a co-processor
 * (class 0b40) or processing accelerator (class 1200) is a GPU/accelerator for
 * `hostprep topology`, [Inventory] GPUs= and [AER] only when this table lists it. Those
 * classes hold much else: every Sapphire/Emerald Rapids Xeon has Intel QuickAssist
 * endpoints of class 0b40 on its root buses, and one of them counted as a GPU would hide a
 * GPU that fell off the bus. A listed function is an accelerator whatever its class and
 * wherever it sits (a VM's passed-through accelerator is on a root bus); an unlisted one
 * is not (fail closed: GPUs= comes up short and names it; [Topology] Accelerators= can
 * select it). Data, not code: other checks (the vendor rules of ACS) read the same table.
 */
struct topo_accel_id {
	uint16_t vendor;
	uint16_t device_first, device_last; /* inclusive */
	uint16_t class_code;		    /* base class and subclass the entry needs; 0: any */
	const char *name;
};

extern const struct topo_accel_id topo_accel_ids[];
extern const size_t topo_accel_ids_n;

/* The entry that lists id (vendor, device, class), or NULL. */
const struct topo_accel_id *topo_accel_lookup(const struct pci_ident *id);
