// SPDX-License-Identifier: GPL-2.0-or-later
/* The endpoints and what sysfs says about them: names, NUMA node, CPU list. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/log.h"
#include "topo/links.h"
#include "topo/topo.h"

/*
 * The first entry of <dev>/<sub>/ whose name begins with prefix ("" any), in name order
 * (mlx5_0 before mlx5_1); -ENOENT if none.
 */
static int first_entry(const struct sysroot *root, int dfd, const char *sub, const char *prefix,
		       char name[static TOPO_NAME_MAX])
{
	_cleanup_(closedirp) DIR *dir = NULL;
	struct dirent *de;
	bool found = false;
	int r = sysroot_opendir_at(root, dfd, sub, &dir);

	if (r < 0)
		return r;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len >= TOPO_NAME_MAX ||
		    strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (!found || strcmp(de->d_name, name) < 0)
			memcpy(name, de->d_name, len + 1);
		found = true;
	}
	return found ? 0 : -ENOENT;
}

static void read_numa(const struct sysroot *root, int dfd, int *ret)
{
	char line[TOPO_ATTR_MAX + 1], *end;
	long v;

	*ret = -1;
	if (read_one_line_buf_at(root, dfd, "numa_node", line, sizeof(line)) < 0)
		return;
	errno = 0;
	v = strtol(line, &end, 10);
	if (!errno && end != line && !*end && v >= 0 && v < 65536)
		*ret = (int)v;
}

int topo_is_virtfn(int dfd)
{
	struct stat st;

	if (fstatat(dfd, "physfn", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/*
 * virtio-pci: the netdev hangs off the virtio device one level below the function
 * (<pci>/virtio0/net/ens3), not off the function itself. name is left alone if none.
 */
static int virtio_netdev(const struct sysroot *root, int dfd, char name[static TOPO_NAME_MAX])
{
	char virtio[TOPO_NAME_MAX], sub[TOPO_NAME_MAX + 8];
	int r = first_entry(root, dfd, ".", "virtio", virtio);

	if (r < 0)
		return r;
	snprintf(sub, sizeof(sub), "%s/net", virtio);
	return first_entry(root, dfd, sub, "", name);
}

/* Bounds the netdevs of one function (a multi-port function has a few). */
#define TOPO_NETDEVS_MAX 64
/* The resource file: 6 BARs, ROM, bridge windows; 17 lines of 57 bytes on a real host. */
#define TOPO_RESOURCE_MAX 4096
#define IORESOURCE_MEM	  0x00000200ULL

/* The speed file of net/<name>: Mb/s, or -1 when unknown (down: -1 or EINVAL). */
static int netdev_speed(const struct sysroot *root, int dfd, const char *name)
{
	char path[TOPO_NAME_MAX + 16], line[TOPO_ATTR_MAX + 1], *end;
	long v;

	snprintf(path, sizeof(path), "net/%s/speed", name);
	if (read_one_line_buf_at(root, dfd, path, line, sizeof(line)) < 0)
		return -1;
	errno = 0;
	v = strtol(line, &end, 10);
	return !errno && end != line && !*end && v > 0 && v <= INT32_MAX ? (int)v : -1;
}

/* The fastest netdev of the function: 0 none, -1 some of unknown speed. */
static int net_speed(const struct sysroot *root, int dfd)
{
	_cleanup_(closedirp) DIR *dir = NULL;
	struct dirent *de;
	int best = 0, n = 0, r = sysroot_opendir_at(root, dfd, "net", &dir);

	if (r == -ENOMEM)
		return -1; /* a net/ directory that cannot be listed: netdevs, speed unknown */
	if (r < 0)
		return 0;
	while ((de = readdir(dir)) && n < TOPO_NETDEVS_MAX) {
		int s;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= TOPO_NAME_MAX)
			continue;
		n++;
		s = netdev_speed(root, dfd, de->d_name);
		if (s > best || (s < 0 && best == 0))
			best = s;
	}
	return best;
}

/* The largest memory BAR from resource ("start end flags" per line, BARs 0-5). */
static uint64_t bar_max(const struct sysroot *root, int dfd)
{
	_cleanup_(freep) char *text = NULL;
	uint64_t best = 0;
	char *line, *save = NULL;
	size_t size;

	if (read_full_file_at(root, dfd, "resource", TOPO_RESOURCE_MAX, &text, &size) < 0)
		return 0;
	line = strtok_r(text, "\n", &save);
	for (int bar = 0; line && bar < 6; bar++, line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, flags;

		if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3)
			return 0; /* not the kernel's format: unknown */
		if ((flags & IORESOURCE_MEM) && end > start && end - start + 1 > best)
			best = end - start + 1;
	}
	return best;
}

static int link_attr(const struct sysroot *root, int dfd, const char *name,
		     int (*parse)(const char *))
{
	char line[TOPO_ATTR_MAX + 1];
	int r = read_one_line_buf_at(root, dfd, name, line, sizeof(line));

	if (r < 0)
		return 0;
	r = parse(line);
	return r < 0 ? 0 : r;
}

int topo_evidence_read(const struct sysroot *root, int dfd, bool bars, struct topo_evidence *ret)
{
	char name[TOPO_NAME_MAX];

	*ret = (struct topo_evidence){};
	ret->rdma = first_entry(root, dfd, "infiniband", "", name) >= 0;
	ret->net_speed = net_speed(root, dfd);
	if (ret->net_speed < 0) { /* the link is the evidence only then */
		ret->link_gen = link_attr(root, dfd, "max_link_speed", link_parse_speed);
		ret->link_width = link_attr(root, dfd, "max_link_width", link_parse_width);
	}
	if (bars)
		ret->bar_max = bar_max(root, dfd);
	return 0;
}

/* Relative to the device's directory (dfd): one walk of the root and the device link. */
static int endpoint_facts(const struct sysroot *root, int dfd, const struct pci_dev_info *d,
			  struct topo_endpoint *ep)
{
	char line[TOPO_ATTR_MAX + 1];
	int r;

	snprintf(ep->name, sizeof(ep->name), "%s", d->addr);
	if (ep->kind == TOPO_NIC)
		ep->rdma = first_entry(root, dfd, "infiniband", "", ep->name) >= 0;
	if (ep->kind == TOPO_NIC && !ep->rdma && first_entry(root, dfd, "net", "", ep->name) < 0)
		(void)virtio_netdev(root, dfd, ep->name);
	read_numa(root, dfd, &ep->numa_node);
	r = read_one_line_buf_at(root, dfd, "local_cpulist", line, sizeof(line));
	if (r >= 0 && !(ep->cpulist = strdup(line)))
		return -ENOMEM;
	return 0;
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

int topo_classify_at(const struct sysroot *root, const struct topo_config *cfg,
		     const struct pci_inventory *inv, size_t i)
{
	_cleanup_(closep) int dfd = -EBADF;
	struct topo_evidence ev;
	int r;

	if (!topo_needs_evidence(cfg, inv, i))
		return topo_classify(cfg, inv, i);
	dfd = sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "bus/pci/devices/%s",
			     inv->devs[i].addr);
	if (dfd == -ENOMEM)
		return dfd;
	if (dfd < 0) /* no directory: nothing seen, the identity decides */
		return topo_classify(cfg, inv, i);
	r = topo_evidence_read(root, dfd, topo_classify(cfg, inv, i) == TOPO_GPU, &ev);
	if (r < 0)
		return r;
	return topo_classify_evidence(cfg, inv, i, &ev);
}

/* One pass per kind keeps GPUs before NICs, each in address order (inv is sorted). */
static int collect(struct topology *t, const struct sysroot *root, const struct pci_inventory *inv,
		   const int *kinds, enum topo_kind kind)
{
	int r;

	for (size_t i = 0; i < inv->n; i++) {
		_cleanup_(closep) int dfd = -EBADF;

		if (kinds[i] != (int)kind)
			continue;
		dfd = sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "bus/pci/devices/%s",
				     inv->devs[i].addr);
		if (dfd == -ENOMEM)
			return dfd;
		if (dfd >= 0 && topo_is_virtfn(dfd) > 0)
			continue;
		r = endpoint_add(t, kind, i);
		if (r < 0)
			return r;
		/* No directory (a dangling entry): every fact stays unknown. */
		r = dfd >= 0 ? endpoint_facts(root, dfd, &inv->devs[i], &t->eps[t->n - 1]) : 0;
		if (r < 0)
			return r;
		t->n_rdma_nics += t->eps[t->n - 1].rdma;
	}
	return 0;
}

int topo_build(struct topology *t, const struct sysroot *root, const struct topo_config *cfg,
	       const struct pci_inventory *inv)
{
	_cleanup_(freep) int *kinds = calloc(inv->n ? inv->n : 1, sizeof(*kinds));
	int r = 0;

	*t = (struct topology){};
	if (!kinds)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n && r >= 0; i++) {
		kinds[i] = topo_classify_at(root, cfg, inv, i);
		r = kinds[i] == -ENOMEM ? -ENOMEM : 0;
	}
	if (r >= 0)
		r = collect(t, root, inv, kinds, TOPO_GPU);
	if (r >= 0)
		r = collect(t, root, inv, kinds, TOPO_NIC);
	if (r < 0)
		topo_done(t);
	return r;
}

void topo_done(struct topology *t)
{
	topo_paths_done(t);
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
