// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <limits.h>

#include "acs/isolation.h"
#include "core/fileio.h"
#include "core/strbuf.h"

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

/* The type of IOMMU group g, read once per group: types[g] 1 translated, 0 not, -1 unread. */
struct group_types {
	signed char *v;
	size_t n;
};

static bool group_translated(const struct sysroot *root, struct group_types *gt, int g)
{
	if ((size_t)g >= gt->n) {
		size_t n = (size_t)g + 64;
		signed char *v = realloc(gt->v, n);

		if (!v)
			return false; /* unknown is not translated: only a warning rides on it */
		memset(v + gt->n, -1, n - gt->n);
		gt->v = v;
		gt->n = n;
	}
	if (gt->v[g] < 0) {
		_cleanup_(freep) char *type = NULL;

		/* identity passes DMA through; only DMA and DMA-FQ translate it */
		gt->v[g] = sysroot_read_attr(root, SYSROOT_SYS, &type,
					     "kernel/iommu_groups/%d/type", g) >= 0 &&
			   (streq(type, "DMA") || streq(type, "DMA-FQ"));
	}
	return gt->v[g] > 0;
}

/*
 * vfio-pci, or one of its vendor variants (the kernel's drivers/vfio/pci/<vendor>/, named
 * by their modules: mlx5_vfio_pci, nvgrace_gpu_vfio_pci, hisi_acc_vfio_pci, pds_vfio_pci,
 * virtio_vfio_pci, qat_vfio_pci): each hands the function to a VM the same way.
 */
static bool vfio_driver(const char *name)
{
	size_t n = strlen(name), k = strlen("_vfio_pci");

	return streq(name, "vfio-pci") || (n > k && streq(name + n - k, "_vfio_pci"));
}

/* gt NULL: the group's type is not wanted (f->translated stays false). */
static void read_one(const struct sysroot *root, const struct pci_inventory *inv, size_t j,
		     struct group_types *gt, struct acs_fn_iommu *f)
{
	_cleanup_(pci_dir_release) struct pci_dir dir;
	int dfd = pci_dev_dir(root, inv, j, &dir);
	char buf[64];
	int r;

	*f = (struct acs_fn_iommu){ .group = -1 };
	if (dfd == -ENOENT)
		return; /* gone since the inventory was read */
	r = dfd < 0 ? dfd : pci_dev_driver(root, inv, j, buf, sizeof(buf));
	if (r >= 0)
		f->vfio = vfio_driver(buf);
	else if (r != -ENOENT) /* no "driver" link: no driver bound */
		f->driver_unknown = true;
	if (dfd < 0)
		return;
	if (sysroot_link_name_at(root, dfd, "iommu_group", buf, sizeof(buf)) >= 0)
		f->group = parse_group(buf);
	if (f->group >= 0 && gt)
		f->translated = group_translated(root, gt, f->group);
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

/*
 * targets[k]: the index in p->targets of the ACS_PORT_ACS bridge at inventory index k, -1
 * for any other function; *ret_endpoints: whether a selected endpoint (a multi-function
 * device with ACS) is among them, whose "below" is its device's other functions.
 */
static int *bridge_targets(const struct plan *p, const struct pci_inventory *inv,
			   bool *ret_endpoints)
{
	int *v = malloc((inv->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t k = 0; k < inv->n; k++)
		v[k] = -1;
	*ret_endpoints = false;
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, p->targets[i].addr);

		if (p->targets[i].state != ACS_PORT_ACS || !d)
			continue;
		if (is_bridge(d))
			v[d - inv->devs] = (int)i;
		else
			*ret_endpoints = true;
	}
	return v;
}

/* Is function j another function of the device of p->targets[i], a selected endpoint? */
static bool beside_endpoint(const struct plan *p, const struct pci_inventory *inv, size_t i,
			    size_t j)
{
	const struct acs_target *t = &p->targets[i];
	const struct pci_dev_info *d;

	if (t->state != ACS_PORT_ACS || streq(t->addr, inv->devs[j].addr) ||
	    !same_device(t->addr, inv->devs[j].addr))
		return false;
	d = pci_inventory_find(inv, t->addr);
	return d && !is_bridge(d);
}

/* What targets_of() walks. */
struct target_walk {
	const struct plan *p;
	const struct pci_inventory *inv;
	const int *targets;
	bool endpoints; /* a selected endpoint is among the targets */
	bool *found;	/* per target: a translated function below it was read */
};

static void walk_one(const struct target_walk *w, int i, bool mark, size_t *n, size_t *open)
{
	(*n)++;
	if (!w->found[i])
		(*open)++;
	if (mark)
		w->found[i] = true;
}

/*
 * The selected targets whose isolation function j is part of (the bridges above it, the
 * endpoints of its device): how many; *ret_open: how many of them have no translated
 * function found yet. mark: now they have one.
 */
static size_t targets_of(const struct target_walk *w, size_t j, bool mark, size_t *ret_open)
{
	size_t n = 0, open = 0;

	for (int k = w->inv->devs[j].parent; k >= 0; k = w->inv->devs[k].parent)
		if (w->targets[k] >= 0)
			walk_one(w, w->targets[k], mark, &n, &open);
	for (size_t i = 0; w->endpoints && i < w->p->n_targets; i++)
		if (beside_endpoint(w->p, w->inv, i, j))
			walk_one(w, (int)i, mark, &n, &open);
	*ret_open = open;
	return n;
}

/*
 * A group's type only sets its targets' "translated" (one warning counts them): once each
 * target above a function has a translated function, that function's type changes
 * nothing and is not read (one read per target on a host whose groups translate, 410
 * fewer at make bench's 512 functions); where none translates, every group is read.
 */
int acs_isolation_read(const struct sysroot *root, const struct pci_inventory *inv,
		       const struct plan *p, struct acs_fn_iommu **ret)
{
	_cleanup_(freep) struct acs_fn_iommu *v = calloc(inv->n + 1, sizeof(*v));
	_cleanup_(freep) bool *found = calloc(p->n_targets + 1, sizeof(*found));
	_cleanup_(freep) int *targets = NULL;
	struct target_walk w = { .p = p, .inv = inv, .found = found };
	struct group_types gt = {};

	if (!v || !found)
		return -ENOMEM;
	targets = bridge_targets(p, inv, &w.endpoints);
	if (!targets)
		return -ENOMEM;
	w.targets = targets;
	for (size_t j = 0; j < inv->n; j++) {
		size_t open;

		v[j] = (struct acs_fn_iommu){ .group = -1 };
		/* only what plan_isolation() looks at: a function below a selected port */
		if (!targets_of(&w, j, false, &open))
			continue;
		read_one(root, inv, j, open ? &gt : NULL, &v[j]);
		if (v[j].translated)
			targets_of(&w, j, true, &open);
	}
	free(gt.v);
	*ret = TAKE_PTR(v);
	return 0;
}

/* What one target learns from the functions below it, in their inventory order. */
struct isolation_acc {
	struct strbuf vfio, unread;
	int *groups;
	size_t n_groups, cap;
};

static void acc_done(struct isolation_acc *a)
{
	strbuf_done(&a->vfio);
	strbuf_done(&a->unread);
	free(a->groups);
}

static int acc_add(struct acs_target *t, struct isolation_acc *a, const char *addr,
		   const struct acs_fn_iommu *f)
{
	t->translated |= f->translated;
	if (f->group >= 0) {
		if (a->n_groups == a->cap) {
			size_t cap = a->cap ? a->cap * 2 : 8;
			int *v = reallocarray(a->groups, cap, sizeof(*v));

			if (!v)
				return -ENOMEM;
			a->groups = v;
			a->cap = cap;
		}
		a->groups[a->n_groups++] = f->group;
	}
	if (f->vfio)
		strbuf_printf(&a->vfio, "%s%s", a->vfio.s ? " " : "", addr);
	if (f->driver_unknown)
		strbuf_printf(&a->unread, "%s%s", a->unread.s ? " " : "", addr);
	return 0;
}

static int acc_finish(struct acs_target *t, struct isolation_acc *a)
{
	size_t n;

	if (a->vfio.oom || a->unread.oom)
		return -ENOMEM;
	t->vfio = TAKE_PTR(a->vfio.s);
	t->driver_unread = TAKE_PTR(a->unread.s);
	t->refused = t->relaxes && (t->vfio || t->driver_unread) && !t->allow_vfio;
	n = uniq_groups(a->groups, a->n_groups);
	if (t->relaxes && n >= 2) {
		t->merged = TAKE_PTR(a->groups);
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

/* Each function below a selected bridge, handed to every selected bridge above it. */
static int collect_bridges(struct plan *p, const struct pci_inventory *inv, const int *targets,
			   const struct acs_fn_iommu *fn, struct isolation_acc *acc)
{
	for (size_t j = 0; j < inv->n; j++)
		for (int k = inv->devs[j].parent; k >= 0; k = inv->devs[k].parent) {
			int i = targets[k], r;

			if (i < 0)
				continue;
			r = acc_add(&p->targets[i], &acc[i], inv->devs[j].addr, &fn[j]);
			if (r < 0)
				return r;
		}
	return 0;
}

/* A selected endpoint with ACS: the other functions of its device. */
static int collect_endpoint(struct plan *p, size_t i, const struct pci_inventory *inv, size_t e,
			    const struct acs_fn_iommu *fn, struct isolation_acc *acc)
{
	for (size_t j = 0; j < inv->n; j++) {
		int r;

		if (j == e || !same_device(inv->devs[e].addr, inv->devs[j].addr))
			continue;
		r = acc_add(&p->targets[i], &acc[i], inv->devs[j].addr, &fn[j]);
		if (r < 0)
			return r;
	}
	return 0;
}

static int collect(struct plan *p, const struct pci_inventory *inv, const struct acs_fn_iommu *fn,
		   struct isolation_acc *acc)
{
	_cleanup_(freep) int *targets = NULL;
	bool endpoints;
	int r;

	targets = bridge_targets(p, inv, &endpoints);
	if (!targets)
		return -ENOMEM;
	r = collect_bridges(p, inv, targets, fn, acc);
	for (size_t i = 0; i < p->n_targets && r >= 0 && endpoints; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, p->targets[i].addr);

		if (p->targets[i].state == ACS_PORT_ACS && d && !is_bridge(d))
			r = collect_endpoint(p, i, inv, (size_t)(d - inv->devs), fn, acc);
	}
	return r;
}

int plan_isolation(struct plan *p, const struct pci_inventory *inv, const struct acs_fn_iommu *fn)
{
	struct isolation_acc *acc;
	int r;

	if (!fn)
		return 0;
	acc = calloc(p->n_targets + 1, sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_targets; i++) {
		struct acs_target *t = &p->targets[i];

		if (t->state == ACS_PORT_ACS && pci_inventory_find(inv, t->addr))
			t->relaxes = (t->mask.clear & t->cap & ACS_ISOLATION_BITS) != 0;
	}
	r = collect(p, inv, fn, acc);
	for (size_t i = 0; i < p->n_targets && r >= 0; i++)
		if (p->targets[i].state == ACS_PORT_ACS &&
		    pci_inventory_find(inv, p->targets[i].addr))
			r = acc_finish(&p->targets[i], &acc[i]);
	for (size_t i = 0; i < p->n_targets; i++)
		acc_done(&acc[i]);
	free(acc);
	return r < 0 ? r : split_refused(p);
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
