/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "topo/links.h"
#include "topo/topo.h"

/*
 * The PCIe topology's digest: what a fleet compares to find the host whose cards sit
 * elsewhere, behind another switch, or on a link that can do less than its peers'
 * (hostprep_pcie_topology_info, docs/report-schema.md).
 *
 * Its input is the shape text, one line per endpoint of the topology (the GPUs and
 * accelerators, then the NICs, each in PCI address order, SR-IOV virtual functions left
 * out as topo_build() leaves them), each line the endpoint and then every bridge above
 * it up to its root port:
 *
 *   GPU 0000:17:00.0 10de:2330 x16 g5 < 0000:16:00.0 1000:c030 x16 g5 < ...
 *
 * each function as its address, vendor:device and the link it can run (max_link_width,
 * max_link_speed as a generation; x0 / g0 where sysfs says nothing). Nothing that differs
 * from boot to boot on one box goes in: no IRQ, IOMMU group, NUMA node, trained (current)
 * link, netdev or RDMA device name, driver, ACS setting. Two boxes built alike give the
 * same text; a card in another slot, another switch, another part or a link that can do
 * less gives another. The digest is the first 16 hex digits of the text's SHA-256.
 */
#define TOPO_DIGEST_LEN 16

/*
 * The shape text of t over inv; links[i] the link capabilities of inv->devs[i] (NULL:
 * none known). malloc'd; -ENOMEM.
 */
int topo_shape_text(const struct topology *t, const struct pci_inventory *inv,
		    const struct link_attrs *links, char **ret);
/* The digest of a shape text: TOPO_DIGEST_LEN lowercase hex digits and a NUL. */
void topo_shape_digest(const char *text, char out[static TOPO_DIGEST_LEN + 1]);
/* Both, with the links read below root for the functions the text names. -ENOMEM. */
int topo_digest(const struct sysroot *root, const struct topology *t,
		const struct pci_inventory *inv, char out[static TOPO_DIGEST_LEN + 1]);
