/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "core/sysroot.h"

/*
 * Which netdevs hold an IP address NCCL's bootstrap can bind: an IPv4 address of any
 * scope but host, or a global IPv6 one (a link-local one needs a scope id NCCL does not
 * give). NCCL_SOCKET_IFNAME naming an interface without one makes the bootstrap fail or
 * pick another fabric.
 */
#define RDMA_ADDR_RECORD "hostprep/snapshot/addresses.txt" /* below /run */

struct rdma_addrs {
	char *text; /* "IFNAME inet|inet6 SCOPE" lines; NULL when not read */
	char *why;  /* why not read (text NULL) */
};

/*
 * On the host from rtnetlink (an RTM_GETADDR dump, noted for a snapshot without the
 * addresses themselves); under --root from the record a snapshot made. 0 or -ENOMEM; a
 * source that cannot be read leaves text NULL and says why.
 */
int rdma_addrs_read(const struct sysroot *root, struct rdma_addrs *ret);
/* Whether IFNAME holds such an address (false when nothing was read). */
bool rdma_addrs_has(const struct rdma_addrs *a, const char *ifname);
void rdma_addrs_free(struct rdma_addrs *a);
