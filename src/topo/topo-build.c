// SPDX-License-Identifier: GPL-2.0-or-later
/* The endpoints and what sysfs says about them: names, NUMA node, CPU list. */
#include <sys/stat.h>

#include "fileio.h"
#include "log.h"
#include "topo/topo.h"

/* The first entry of <dev>/<sub>/ in name order (mlx5_0 before mlx5_1); -ENOENT if none. */
static int first_entry(const struct sysroot *root, const char *addr, const char *sub,
		       char name[static TOPO_NAME_MAX])
{
	_cleanup_(freep) char *path =
		sysroot_path(root, SYSROOT_SYS, "bus/pci/devices/%s/%s", addr, sub);
	_cleanup_(closedirp) DIR *dir = NULL;
	struct dirent *de;
	bool found = false;

	if (!path)
		return -ENOMEM;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len >= TOPO_NAME_MAX)
			continue;
		if (!found || strcmp(de->d_name, name) < 0)
			memcpy(name, de->d_name, len + 1);
		found = true;
	}
	return found ? 0 : -ENOENT;
}

static int read_attr(const struct sysroot *root, const char *addr, const char *attr, char **ret)
{
	_cleanup_(freep) char *path =
		sysroot_path(root, SYSROOT_SYS, "bus/pci/devices/%s/%s", addr, attr);

	if (!path)
		return -ENOMEM;
	return read_one_line(path, ret);
}

static int read_numa(const struct sysroot *root, const char *addr, int *ret)
{
	_cleanup_(freep) char *line = NULL;
	char *end;
	long v;
	int r;

	*ret = -1;
	r = read_attr(root, addr, "numa_node", &line);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	errno = 0;
	v = strtol(line, &end, 10);
	if (!errno && end != line && !*end && v >= 0 && v < 65536)
		*ret = (int)v;
	return 0;
}

static int is_virtfn(const struct sysroot *root, const char *addr)
{
	_cleanup_(freep) char *path =
		sysroot_path(root, SYSROOT_SYS, "bus/pci/devices/%s/physfn", addr);
	struct stat st;

	if (!path)
		return -ENOMEM;
	return lstat(path, &st) == 0;
}

static int endpoint_facts(const struct sysroot *root, const struct pci_dev_info *d,
			  struct topo_endpoint *ep)
{
	int r;

	snprintf(ep->name, sizeof(ep->name), "%s", d->addr);
	if (ep->kind == TOPO_NIC) {
		r = first_entry(root, d->addr, "infiniband", ep->name);
		if (r < 0 && r != -ENOMEM)
			r = first_entry(root, d->addr, "net", ep->name);
		if (r == -ENOMEM)
			return r;
	}
	r = read_numa(root, d->addr, &ep->numa_node);
	if (r < 0)
		return r;
	r = read_attr(root, d->addr, "local_cpulist", &ep->cpulist);
	return r == -ENOMEM ? r : 0;
}

static int endpoint_add(struct topology *t, enum topo_kind kind, size_t dev)
{
	struct topo_endpoint *grown = reallocarray(t->eps, t->n + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	t->eps = grown;
	t->eps[t->n++] = (struct topo_endpoint){
		.kind = kind,
		.dev = dev,
		.index = (unsigned)t->n_kind[kind]++,
		.numa_node = -1,
	};
	return 0;
}

/* One pass per kind keeps GPUs before NICs, each in address order (inv is sorted). */
static int collect(struct topology *t, const struct sysroot *root, const struct topo_config *cfg,
		   const struct pci_inventory *inv, enum topo_kind kind)
{
	int r;

	for (size_t i = 0; i < inv->n; i++) {
		if (topo_classify(cfg, inv, i) != (int)kind)
			continue;
		r = is_virtfn(root, inv->devs[i].addr);
		if (r < 0)
			return r;
		if (r > 0)
			continue;
		r = endpoint_add(t, kind, i);
		if (r < 0)
			return r;
		r = endpoint_facts(root, &inv->devs[i], &t->eps[t->n - 1]);
		if (r < 0)
			return r;
	}
	return 0;
}

int topo_build(struct topology *t, const struct sysroot *root, const struct topo_config *cfg,
	       const struct pci_inventory *inv)
{
	int r;

	*t = (struct topology){};
	r = collect(t, root, cfg, inv, TOPO_GPU);
	if (r >= 0)
		r = collect(t, root, cfg, inv, TOPO_NIC);
	if (r < 0)
		topo_done(t);
	return r;
}

void topo_done(struct topology *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->eps[i].cpulist);
	free(t->eps);
	*t = (struct topology){};
}

int topo_load_path_caps(struct pci_backend *b, struct pci_inventory *inv, size_t i)
{
	int r = 0, p = (int)i;

	for (size_t depth = 0; p >= 0 && depth < 64; depth++) {
		int k = pcib_load_caps(b, inv, (size_t)p);

		if (k < 0 && r == 0)
			r = k;
		p = inv->devs[p].parent;
	}
	return r;
}

int topo_load_caps(struct pci_backend *b, struct pci_inventory *inv, const struct topology *t)
{
	int r = 0;

	for (size_t i = 0; i < t->n; i++) {
		int k = topo_load_path_caps(b, inv, t->eps[i].dev);

		if (k < 0 && r == 0)
			r = k;
	}
	return r;
}
