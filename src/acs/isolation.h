/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/plan.h"
#include "core/sysroot.h"

/*
 * What relaxing ACS does to isolation. The kernel forms IOMMU groups at enumeration with
 * ACS on (SV, RR, CR and UF on every port on the way up): a device passed to a VM through
 * vfio-pci is isolated because those bits are set above it. A port whose ACS is relaxed
 * lets the functions below it reach each other's DMA: their groups become one (the kernel
 * groups them so at the next enumeration; until then sysfs still shows them apart).
 */
#define ACS_ISOLATION_BITS 0x001du /* SV, RR, CR, UF: the kernel's REQ_ACS_FLAGS */

/* One per inventory function, as read by acs_isolation_read(). */
struct acs_fn_iommu {
	int group;	 /* iommu_group number; -1: none (no IOMMU) or unreadable */
	bool translated; /* its group's type is DMA or DMA-FQ (read: acs_isolation_read()) */
	bool vfio;	 /* bound to vfio-pci or a vendor variant of it (mlx5_vfio_pci, ...) */
	/* its driver link (or its directory) could not be read, for another reason than its
	 * absence: counted as vfio-pci (struct acs_target.driver_unread) */
	bool driver_unknown;
};

/*
 * The iommu_group and driver links of each function below a selected ACS_PORT_ACS port of
 * p (what plan_isolation() looks at; the others stay { .group = -1 }: at 4096 functions,
 * reading every one cost more than the ACS check itself), and its group's type, read once
 * per group (kernel/iommu_groups/N/type) and only while a target of the function has no
 * translated function yet (translated is false where it was not read; only the targets'
 * "translated" uses it): *ret has inv->n entries (free() it). Never fails
 * for a function: an unreadable group is "no group"; an unreadable driver link is
 * driver_unknown (not its absence: no link is no driver). -ENOMEM only.
 */
int acs_isolation_read(const struct sysroot *root, const struct pci_inventory *inv,
		       const struct plan *p, struct acs_fn_iommu **ret);

/*
 * Pure: for every selected ACS_PORT_ACS port, what is below it (a bridge: the functions
 * under it; an endpoint with ACS: the functions of its device), whether the policy relaxes
 * its isolation, the groups that merge, the vfio-pci functions; a relaxing write above
 * vfio-pci without AllowVFIO=yes moves from actions to refused. fn: inv->n entries (NULL:
 * nothing is known, nothing is refused).
 */
int plan_isolation(struct plan *p, const struct pci_inventory *inv, const struct acs_fn_iommu *fn);

/*
 * "vfio-pci below (0000:03:00.0)", "driver unreadable below (0000:04:00.0), counted as
 * vfio-pci", both joined by "; ", or "" when neither.
 */
void acs_vfio_format(const struct acs_target *t, char *buf, size_t size);

/* "14, 15, 16" (t->merged); "" when none. */
void acs_merged_format(const struct acs_target *t, char *buf, size_t size);
