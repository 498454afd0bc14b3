// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <limits.h>

#include "acs/isolation.h"
#include "core/fileio.h"
#include "core/strbuf.h"

/* The last component of the link name below dfd, -errno when it cannot be read. */
static int link_name(const struct sysroot *root, int dfd, const char *name, char *buf, size_t size)
{
	char link[PATH_MAX];
	const char *slash;
	int n = sysroot_readlink_at(root, dfd, name, link, sizeof(link));

	if (n < 0)
		return n;
	slash = strrchr(link, '/');
	slash = slash ? slash + 1 : link;
	if (strlen(slash) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, slash, strlen(slash) + 1);
	return 0;
}

static int parse_group(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

static void read_one(const struct sysroot *root, const char *addr, struct acs_fn_iommu *f)
{
	_cleanup_(closep) int dfd =
		sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "bus/pci/devices/%s", addr);
	char buf[64];

	int r;

	*f = (struct acs_fn_iommu){ .group = -1 };
	if (dfd == -ENOENT)
		return; /* gone since the inventory was read */
	r = dfd < 0 ? dfd : link_name(root, dfd, "driver", buf, sizeof(buf));
	if (r >= 0)
		f->vfio = streq(buf, "vfio-pci");
	else if (r != -ENOENT) /* no "driver" link: no driver bound */
		f->driver_unknown = true;
	if (dfd < 0)
		return;
	if (link_name(root, dfd, "iommu_group", buf, sizeof(buf)) >= 0)
		f->group = parse_group(buf);
	/* identity passes DMA through; only DMA and DMA-FQ translate it */
	if (f->group >= 0 &&
	    read_one_line_buf_at(root, dfd, "iommu_group/type", buf, sizeof(buf)) >= 0)
		f->translated = streq(buf, "DMA") || streq(buf, "DMA-FQ");
}

int acs_isolation_read(const struct sysroot *root, const struct pci_inventory *inv,
		       struct acs_fn_iommu **ret)
{
	struct acs_fn_iommu *v = calloc(inv->n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n; i++)
		read_one(root, inv->devs[i].addr, &v[i]);
	*ret = v;
	return 0;
}

static bool is_bridge(const struct pci_dev_info *d)
{
	return d->id.class_code >> 8 == 0x0604 || d->id.class_code >> 8 == 0x0609;
}

/* "dddd:bb:dd" of "dddd:bb:dd.f": the functions of one device share it. */
static bool same_device(const char *a, const char *b)
{
	const char *dot = strrchr(a, '.');

	return dot && strneq(a, b, (size_t)(dot - a) + 1);
}

/*
 * Is j below the port p? Below a bridge: anything under it. An endpoint with ACS (a
 * multi-function device) isolates its functions from each other: those are its "below".
 */
static bool below(const struct pci_inventory *inv, size_t p, size_t j)
{
	if (!is_bridge(&inv->devs[p]))
		return j != p && same_device(inv->devs[p].addr, inv->devs[j].addr);
	for (int k = inv->devs[j].parent; k >= 0; k = inv->devs[k].parent)
		if ((size_t)k == p)
			return true;
	return false;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct groups in v[0..n), sorted: their number. */
static size_t uniq_groups(int *v, size_t n)
{
	size_t k = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_int);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static int target_isolation(struct acs_target *t, const struct pci_inventory *inv, size_t p,
			    const struct acs_fn_iommu *fn)
{
	_cleanup_(strbuf_done) struct strbuf vfio = {}, unread = {};
	_cleanup_(freep) int *groups = calloc(inv->n + 1, sizeof(*groups));
	size_t n = 0;

	if (!groups)
		return -ENOMEM;
	t->relaxes = (t->mask.clear & t->cap & ACS_ISOLATION_BITS) != 0;
	for (size_t j = 0; j < inv->n; j++) {
		if (!below(inv, p, j))
			continue;
		t->translated |= fn[j].translated;
		if (fn[j].group >= 0)
			groups[n++] = fn[j].group;
		if (fn[j].vfio)
			strbuf_printf(&vfio, "%s%s", vfio.s ? " " : "", inv->devs[j].addr);
		if (fn[j].driver_unknown)
			strbuf_printf(&unread, "%s%s", unread.s ? " " : "", inv->devs[j].addr);
	}
	if (vfio.oom || unread.oom)
		return -ENOMEM;
	t->vfio = TAKE_PTR(vfio.s);
	t->driver_unread = TAKE_PTR(unread.s);
	t->refused = t->relaxes && (t->vfio || t->driver_unread) && !t->allow_vfio;
	n = uniq_groups(groups, n);
	if (t->relaxes && n >= 2) {
		t->merged = TAKE_PTR(groups);
		t->n_merged = n;
	}
	return 0;
}

/* Move the refused targets' writes out of actions, keeping both in target order. */
static int split_refused(struct plan *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n_actions; i++) {
		struct acs_action *v;

		if (!p->actions[i].target->refused) {
			p->actions[k++] = p->actions[i];
			continue;
		}
		v = reallocarray(p->refused, p->n_refused + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->refused = v;
		p->refused[p->n_refused++] = p->actions[i];
	}
	p->n_actions = k;
	return 0;
}

int plan_isolation(struct plan *p, const struct pci_inventory *inv, const struct acs_fn_iommu *fn)
{
	if (!fn)
		return 0;
	for (size_t i = 0; i < p->n_targets; i++) {
		struct acs_target *t = &p->targets[i];
		const struct pci_dev_info *d = pci_inventory_find(inv, t->addr);
		int r;

		if (t->state != ACS_PORT_ACS || !d)
			continue;
		r = target_isolation(t, inv, (size_t)(d - inv->devs), fn);
		if (r < 0)
			return r;
	}
	return split_refused(p);
}

void acs_vfio_format(const struct acs_target *t, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s%s%s", t->vfio ? "vfio-pci below (" : "",
		 t->vfio ? t->vfio : "", t->vfio ? ")" : "",
		 t->vfio && t->driver_unread ? "; " : "",
		 t->driver_unread ? "driver unreadable below (" : "",
		 t->driver_unread ? t->driver_unread : "",
		 t->driver_unread ? "), counted as vfio-pci" : "");
}

void acs_merged_format(const struct acs_target *t, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_merged && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%d", i ? ", " : "", t->merged[i]);
}
