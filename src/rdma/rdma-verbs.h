/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <infiniband/verbs.h>
#include <string.h>

#include "core/dlopen-lib.h"

/*
 * libibverbs (and the libnl-3/libnl-route-3 it links, whose constructors read
 * files) is loaded with dlopen() only when [Port:*] rules read ports through
 * verbs (rdma-scan.c) or apply waits for RDMA ports (rdma_verbs_wait_sources()): runs
 * without them (status, config, ACS/IOMMU-only checks and boots) never map it.
 * The package still depends on it (packaging/ names it: dh_shlibdeps cannot
 * see a dlopen'd library). Every verbs call goes through these pointers.
 */
#define VERBS_SONAME "libibverbs.so.1"

/* ibv_query_port: the compat entry verbs.h's inline falls back to */
#define VERBS_SYMS(X)           \
	X(ibv_get_device_list)  \
	X(ibv_free_device_list) \
	X(ibv_get_device_name)  \
	X(ibv_open_device)      \
	X(ibv_close_device)     \
	X(ibv_get_async_event)  \
	X(ibv_ack_async_event)  \
	X(ibv_event_type_str)   \
	X(ibv_query_port)       \
	X(_ibv_query_gid_ex)

VERBS_SYMS(DLOPEN_DECLARE)

/* verbs.h's inline ibv_query_port(), calling through the table. */
static inline int verbs_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a)
{
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);

	if (!vctx) {
		memset(a, 0, sizeof(*a));
		return sym_ibv_query_port(ctx, port, (struct _compat_ibv_port_attr *)a);
	}
	return vctx->query_port(ctx, port, a, sizeof(*a));
}

/* verbs.h's inline ibv_query_gid_ex(), calling through the table. */
static inline int verbs_query_gid_ex(struct ibv_context *ctx, uint32_t port, uint32_t index,
				     struct ibv_gid_entry *e, uint32_t flags)
{
	return sym__ibv_query_gid_ex(ctx, port, index, e, flags, sizeof(*e));
}

/* Load it once per process: 0, or -EOPNOTSUPP (logged once with dlerror()). */
int dlopen_libibverbs(void);

struct linkwait_sources;
/*
 * The boot wait's event sources (src/run/linkwait.h) for the named RDMA devices: one per
 * device verbs can open, its async fd non-blocking; an event that can change a port's
 * state (PORT_ACTIVE, PORT_ERR, GID_CHANGE, ...) wakes a re-check, a fatal one or a hangup
 * drops the source. A device verbs cannot open (or no libibverbs) is left to the link
 * events: sysfs is re-read on each. -EINVAL (logged): a name verbs could never match.
 */
int rdma_verbs_wait_sources(const char *const *names, struct linkwait_sources *sources);
