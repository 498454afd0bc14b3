// SPDX-License-Identifier: GPL-2.0-or-later
/* PCIe link state per hop: parse, read, judge (see links.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/log.h"
#include "topo/links.h"
#include "topo/topo.h"
#include "core/string-table.h"

#define PCI_CLASS_BRIDGE_PCI 0x0604
#define PCI_EXP_TYPE_ROOT    4
#define PCI_EXP_TYPE_UPSTR   5
#define PCI_EXP_TYPE_DOWNSTR 6

/* The transfer rate of each generation as the kernel prints it, with and without ".0". */
static const char *const gen_rate[LINK_GEN_MAX + 1][2] = {
	[1] = { "2.5", "2.5" }, [2] = { "5.0", "5" },	[3] = { "8.0", "8" },
	[4] = { "16.0", "16" }, [5] = { "32.0", "32" }, [6] = { "64.0", "64" },
};

static const char *const link_gen_table[LINK_GEN_MAX + 1] = {
	"unknown speed", "2.5 GT/s", "5.0 GT/s", "8.0 GT/s", "16.0 GT/s", "32.0 GT/s", "64.0 GT/s",
};

int link_parse_speed(const char *s)
{
	size_t n = strcspn(s, " ");
	const char *unit = s + n;

	if (streq(s, "Unknown"))
		return 0;
	/* "<rate> GT/s" optionally followed by " PCIe" (kernels since 5.x) */
	if (!strneq(unit, " GT/s", 5) || (unit[5] != '\0' && !streq(unit + 5, " PCIe")))
		return -EINVAL;
	for (int g = 1; g <= LINK_GEN_MAX; g++)
		for (int k = 0; k < 2; k++)
			if (strlen(gen_rate[g][k]) == n && strneq(s, gen_rate[g][k], n))
				return g;
	return -EINVAL;
}

int link_parse_width(const char *s)
{
	char *end;
	long v;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > 32)
		return -EINVAL;
	return (int)v;
}

/* An out-of-range generation is as unknown as generation 0. */
DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(link_gen, int, link_gen_table[0]);

/*
 * One attribute below the device's directory (dfd, or the error that opening it gave):
 * 1 read, 0 absent, <0 unreadable. *ret 0 for absent/unknown values.
 */
static int read_attr(const struct sysroot *root, int dfd, const char *addr, const char *attr,
		     int (*parse)(const char *), int *ret)
{
	char line[TOPO_ATTR_MAX + 1];
	int r;

	*ret = 0;
	r = dfd < 0 ? dfd : read_one_line_buf_at(root, dfd, attr, line, sizeof(line));
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0) {
		log_debug_errno(r, "Failed to read %s/%s: %m", addr, attr);
		return r == -ENOMEM ? r : 1; /* present (a PCIe function) but unreadable */
	}
	r = parse(line);
	if (r < 0)
		log_debug("%s/%s: unexpected value '%s', ignoring", addr, attr, line);
	*ret = r < 0 ? 0 : r;
	return 1;
}

int link_read_at(const struct sysroot *root, int dfd, const char *addr, struct link_attrs *ret)
{
	struct {
		const char *name;
		int (*parse)(const char *);
		int *field;
	} attrs[] = {
		{ "current_link_speed", link_parse_speed, &ret->cur_gen },
		{ "current_link_width", link_parse_width, &ret->cur_width },
		{ "max_link_speed", link_parse_speed, &ret->max_gen },
		{ "max_link_width", link_parse_width, &ret->max_width },
	};

	*ret = (struct link_attrs){};
	if (dfd == -ENOMEM)
		return dfd;
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
		int r = read_attr(root, dfd, addr, attrs[i].name, attrs[i].parse, attrs[i].field);

		if (r < 0)
			return r;
		if (r > 0)
			ret->present = true;
	}
	return 0;
}

int link_read(const struct sysroot *root, const struct pci_inventory *inv, size_t i,
	      struct link_attrs *ret)
{
	/* The device's directory, the run's: each attribute is then one short lookup. */
	_cleanup_(pci_dir_release) struct pci_dir dir;
	int dfd = pci_dev_dir(root, inv, i, &dir);

	return link_read_at(root, dfd, inv->devs[i].addr, ret);
}

/* The smaller of two capabilities, ignoring an end that did not say (0). */
static int min_known(int a, int b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	return a < b ? a : b;
}

void link_hop_judge(struct link_hop *h)
{
	const struct link_attrs *p = &h->port_link, *d = &h->dev_link;

	/*
	 * Both ends report the one link; take the lower where they disagree (a reading taken
	 * mid-retrain) and either one alone (the port stays readable when the device sleeps).
	 */
	h->cur_gen = min_known(p->cur_gen, d->cur_gen);
	h->cur_width = min_known(p->cur_width, d->cur_width);
	h->cap_gen = min_known(p->max_gen, d->max_gen);
	h->cap_width = min_known(p->max_width, d->max_width);
	if (!h->cur_gen || !h->cur_width || !h->cap_gen || !h->cap_width)
		h->state = HOP_UNKNOWN;
	else if (h->cur_width < h->cap_width)
		h->state = HOP_DEGRADED;
	else if (h->cur_gen < h->cap_gen)
		h->state = HOP_SLOW;
	else
		h->state = HOP_OK;
}

static const char *width_str(int w, char *buf, size_t n)
{
	if (w)
		snprintf(buf, n, "x%d", w);
	else
		snprintf(buf, n, "x?");
	return buf;
}

const char *link_hop_describe(const struct link_hop *h, char *buf, size_t n)
{
	char cw[8], mw[8], pw[8], dw[8];

	snprintf(buf, n, "%s %s, link can do %s %s (port %s: %s %s, device: %s %s)",
		 link_gen_to_string(h->cur_gen), width_str(h->cur_width, cw, sizeof(cw)),
		 link_gen_to_string(h->cap_gen), width_str(h->cap_width, mw, sizeof(mw)), h->port,
		 link_gen_to_string(h->port_link.max_gen),
		 width_str(h->port_link.max_width, pw, sizeof(pw)),
		 link_gen_to_string(h->dev_link.max_gen),
		 width_str(h->dev_link.max_width, dw, sizeof(dw)));
	return buf;
}

static bool is_bridge(const struct pci_dev_info *d)
{
	return d->id.class_code >> 8 == PCI_CLASS_BRIDGE_PCI;
}

bool link_port_faces_down(const struct pci_inventory *inv, size_t i)
{
	const struct pci_dev_info *d = &inv->devs[i];

	if (!is_bridge(d))
		return false;
	if (d->pcie_type >= 0)
		return d->pcie_type == PCI_EXP_TYPE_ROOT || d->pcie_type == PCI_EXP_TYPE_DOWNSTR;
	if (d->parent < 0)
		return true; /* a bridge on a root bus is a root port */
	return !link_port_faces_down(inv, d->parent);
}

/*
 * One link per downstream-facing port: the functions of a multi-function card share it.
 * A listed port is looked up in the inventory (one flag per function: thousands of
 * endpoints made a scan of every hop per endpoint quadratic); an unlisted one, read
 * through the device tree, is rare and searched.
 */
static bool hop_known(const struct link_collect *c, const char *port)
{
	const struct pci_dev_info *d = pci_inventory_find(c->inv, port);

	if (d)
		return c->port_done[d - c->inv->devs];
	for (size_t i = 0; i < c->n; i++)
		if (streq(c->hops[i].port, port))
			return true;
	return false;
}

static int hop_push(struct link_collect *c, const struct link_hop *h)
{
	const struct pci_dev_info *d = pci_inventory_find(c->inv, h->port);

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct link_hop *grown = reallocarray(c->hops, cap, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->hops = grown;
		c->cap = cap;
	}
	c->hops[c->n++] = *h;
	if (d)
		c->port_done[d - c->inv->devs] = true;
	return 0;
}

static bool pcie_function(const struct pci_dev_info *d)
{
	return d->caps_loaded && d->pcie_type >= 0;
}

/* The hop from inventory function port down to function dev. */
static int hop_add(struct link_collect *c, size_t port, size_t dev)
{
	const struct sysroot *root = c->root;
	struct link_hop h = {};
	int r;

	snprintf(h.port, sizeof(h.port), "%s", c->inv->devs[port].addr);
	snprintf(h.dev, sizeof(h.dev), "%s", c->inv->devs[dev].addr);
	r = link_read(root, c->inv, port, &h.port_link);
	if (r >= 0)
		r = link_read(root, c->inv, dev, &h.dev_link);
	if (r < 0)
		return r;
	/*
	 * Neither end has link attributes: conventional PCI, no link to judge; but below it a
	 * function whose PCI Express capability was read has a link, unread: unknown.
	 */
	if (!h.port_link.present && !h.dev_link.present && !pcie_function(&c->inv->devs[dev]))
		return 0;
	link_hop_judge(&h);
	return hop_push(c, &h);
}

static int collect_inventory(struct link_collect *c, size_t ep)
{
	const struct pci_inventory *inv = c->inv;

	for (int i = (int)ep; inv->devs[i].parent >= 0; i = inv->devs[i].parent) {
		int up = inv->devs[i].parent;
		int r;

		if (!link_port_faces_down(inv, up))
			continue; /* inside a switch: upstream to downstream port is no link */
		if (hop_known(c, inv->devs[up].addr))
			break; /* everything above is collected already */
		r = hop_add(c, (size_t)up, (size_t)i);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The device tree's path: "pci0000:5d/0000:5d:02.0/.../<addr>" split at '/', from the
 * last root bus on (a VMD domain's "pci10000:00" sits below the VMD function).
 */
#define LINK_PATH_MAX 32

struct tree_path {
	char buf[PATH_MAX];
	char *comp[LINK_PATH_MAX]; /* comp[0] the root bus ("pci0000:5d"), then addresses */
	size_t n;
};

/* bus/pci/devices, opened once per collection. */
static int devices_dfd(struct link_collect *c)
{
	if (c->devices_dfd == -EBADF)
		c->devices_dfd = sysroot_openat(c->root, SYSROOT_SYS, O_PATH | O_DIRECTORY,
						"bus/pci/devices");
	return c->devices_dfd;
}

/* From the bus/pci/devices link of addr; -ENOENT without one (not a link, no devices/). */
static int tree_path_read(struct link_collect *c, const char *addr, struct tree_path *p)
{
	int dfd = devices_dfd(c);
	char link[PATH_MAX], *at, *save = NULL;

	if (dfd < 0)
		return dfd == -ENOMEM ? dfd : -ENOENT;
	if (sysroot_readlink_at(c->root, dfd, addr, link, sizeof(link)) < 0)
		return -ENOENT;
	at = strstr(link, "devices/pci");
	if (!at)
		return -ENOENT;
	snprintf(p->buf, sizeof(p->buf), "%s", at + strlen("devices/"));
	p->n = 0;
	for (char *s = strtok_r(p->buf, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (p->n == LINK_PATH_MAX || streq(s, "..") || streq(s, "."))
			return -ENOENT;
		if (strneq(s, "pci", 3))
			p->n = 0; /* a root bus, also a VMD domain's: the path starts again */
		p->comp[p->n++] = s;
	}
	return p->n >= 2 && streq(p->comp[p->n - 1], addr) ? 0 : -ENOENT;
}

static int inv_find(const struct pci_inventory *inv, const char *addr)
{
	const struct pci_dev_info *d = pci_inventory_find(inv, addr);

	return d ? (int)(d - inv->devs) : -1;
}

/*
 * Whether each component faces down: from the inventory where the function is listed,
 * else from its place (a bridge on a root bus is a root port; below, up and down alternate).
 */
static void tree_roles(const struct pci_inventory *inv, const struct tree_path *p, bool *down)
{
	for (size_t k = 1; k < p->n; k++) {
		int i = inv_find(inv, p->comp[k]);

		down[k] = i >= 0 ? link_port_faces_down(inv, (size_t)i) : k == 1 || !down[k - 1];
	}
}

/* One end of a hop, through sys/devices/<comp[0..k]>. */
static int tree_read(const struct sysroot *root, const struct tree_path *p, size_t k,
		     struct link_attrs *ret)
{
	char path[PATH_MAX];
	size_t off = 0;

	for (size_t j = 0; j <= k && off < sizeof(path); j++)
		off += snprintf(path + off, sizeof(path) - off, "%s%s", j ? "/" : "", p->comp[j]);
	if (off >= sizeof(path))
		return -ENAMETOOLONG;
	_cleanup_(closep) int dfd =
		sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "devices/%s", path);
	return link_read_at(root, dfd, p->comp[k], ret);
}

/*
 * One end of a hop, comp[k]: a listed function (inventory index i) from the run's
 * directory of it, which its other readers share (link_read()); one missing from the
 * inventory through the tree.
 */
static int hop_end_read(const struct link_collect *c, const struct tree_path *p, size_t k, int i,
			struct link_attrs *ret)
{
	if (i >= 0)
		return link_read(c->root, c->inv, (size_t)i, ret);
	return tree_read(c->root, p, k, ret);
}

/* The hop below comp[k]: a function missing from the inventory is read through the tree. */
static int tree_hop(struct link_collect *c, const struct tree_path *p, size_t k)
{
	int port = inv_find(c->inv, p->comp[k]), dev = inv_find(c->inv, p->comp[k + 1]);
	struct link_hop h = {};
	int r;

	snprintf(h.port, sizeof(h.port), "%s", p->comp[k]);
	snprintf(h.dev, sizeof(h.dev), "%s", p->comp[k + 1]);
	h.port_unlisted = port < 0;
	h.dev_unlisted = dev < 0;
	r = hop_end_read(c, p, k, port, &h.port_link);
	if (r >= 0)
		r = hop_end_read(c, p, k + 1, dev, &h.dev_link);
	if (r == -ENOMEM)
		return r;
	if (r < 0 && !h.port_unlisted && !h.dev_unlisted && !pcie_function(&c->inv->devs[dev]))
		return 0; /* conventional PCI (as hop_add() says) */
	if (!h.port_link.present && !h.dev_link.present && !h.port_unlisted && !h.dev_unlisted &&
	    !pcie_function(&c->inv->devs[dev]))
		return 0;
	link_hop_judge(&h);
	/* An unlisted end that told nothing: its side of the link is unknown, not assumed. */
	if ((h.port_unlisted && !h.port_link.present) || (h.dev_unlisted && !h.dev_link.present))
		h.state = HOP_UNKNOWN;
	return hop_push(c, &h);
}

static int collect_tree(struct link_collect *c, const struct tree_path *p)
{
	bool down[LINK_PATH_MAX] = {};

	tree_roles(c->inv, p, down);
	for (size_t k = p->n - 1; k >= 2; k--) {
		int r;

		if (!down[k - 1])
			continue; /* inside a switch: upstream to downstream port is no link */
		if (hop_known(c, p->comp[k - 1]))
			break;
		r = tree_hop(c, p, k - 1);
		if (r < 0)
			return r;
	}
	return 0;
}

int link_collect_init(struct link_collect *c, const struct sysroot *root,
		      const struct pci_inventory *inv)
{
	*c = (struct link_collect){ .root = root, .inv = inv, .devices_dfd = -EBADF };
	c->port_done = calloc(inv->n + 1, sizeof(*c->port_done));
	return c->port_done ? 0 : -ENOMEM;
}

void link_collect_done(struct link_collect *c)
{
	if (c->root && c->devices_dfd >= 0) /* {} (never initialised) holds no fd */
		close(c->devices_dfd);
	free(c->port_done);
	free(c->hops);
	*c = (struct link_collect){ .devices_dfd = -EBADF };
}

int link_collect_add(struct link_collect *c, size_t ep)
{
	_cleanup_(freep) struct tree_path *p = malloc(sizeof(*p));
	int r;

	if (!p)
		return -ENOMEM;
	r = tree_path_read(c, c->inv->devs[ep].addr, p);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return collect_inventory(c, ep);
	return collect_tree(c, p);
}

int link_hops_collect(const struct sysroot *root, const struct pci_inventory *inv, size_t ep,
		      struct link_hop **hops, size_t *n)
{
	struct link_collect c;
	int r = link_collect_init(&c, root, inv);

	if (r < 0)
		return r;
	c.hops = *hops;
	c.n = c.cap = *n;
	for (size_t i = 0; i < c.n; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, c.hops[i].port);

		if (d)
			c.port_done[d - inv->devs] = true;
	}
	r = link_collect_add(&c, ep);
	*hops = TAKE_PTR(c.hops);
	*n = c.n;
	link_collect_done(&c);
	return r;
}

static int cmp_hop(const void *a, const void *b)
{
	return strcmp(((const struct link_hop *)a)->dev, ((const struct link_hop *)b)->dev);
}

void link_hops_sort(struct link_hop *hops, size_t n)
{
	if (n > 1)
		qsort(hops, n, sizeof(*hops), cmp_hop);
}
