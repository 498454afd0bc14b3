/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/macro.h"
#include "core/strbuf.h"
#include "rdma/rdma-addr.h"

static const char *scope_name(unsigned char scope)
{
	switch (scope) {
	case RT_SCOPE_UNIVERSE:
		return "global";
	case RT_SCOPE_SITE:
		return "site";
	case RT_SCOPE_LINK:
		return "link";
	case RT_SCOPE_HOST:
		return "host";
	default:
		return "other";
	}
}

static void addr_line(struct strbuf *b, const struct ifaddrmsg *ifa)
{
	char name[IF_NAMESIZE];

	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return;
	if (!if_indextoname(ifa->ifa_index, name))
		return; /* gone since the dump */
	strbuf_printf(b, "%s %s %s\n", name, ifa->ifa_family == AF_INET ? "inet" : "inet6",
		      scope_name(ifa->ifa_scope));
}

/* One recv() of the dump: 1 when NLMSG_DONE came, 0 for more, or -errno. */
static int addr_recv(int fd, struct strbuf *b)
{
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n = recv(fd, buf, sizeof(buf), 0);

	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPROTO;
	for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			return e->error < 0 ? e->error : -EPROTO;
		}
		if (h->nlmsg_type == RTM_NEWADDR)
			addr_line(b, NLMSG_DATA(h));
	}
	return 0;
}

/* Every address of the host, as "IFNAME FAMILY SCOPE" lines (a 2 s limit per answer). */
static int addr_dump(struct strbuf *b)
{
	_cleanup_(closep) int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	struct timeval tv = { .tv_sec = 2 };
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
	} req = {
		.nh = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg)),
			.nlmsg_type = RTM_GETADDR,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = 1 },
		.ifa = { .ifa_family = AF_UNSPEC },
	};
	int r;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	while ((r = addr_recv(fd, b)) == 0)
		;
	return r < 0 ? r : 0;
}

static int addrs_live(struct rdma_addrs *a)
{
	struct strbuf b = {};
	int r = addr_dump(&b);

	if (b.oom)
		return -ENOMEM;
	if (r < 0) {
		strbuf_done(&b);
		return asprintf(&a->why, "rtnetlink: %s", strerror(-r)) < 0 ? -ENOMEM : 0;
	}
	a->text = b.s ? b.s : strdup("");
	if (!a->text)
		return -ENOMEM;
	sysroot_note_data(SYSROOT_RUN, RDMA_ADDR_RECORD, a->text, strlen(a->text));
	return 0;
}

int rdma_addrs_read(const struct sysroot *root, struct rdma_addrs *ret)
{
	int r;

	*ret = (struct rdma_addrs){};
	if (sysroot_is_host(root))
		return addrs_live(ret);
	r = sysroot_read_file(root, SYSROOT_RUN, 1 << 20, &ret->text, NULL, "%s", RDMA_ADDR_RECORD);
	if (r == -ENOMEM)
		return r;
	if (r >= 0)
		return 0;
	return asprintf(&ret->why, "under --root, no /run/%s", RDMA_ADDR_RECORD) < 0 ? -ENOMEM : 0;
}

static bool usable(const char *family, const char *scope)
{
	if (streq(family, "inet"))
		return !streq(scope, "host");
	return streq(family, "inet6") && streq(scope, "global");
}

bool rdma_addrs_has(const struct rdma_addrs *a, const char *ifname)
{
	char name[64], family[16], scope[16];

	for (const char *l = a->text; l && *l; l = strchrnul(l, '\n'), l += !!*l)
		if (sscanf(l, "%63s %15s %15s", name, family, scope) == 3 && streq(name, ifname) &&
		    usable(family, scope))
			return true;
	return false;
}

void rdma_addrs_free(struct rdma_addrs *a)
{
	free(a->text);
	free(a->why);
	*a = (struct rdma_addrs){};
}
