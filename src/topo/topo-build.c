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

/* numa_node: *ret the node, -1 unknown; true when the kernel said which (-1: none). */
static bool read_numa(const struct sysroot *root, int dfd, int *ret)
{
	char line[TOPO_ATTR_MAX + 1], *end;
	long v;

	*ret = -1;
	if (read_one_line_buf_at(root, dfd, "numa_node", line, sizeof(line)) < 0)
		return false;
	errno = 0;
	v = strtol(line, &end, 10);
	if (errno || end == line || *end || v < -1 || v >= 65536)
		return false;
	*ret = (int)v;
	return true;
}

int topo_is_virtfn(int dfd)
{
	struct stat st;

	if (fstatat(dfd, "physfn", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/* Every virtio PCI device has the vendor ID the virtio spec gives it (4.1.2). */
#define PCI_VENDOR_VIRTIO 0x1af4

/*
 * virtio-pci: the netdev hangs off the virtio device one level below the function
 * (<pci>/virtio0/net/ens3), not off the function itself. name is left alone if none. Only
 * a virtio function's directory is listed for it: any other NIC without a netdev would
 * cost a listing of its 30-odd attributes for nothing.
 */
static int virtio_netdev(const struct sysroot *root, int dfd, const struct pci_dev_info *d,
			 char name[static TOPO_NAME_MAX])
{
	char virtio[TOPO_NAME_MAX], sub[TOPO_NAME_MAX + 8];
	int r = d->id.vendor == PCI_VENDOR_VIRTIO ? first_entry(root, dfd, ".", "virtio", virtio)
						  : -ENOENT;

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

/*
 * The fastest netdev of the function: 0 none, -1 some of unknown speed; first: the first
 * netdev by name, as first_entry() finds it ("" none).
 */
static int net_speed(const struct sysroot *root, int dfd, char first[static TOPO_NAME_MAX])
{
	_cleanup_(closedirp) DIR *dir = NULL;
	struct dirent *de;
	int best = 0, n = 0, r = sysroot_opendir_at(root, dfd, "net", &dir);

	first[0] = '\0';
	if (r == -ENOMEM)
		return -1; /* a net/ directory that cannot be listed: netdevs, speed unknown */
	if (r < 0)
		return 0;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		int s;

		if (de->d_name[0] == '.' || len >= TOPO_NAME_MAX)
			continue;
		if (!first[0] || strcmp(de->d_name, first) < 0)
			memcpy(first, de->d_name, len + 1);
		if (n >= TOPO_NETDEVS_MAX)
			continue; /* the name still counts, the speed not */
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
	*ret = (struct topo_evidence){};
	ret->rdma = first_entry(root, dfd, "infiniband", "", ret->rdma_dev) >= 0;
	ret->net_speed = net_speed(root, dfd, ret->netdev);
	if (ret->net_speed < 0) { /* the link is the evidence only then */
		ret->link_gen = link_attr(root, dfd, "max_link_speed", link_parse_speed);
		ret->link_width = link_attr(root, dfd, "max_link_width", link_parse_width);
	}
	if (bars)
		ret->bar_max = bar_max(root, dfd);
	return 0;
}

/*
 * local_cpulist is the node's CPU mask, not the device's: pci-sysfs prints
 * cpumask_of_node(dev_to_node(dev)), or the online CPUs when the node is NUMA_NO_NODE
 * (numa_node exists only in CONFIG_NUMA kernels, where that holds). So one read per
 * node a run sees: on a 512-function host with two nodes, 2 reads instead of 198. A
 * node whose read failed is read again at its next endpoint; past CPULIST_NODES_MAX
 * distinct nodes each endpoint reads its own.
 */
#define CPULIST_NODES_MAX 64
struct cpulists {
	size_t n;
	struct {
		int node;
		char *text;
	} e[CPULIST_NODES_MAX];
};

static void cpulists_done(struct cpulists *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].text);
	c->n = 0;
}

static int endpoint_cpulist(const struct sysroot *root, int dfd, bool numa_known,
			    struct cpulists *c, struct topo_endpoint *ep)
{
	char line[TOPO_ATTR_MAX + 1];
	size_t i = 0;

	while (numa_known && i < c->n && c->e[i].node != ep->numa_node)
		i++;
	if (numa_known && i < c->n)
		return (ep->cpulist = strdup(c->e[i].text)) ? 0 : -ENOMEM;
	if (read_one_line_buf_at(root, dfd, "local_cpulist", line, sizeof(line)) < 0)
		return 0;
	ep->cpulist = strdup(line);
	if (!ep->cpulist)
		return -ENOMEM;
	if (numa_known && c->n < CPULIST_NODES_MAX) {
		c->e[c->n].text = strdup(line);
		if (!c->e[c->n].text)
			return -ENOMEM;
		c->e[c->n++].node = ep->numa_node;
	}
	return 0;
}

/*
 * Relative to the device's directory (dfd): one walk of the root and the device link. ev:
 * the evidence classification read from the same directory (NULL: none), whose RDMA
 * device is this NIC's name (infiniband/ listed once).
 */
static int endpoint_facts(const struct sysroot *root, int dfd, const struct pci_dev_info *d,
			  const struct topo_evidence *ev, struct cpulists *c,
			  struct topo_endpoint *ep)
{
	bool numa_known;

	snprintf(ep->name, sizeof(ep->name), "%s", d->addr);
	if (ep->kind == TOPO_NIC && ev) { /* infiniband/ and net/ listed once, for both */
		ep->rdma = ev->rdma;
		if (ev->rdma || ev->netdev[0])
			snprintf(ep->name, sizeof(ep->name), "%s",
				 ev->rdma ? ev->rdma_dev : ev->netdev);
		else
			(void)virtio_netdev(root, dfd, d, ep->name);
	} else if (ep->kind == TOPO_NIC) {
		ep->rdma = first_entry(root, dfd, "infiniband", "", ep->name) >= 0;
		if (!ep->rdma && first_entry(root, dfd, "net", "", ep->name) < 0)
			(void)virtio_netdev(root, dfd, d, ep->name);
	}
	numa_known = read_numa(root, dfd, &ep->numa_node);
	return endpoint_cpulist(root, dfd, numa_known, c, ep);
}

/*
 * topo_classify_at() with the directory it opened left in *dir (fd -errno: none), and the
 * evidence it read in *ev (*have_ev): the endpoint's facts come from the same directory.
 */
static int classify_open(const struct sysroot *root, const struct topo_config *cfg,
			 const struct pci_inventory *inv, size_t i, struct pci_dir *dir,
			 struct topo_evidence *ev, bool *have_ev)
{
	int kind = topo_classify(cfg, inv, i), r;

	*have_ev = false;
	if (!topo_needs_evidence(cfg, inv, i))
		return kind;
	r = pci_dev_dir(root, inv, i, dir);
	if (r == -ENOMEM)
		return -ENOMEM;
	if (r < 0) /* no directory: nothing seen, the identity decides */
		return kind;
	r = topo_evidence_read(root, dir->fd, kind == TOPO_GPU, ev);
	if (r < 0)
		return r;
	*have_ev = true;
	return topo_classify_evidence(cfg, inv, i, ev);
}

int topo_classify_at(const struct sysroot *root, const struct topo_config *cfg,
		     const struct pci_inventory *inv, size_t i)
{
	_cleanup_(pci_dir_release) struct pci_dir dir = { .fd = -EBADF };
	struct topo_evidence ev;
	bool have_ev;

	return classify_open(root, cfg, inv, i, &dir, &ev, &have_ev);
}

/* The endpoints of one kind in address order (inv is sorted), each index set. */
struct ep_list {
	struct topo_endpoint *eps;
	size_t n;
};

static void ep_list_done(struct ep_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->eps[i].cpulist);
	free(l->eps);
	*l = (struct ep_list){};
}

static struct topo_endpoint *ep_list_add(struct ep_list *l, enum topo_kind kind, size_t dev)
{
	struct topo_endpoint *grown = reallocarray(l->eps, l->n + 1, sizeof(*grown));

	if (!grown)
		return NULL;
	l->eps = grown;
	l->eps[l->n] = (struct topo_endpoint){
		.kind = kind,
		.dev = dev,
		.index = (unsigned)l->n,
		.numa_node = -1,
	};
	return &l->eps[l->n++];
}

/*
 * Function i filed by its kind, its facts read (a VF is none: its PF stands for it). One
 * open of its directory for the evidence, the VF test and the facts; the VF test reads
 * the physfn link only where the header did not tell (enum pci_virtfn).
 */
static int build_one(const struct sysroot *root, const struct topo_config *cfg,
		     const struct pci_inventory *inv, size_t i, struct cpulists *c,
		     struct ep_list *lists)
{
	_cleanup_(pci_dir_release) struct pci_dir dir = { .fd = -EBADF };
	struct topo_endpoint *ep;
	struct topo_evidence ev;
	bool have_ev;
	int kind = classify_open(root, cfg, inv, i, &dir, &ev, &have_ev), dfd;

	if (kind == -ENOMEM)
		return kind;
	if (kind != TOPO_GPU && kind != TOPO_NIC)
		return 0;
	dfd = dir.fd == -EBADF ? pci_dev_dir(root, inv, i, &dir) : dir.fd;
	if (dfd == -ENOMEM)
		return dfd;
	if (inv->devs[i].virtfn == PCI_VIRTFN_YES ||
	    (inv->devs[i].virtfn == PCI_VIRTFN_UNKNOWN && dfd >= 0 && topo_is_virtfn(dfd) > 0))
		return 0;
	ep = ep_list_add(&lists[kind], kind, i);
	if (!ep)
		return -ENOMEM;
	/* No directory (a dangling entry): every fact stays unknown. */
	return dfd >= 0 ? endpoint_facts(root, dfd, &inv->devs[i], have_ev ? &ev : NULL, c, ep) : 0;
}

/* GPUs first, then NICs: the lists' entries move into t. */
static int take_lists(struct topology *t, struct ep_list *lists)
{
	size_t n = lists[TOPO_GPU].n + lists[TOPO_NIC].n;

	if (!n)
		return 0;
	t->eps = calloc(n, sizeof(*t->eps));
	if (!t->eps)
		return -ENOMEM;
	for (int k = TOPO_GPU; k <= TOPO_NIC; k++) {
		for (size_t i = 0; i < lists[k].n; i++) {
			t->eps[t->n++] = lists[k].eps[i];
			t->n_rdma_nics += lists[k].eps[i].rdma;
		}
		t->n_kind[k] = lists[k].n;
		free(lists[k].eps);
		lists[k] = (struct ep_list){};
	}
	return 0;
}

int topo_build(struct topology *t, const struct sysroot *root, const struct topo_config *cfg,
	       const struct pci_inventory *inv)
{
	struct ep_list lists[_TOPO_KIND_MAX] = {};
	struct cpulists cpus = {};
	int r = 0;

	*t = (struct topology){};
	for (size_t i = 0; i < inv->n && r >= 0; i++)
		r = build_one(root, cfg, inv, i, &cpus, lists);
	cpulists_done(&cpus);
	if (r >= 0)
		r = take_lists(t, lists);
	for (int k = 0; k < _TOPO_KIND_MAX; k++)
		ep_list_done(&lists[k]);
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

/* pcib_load_caps() of devs[i] (self) and of every bridge above it. */
static int load_chain(struct pci_backend *b, struct pci_inventory *inv, int p, bool self)
{
	int r = 0;

	if (!self && p >= 0)
		p = inv->devs[p].parent;
	for (size_t depth = 0; p >= 0 && depth < 64; depth++) {
		int k = pcib_load_caps(b, inv, (size_t)p);

		if (k < 0 && r == 0)
			r = k;
		p = inv->devs[p].parent;
	}
	return r;
}

int topo_load_path_caps(struct pci_backend *b, struct pci_inventory *inv, size_t i)
{
	return load_chain(b, inv, (int)i, true);
}

/*
 * Another endpoint that makes a pair with e on e's root bus slot (parent -1: two functions
 * of one device there): any, or only a GPU (gpu_only: e is no GPU).
 */
static bool root_bus_sibling(const struct pci_inventory *inv, const struct topology *t, size_t e,
			     bool gpu_only)
{
	const struct pci_dev_info *a = &inv->devs[t->eps[e].dev];

	for (size_t k = 0; k < t->n; k++) {
		const struct pci_dev_info *o = &inv->devs[t->eps[k].dev];

		if (k != e && o->parent < 0 && o->id.domain == a->id.domain &&
		    o->id.bus == a->id.bus && o->id.dev == a->id.dev &&
		    (!gpu_only || t->eps[k].kind == TOPO_GPU))
			return true;
	}
	return false;
}

/*
 * Whether a pair's path can end at endpoint e's own ACS (topo_pair_ports()): another
 * endpoint below e's parent (then the paths part at e itself: two functions of one
 * device, or e beside a bridge on one bus), or a function of e's device on a root bus.
 * Only pairs with a GPU at one end are judged from the view (the topology's pairs,
 * p2p.json; ExpectP2P= loads its own): a NIC's own ACS counts beside a GPU only.
 */
static bool own_caps_needed(const struct pci_inventory *inv, const struct topology *t,
			    const uint32_t (*below)[2], size_t e)
{
	int parent = inv->devs[t->eps[e].dev].parent;
	bool gpu = t->eps[e].kind == TOPO_GPU;

	if (parent < 0)
		return root_bus_sibling(inv, t, e, !gpu);
	return gpu ? below[parent][0] > 1 : below[parent][1] > 0;
}

int topo_load_caps(struct pci_backend *b, struct pci_inventory *inv, const struct topology *t)
{
	/* below[p]: the endpoints below function p, and the GPUs among them */
	_cleanup_(freep) uint32_t(*below)[2] = calloc(inv->n + 1, sizeof(*below));
	int r = 0;

	if (!below)
		return -ENOMEM;
	for (size_t e = 0; e < t->n; e++) {
		int p = inv->devs[t->eps[e].dev].parent;

		for (size_t depth = 0; p >= 0 && (size_t)p < inv->n && depth < 64; depth++) {
			below[p][0]++;
			below[p][1] += t->eps[e].kind == TOPO_GPU;
			p = inv->devs[p].parent;
		}
	}
	for (size_t e = 0; e < t->n; e++) {
		int k = load_chain(b, inv, (int)t->eps[e].dev, own_caps_needed(inv, t, below, e));

		if (k < 0 && r == 0)
			r = k;
	}
	return r;
}
