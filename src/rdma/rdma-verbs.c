// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <sys/epoll.h>
#include <syslog.h>

#include "run/linkwait.h"
#include "core/log.h"
#include "rdma/rdma-verbs.h"

DLOPEN_LIB(libibverbs, VERBS_SYMS, VERBS_SONAME,
	   "[Port:*] rules (RDMA ports are re-checked on link events only)",
	   "libibverbs1 on Debian, libibverbs on Fedora");

int dlopen_libibverbs(void)
{
	return dlopen_lib(&libibverbs, LOG_WARNING);
}

struct verbs_dev {
	struct ibv_context *ctx;
	char *name;
};

static bool event_wakes(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_GID_CHANGE:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_DEVICE_FATAL:
		return true;
	default:
		return false;
	}
}

static int verbs_drain(int fd, uint32_t revents, void *userdata)
{
	struct verbs_dev *d = userdata;
	struct ibv_async_event ev;
	bool wake = false, gone = revents & (EPOLLHUP | EPOLLERR);

	while (!gone && sym_ibv_get_async_event(d->ctx, &ev) == 0) {
		log_debug("%s: async event %s", d->name, sym_ibv_event_type_str(ev.event_type));
		wake = wake || event_wakes(ev.event_type);
		gone = gone || ev.event_type == IBV_EVENT_DEVICE_FATAL;
		sym_ibv_ack_async_event(&ev);
	}
	if (gone) {
		/* the device went away (unbind, reset): its netdev's events remain */
		log_debug("%s: device gone, re-checking on link events only", d->name);
		return -ENODEV;
	}
	return wake;
}

static void verbs_dev_close(void *userdata)
{
	struct verbs_dev *d = userdata;

	if (d->ctx)
		sym_ibv_close_device(d->ctx);
	free(d->name);
	free(d);
}

static struct ibv_context *verbs_open(struct ibv_device **list, const char *name)
{
	for (; list && *list; list++)
		if (streq(sym_ibv_get_device_name(*list), name))
			return sym_ibv_open_device(*list);
	errno = ENODEV;
	return NULL;
}

static int verbs_watch(const char *name, struct ibv_device **list, struct linkwait_sources *sources)
{
	struct verbs_dev *d = calloc(1, sizeof(*d));
	int flags;

	if (!d || !(d->name = strdup(name))) {
		free(d);
		return -ENOMEM;
	}
	d->ctx = verbs_open(list, name);
	if (!d->ctx) {
		/* not fatal: the port's state is still read from sysfs on each wake */
		log_debug_errno(errno, "%s: no verbs context (%m), re-checking on link events only",
				name);
		verbs_dev_close(d);
		return 0;
	}
	flags = fcntl(d->ctx->async_fd, F_GETFL);
	if (flags < 0 || fcntl(d->ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		int r = -errno;

		verbs_dev_close(d);
		return log_error_errno(r, "Failed to watch RDMA async events: %m");
	}
	return linkwait_sources_add(sources, &(struct linkwait_source){
						     .name = d->name,
						     .fd = d->ctx->async_fd,
						     .drain = verbs_drain,
						     .close = verbs_dev_close,
						     .userdata = d,
					     });
}

/* A name verbs could never match is the caller's bug, not the host's state. */
static bool rdma_name_valid(const char *name)
{
	return name && *name && strlen(name) < IBV_SYSFS_NAME_MAX && !strchr(name, '/') &&
	       !streq(name, ".") && !streq(name, "..");
}

int rdma_verbs_wait_sources(const char *const *names, struct linkwait_sources *sources)
{
	struct ibv_device **list;
	int r = 0;

	if (!names || !*names)
		return 0;
	for (const char *const *n = names; *n; n++)
		if (!rdma_name_valid(*n))
			return log_error_errno(EINVAL, "Invalid RDMA device name to wait for: '%s'",
					       *n);
	/* NULL (no library, no devices, no uverbs): each open fails, sysfs is re-read on events */
	list = dlopen_libibverbs() >= 0 ? sym_ibv_get_device_list(NULL) : NULL;
	for (const char *const *n = names; *n && r >= 0; n++)
		r = verbs_watch(*n, list, sources);
	if (list)
		sym_ibv_free_device_list(list);
	return r;
}
