// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA inventory. sysfs is the reference shape (it is what --root trees hold); on the live
 * host libibverbs answers the port queries when the device opens, because some values
 * (active MTU, GID types on old kernels) only exist there. Netdev, PCI function and bond
 * always come from sysfs: verbs know none of them.
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>

#include "core/log.h"
#include "rdma/rdma-scan.h"
#include "rdma/rdma-verbs.h"
#include "pci/selector.h"

const char *rdma_source_to_string(enum rdma_source s)
{
	return s == RDMA_SOURCE_VERBS ? "verbs" : "sysfs";
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_numbers(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b, NULL, 10);

	return x < y ? -1 : x > y;
}

/*
 * Entries of a directory (no dot files), sorted; numeric: only decimal names. d is
 * closed. More than max: -E2BIG, never a part in readdir order (a cut list would judge
 * whichever entries the directory happened to give first).
 */
static int list_dir(DIR *dir, bool numeric, size_t max, char ***ret, size_t *ret_n)
{
	_cleanup_(closedirp) DIR *d = dir;
	char **v = NULL;
	size_t n = 0;
	struct dirent *de;

	while ((de = readdir(d))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		if (numeric && strspn(de->d_name, "0123456789") != strlen(de->d_name))
			continue;
		if (n >= max) {
			strv_free(v);
			return -E2BIG;
		}
		grown = reallocarray(v, n + 2, sizeof(*v));
		if (!grown)
			goto oom;
		v = grown;
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto oom;
		v[++n] = NULL;
	}
	if (n)
		qsort(v, n, sizeof(*v), numeric ? cmp_numbers : cmp_names);
	*ret = v;
	*ret_n = n;
	return 0;
oom:
	strv_free(v);
	return -ENOMEM;
}

static void port_done(struct rdma_port *p)
{
	free(p->gids);
	free(p->netdev);
	free(p->bond);
}

/* The PCI function behind the device link, as the kernel names it, NULL if it is not one. */
/*
 * The PCI function behind the device link, as the kernel names it (d->pci), or, where the
 * link leads to a function of its own below a PCI function (d->below_pci: an auxiliary
 * device, mlx5_core.sf.N), none. -ENOMEM only.
 */
static int device_pci(const struct sysroot *root, struct rdma_device *d)
{
	_cleanup_(freep) char *real = NULL;
	char *base;

	if (sysroot_canonical(root, SYSROOT_SYS, &real, "class/infiniband/%s/device", d->name) < 0)
		return 0;
	base = strrchr(real, '/');
	if (!base)
		return 0;
	if (pci_address_is_kernel(base + 1)) { /* VMD's domains have five digits */
		d->pci = strdup(base + 1);
		return d->pci ? 0 : -ENOMEM;
	}
	*base = '\0';
	base = strrchr(real, '/');
	d->below_pci = base && pci_address_is_kernel(base + 1);
	return 0;
}

/* Through the device link: a function may be hidden from the PCI bus list (VF, fake tree). */
static uint16_t read_id(const struct sysroot *root, const char *dev, const char *what, bool *ok)
{
	_cleanup_(freep) char *s = NULL;
	char *end;
	unsigned long v;

	if (sysroot_read_attr(root, SYSROOT_SYS, &s, "class/infiniband/%s/device/%s", dev, what) <
	    0) {
		*ok = false;
		return 0;
	}
	v = strtoul(s, &end, 16);
	if (*end || v > 0xffff)
		*ok = false;
	return (uint16_t)v;
}

/* fw_ver and board_id: reported always, judged by MinFirmware=/Firmware= (soft devices have none).
 */
static int read_identity(const struct sysroot *root, struct rdma_device *d)
{
	int r = sysroot_read_attr(root, SYSROOT_SYS, &d->fw_ver, "class/infiniband/%s/fw_ver",
				  d->name);

	if (r == -ENOMEM)
		return r;
	r = sysroot_read_attr(root, SYSROOT_SYS, &d->board_id, "class/infiniband/%s/board_id",
			      d->name);
	return r == -ENOMEM ? r : 0;
}

static int scan_device_identity(const struct sysroot *root, struct rdma_device *d)
{
	_cleanup_(freep) char *s = NULL;
	bool ok = true;
	int r;

	/*
	 * Unread, the node type stays unknown and the ports are still read: a device that
	 * vanished fails its port list (d->err), which the rules report as unknown.
	 */
	r = sysroot_read_attr(root, SYSROOT_SYS, &s, "class/infiniband/%s/node_type", d->name);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || rdma_parse_node_type(s, &d->node_type) < 0)
		d->node_type = RDMA_NODE_UNKNOWN;
	free(s);
	s = NULL;
	if (sysroot_read_attr(root, SYSROOT_SYS, &s, "class/infiniband/%s/node_guid", d->name) >= 0)
		d->have_guid = rdma_parse_guid(s, d->node_guid) >= 0;
	r = read_identity(root, d);
	if (r < 0)
		return r;
	r = device_pci(root, d);
	if (r < 0)
		return r;
	if (d->pci) {
		d->vendor = read_id(root, d->name, "vendor", &ok);
		d->device = read_id(root, d->name, "device", &ok);
		d->have_ids = ok;
	}
	return 0;
}

static void port_fail(struct rdma_port *p, int err, const char *what)
{
	if (!p->err) {
		p->err = err;
		p->err_what = what;
	}
}

static int read_port_attr(const struct sysroot *root, const char *dev, unsigned port,
			  const char *attr, char **ret)
{
	return sysroot_read_attr(root, SYSROOT_SYS, ret, "class/infiniband/%s/ports/%u/%s", dev,
				 port, attr);
}

int rdma_port_reread_state(const struct sysroot *root, const char *dev, struct rdma_port *p)
{
	_cleanup_(freep) char *st = NULL, *ph = NULL;
	int r;

	r = read_port_attr(root, dev, p->num, "state", &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		port_fail(p, r, "state");
		return 0;
	}
	if (rdma_parse_port_state(st, &p->state) < 0) {
		port_fail(p, -EBADMSG, "state");
		return 0;
	}
	r = read_port_attr(root, dev, p->num, "phys_state", &ph);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || rdma_parse_phys_state(ph, &p->phys_state) < 0)
		p->phys_state = RDMA_PHYS_UNKNOWN; /* soft devices: state alone decides */
	return 0;
}

/* gid_attrs files on mlx5 return EINVAL for empty slots: "no entry", not a failure. */
static int read_gid(const struct sysroot *root, const char *dev, unsigned port, unsigned idx,
		    struct rdma_gid *g)
{
	_cleanup_(freep) char *s = NULL, *t = NULL, *n = NULL;
	char attr[64];
	int r;

	snprintf(attr, sizeof(attr), "gids/%u", idx);
	r = read_port_attr(root, dev, port, attr, &s);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || rdma_parse_gid(s, g->raw) < 0 || rdma_gid_is_zero(g->raw))
		return 0;
	g->index = idx;
	snprintf(attr, sizeof(attr), "gid_attrs/types/%u", idx);
	r = read_port_attr(root, dev, port, attr, &t);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		g->type_err = r;
	else if (rdma_parse_gid_type(t, &g->type) < 0)
		g->type_err = -EBADMSG;
	snprintf(attr, sizeof(attr), "gid_attrs/ndevs/%u", idx);
	r = read_port_attr(root, dev, port, attr, &n);
	if (r == -ENOMEM)
		return r;
	if (r >= 0 && strlen(n) < IFNAMSIZ)
		strcpy(g->ndev, n);
	return 1;
}

static int add_gid(struct rdma_port *p, const struct rdma_gid *g)
{
	struct rdma_gid *grown = reallocarray(p->gids, p->n_gids + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	p->gids = grown;
	p->gids[p->n_gids++] = *g;
	return 0;
}

/*
 * IB ports need only GID 0 (the port GID); every other port the table: RoCE v2 + IP on
 * Ethernet, and on a port whose link layer could not be read it is the evidence left.
 */
static int scan_gids_sysfs(const struct sysroot *root, const char *dev, struct rdma_port *p)
{
	DIR *dir = NULL;
	char **names = NULL;
	size_t n = 0;
	int r;

	r = sysroot_opendir(root, SYSROOT_SYS, &dir, "class/infiniband/%s/ports/%u/gids", dev,
			    p->num);
	if (r >= 0)
		r = list_dir(dir, true, RDMA_MAX_GIDS, &names, &n);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		p->gids_err = r;
		return 0;
	}
	if (p->link_layer == RDMA_LL_INFINIBAND && n > 1)
		n = 1;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		struct rdma_gid g = {};

		r = read_gid(root, dev, p->num, (unsigned)strtoul(names[i], NULL, 10), &g);
		if (r > 0)
			r = add_gid(p, &g);
	}
	strv_free(names);
	p->gids_read = r >= 0;
	return r < 0 ? r : 0;
}

static int scan_port_sysfs(const struct sysroot *root, const char *dev, struct rdma_port *p)
{
	_cleanup_(freep) char *rate = NULL, *ll = NULL;
	int r;

	r = rdma_port_reread_state(root, dev, p);
	if (r < 0 || p->err)
		return r;
	r = read_port_attr(root, dev, p->num, "rate", &rate);
	if (r == -ENOMEM)
		return r;
	p->rate_err = r < 0 ? r : rdma_parse_rate(rate, &p->rate) < 0 ? -EBADMSG : 0;
	r = read_port_attr(root, dev, p->num, "link_layer", &ll);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || rdma_parse_link_layer(ll, &p->link_layer) < 0)
		p->link_layer = RDMA_LL_UNKNOWN;
	return scan_gids_sysfs(root, dev, p);
}

static int scan_gids_verbs(struct ibv_context *ctx, struct rdma_port *p, int tbl_len)
{
	for (int i = 0; i < tbl_len && i < RDMA_MAX_GIDS; i++) {
		struct ibv_gid_entry e;
		struct rdma_gid g = { .index = (unsigned)i };
		char name[IF_NAMESIZE];
		int r;

		if (p->link_layer == RDMA_LL_INFINIBAND && i > 0)
			break;
		if (verbs_query_gid_ex(ctx, p->num, (uint32_t)i, &e, 0) != 0)
			continue; /* empty slot (ENODATA) or gone */
		memcpy(g.raw, e.gid.raw, 16);
		if (rdma_gid_is_zero(g.raw))
			continue;
		g.type =
			e.gid_type == IBV_GID_TYPE_ROCE_V2 ? RDMA_GID_ROCE_V2 : RDMA_GID_IB_ROCE_V1;
		if (e.ndev_ifindex && if_indextoname(e.ndev_ifindex, name))
			snprintf(g.ndev, sizeof(g.ndev), "%s", name);
		r = add_gid(p, &g);
		if (r < 0)
			return r;
	}
	p->gids_read = true;
	return 0;
}

/* What uverbs answers is rdma_port_get_link_layer(), as sysfs's link_layer prints it. */
static enum rdma_link_layer verbs_link_layer(uint8_t ll)
{
	switch (ll) {
	case IBV_LINK_LAYER_ETHERNET:
		return RDMA_LL_ETHERNET;
	case IBV_LINK_LAYER_INFINIBAND:
		return RDMA_LL_INFINIBAND;
	case IBV_LINK_LAYER_UNSPECIFIED:
		return RDMA_LL_UNSPECIFIED;
	default:
		return RDMA_LL_UNKNOWN;
	}
}

static int scan_port_verbs(const struct sysroot *root, struct ibv_context *ctx, const char *dev,
			   struct rdma_port *p)
{
	struct ibv_port_attr a;
	uint32_t lane;
	const char *speed;
	_cleanup_(freep) char *rate = NULL;

	if (verbs_query_port(ctx, (uint8_t)p->num, &a) != 0) {
		port_fail(p, -errno, "ibv_query_port");
		return 0;
	}
	p->state = a.state <= IBV_PORT_ACTIVE_DEFER ? (enum rdma_port_state)a.state : RDMA_PORT_NOP;
	p->phys_state = a.phys_state < _RDMA_PHYS_MAX ? a.phys_state : RDMA_PHYS_UNKNOWN;
	p->link_layer = verbs_link_layer(a.link_layer);
	p->active_mtu = rdma_mtu_from_enum(a.active_mtu);
	p->rate.width = rdma_width_from_ibv(a.active_width);
	if (rdma_speed_from_ibv(a.active_speed, &lane, &speed) >= 0 && p->rate.width) {
		p->rate.mbps = lane * p->rate.width;
		snprintf(p->rate.speed, sizeof(p->rate.speed), "%s", speed);
	} else {
		/* XDR and newer need active_speed_ex (rdma-core >= 50): sysfs knows them */
		int r = read_port_attr(root, dev, p->num, "rate", &rate);

		p->rate_err = r < 0 ? r : rdma_parse_rate(rate, &p->rate) < 0 ? -EBADMSG : 0;
	}
	return scan_gids_verbs(ctx, p, a.gid_tbl_len);
}

static int port_list(const struct sysroot *root, struct rdma_device *d, char ***names, size_t *n)
{
	DIR *dir = NULL;
	int r = sysroot_opendir(root, SYSROOT_SYS, &dir, "class/infiniband/%s/ports", d->name);

	return r < 0 ? r : list_dir(dir, true, RDMA_MAX_PORTS, names, n);
}

/* ---- netdev, bond ---- */

static void netdev_details(const struct sysroot *root, struct rdma_port *p)
{
	_cleanup_(freep) char *op = NULL, *mtu = NULL, *master = NULL, *bop = NULL;

	if (sysroot_read_attr(root, SYSROOT_SYS, &op, "class/net/%s/operstate", p->netdev) >= 0)
		p->netdev_up = streq(op, "up");
	if (sysroot_read_attr(root, SYSROOT_SYS, &mtu, "class/net/%s/mtu", p->netdev) >= 0)
		p->netdev_mtu = (unsigned)strtoul(mtu, NULL, 10);
	p->netdev_is_bond =
		sysroot_exists(root, SYSROOT_SYS, "class/net/%s/bonding", p->netdev) > 0;
	/* a master that is no bond (a VRF, ovs-system, a bridge) is not the port's bond */
	if (sysroot_canonical(root, SYSROOT_SYS, &master, "class/net/%s/master", p->netdev) >= 0 &&
	    sysroot_exists(root, SYSROOT_SYS, "class/net/%s/bonding", basename(master)) > 0) {
		p->bond = strdup(basename(master));
		if (p->bond && sysroot_read_attr(root, SYSROOT_SYS, &bop, "class/net/%s/operstate",
						 p->bond) >= 0)
			p->bond_up = streq(bop, "up");
	}
}

/* A function with several netdevs (one per port): dev_port is the port number - 1. */
static char *netdev_of_pci(const struct sysroot *root, const char *dev, unsigned port)
{
	DIR *dir = NULL;
	char **names = NULL, *pick = NULL;
	size_t n = 0;

	if (sysroot_opendir(root, SYSROOT_SYS, &dir, "class/infiniband/%s/device/net", dev) < 0 ||
	    list_dir(dir, false, RDMA_MAX_NETDEVS, &names, &n) < 0 || n == 0) {
		strv_free(names);
		return NULL;
	}
	for (size_t i = 0; i < n && !pick; i++) {
		_cleanup_(freep) char *dp = NULL;

		if (sysroot_read_attr(root, SYSROOT_SYS, &dp, "class/net/%s/dev_port", names[i]) >=
			    0 &&
		    strtoul(dp, NULL, 0) == port - 1)
			pick = strdup(names[i]);
	}
	if (!pick)
		pick = strdup(names[0]);
	strv_free(names);
	return pick;
}

/* erdma in standard mode: node_guid is the EUI-64 of the paired virtio NIC's MAC. */
static char *netdev_of_guid(const struct sysroot *root, const uint8_t guid[8])
{
	DIR *dir = NULL;
	char **names = NULL, *pick = NULL;
	size_t n = 0;

	if (sysroot_opendir(root, SYSROOT_SYS, &dir, "class/net") < 0 ||
	    list_dir(dir, false, RDMA_MAX_NETDEVS, &names, &n) < 0) {
		strv_free(names);
		return NULL;
	}
	for (size_t i = 0; i < n && !pick; i++) {
		_cleanup_(freep) char *a = NULL;
		uint8_t mac[6];

		if (sysroot_read_attr(root, SYSROOT_SYS, &a, "class/net/%s/address", names[i]) >=
			    0 &&
		    rdma_parse_mac(a, mac) >= 0 && rdma_guid_is_eui64_of(guid, mac))
			pick = strdup(names[i]);
	}
	strv_free(names);
	return pick;
}

static int find_netdev(const struct sysroot *root, const struct rdma_device *d, struct rdma_port *p)
{
	for (size_t i = 0; i < p->n_gids && !p->netdev; i++)
		if (p->gids[i].ndev[0]) {
			p->netdev = strdup(p->gids[i].ndev);
			p->netdev_via = "gid_attrs/ndevs";
		}
	if (!p->netdev && d->pci) {
		p->netdev = netdev_of_pci(root, d->name, p->num);
		p->netdev_via = "PCI function";
	}
	if (!p->netdev && d->have_guid) {
		p->netdev = netdev_of_guid(root, d->node_guid);
		p->netdev_via = "node_guid (EUI-64 of the MAC)";
	}
	if (!p->netdev) {
		p->netdev_via = NULL;
		return 0;
	}
	netdev_details(root, p);
	if (!p->active_mtu && p->link_layer == RDMA_LL_ETHERNET && p->netdev_mtu)
		p->active_mtu = rdma_mtu_from_netdev(p->netdev_mtu);
	return 0;
}

/* ---- devices ---- */

static struct ibv_context *verbs_open(struct ibv_device **list, const char *name, int *err)
{
	struct ibv_context *ctx;

	*err = -ENODEV;
	for (struct ibv_device **d = list; d && *d; d++) {
		if (!streq(sym_ibv_get_device_name(*d), name))
			continue;
		ctx = sym_ibv_open_device(*d);
		*err = ctx ? 0 : -(errno ? errno : EIO);
		return ctx;
	}
	return NULL;
}

static int scan_ports(const struct sysroot *root, struct rdma_device *d, struct ibv_context *ctx)
{
	char **names = NULL;
	size_t n = 0;
	int r;

	r = port_list(root, d, &names, &n);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		d->err = r;
		return 0;
	}
	d->ports = calloc(n ? n : 1, sizeof(*d->ports));
	if (!d->ports) {
		strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; r >= 0 && i < n; i++) {
		struct rdma_port *p = &d->ports[d->n_ports++];

		p->num = (unsigned)strtoul(names[i], NULL, 10);
		r = ctx ? scan_port_verbs(root, ctx, d->name, p)
			: scan_port_sysfs(root, d->name, p);
		if (r >= 0 && !p->err)
			r = find_netdev(root, d, p);
	}
	strv_free(names);
	return r;
}

static int scan_device(const struct sysroot *root, struct ibv_device **vlist, struct rdma_device *d)
{
	struct ibv_context *ctx = NULL;
	int r, err;

	if (vlist) {
		ctx = verbs_open(vlist, d->name, &err);
		if (ctx)
			d->source = RDMA_SOURCE_VERBS;
		else if (asprintf(&d->source_note, "verbs: %s", strerror(-err)) < 0)
			return -ENOMEM;
	}
	r = scan_ports(root, d, ctx);
	if (ctx)
		sym_ibv_close_device(ctx);
	return r;
}

static int add_device(struct rdma_inventory *inv, const char *name)
{
	struct rdma_device *grown = reallocarray(inv->devs, inv->n_devs + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	inv->devs = grown;
	inv->devs[inv->n_devs] = (struct rdma_device){ .name = strdup(name) };
	if (!inv->devs[inv->n_devs].name)
		return -ENOMEM;
	inv->n_devs++;
	return 0;
}

int rdma_scan_devices(const struct sysroot *root, struct rdma_inventory *ret)
{
	DIR *dir = NULL;
	char **names = NULL;
	size_t n = 0;
	int r;

	*ret = (struct rdma_inventory){};
	r = sysroot_opendir(root, SYSROOT_SYS, &dir, "class/infiniband");
	if (r >= 0)
		r = list_dir(dir, false, RDMA_MAX_DEVICES, &names, &n);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		ret->err = r;
		return r == -ENOMEM ? r : 0;
	}
	for (size_t i = 0; r >= 0 && i < n; i++) {
		r = add_device(ret, names[i]);
		if (r >= 0)
			r = scan_device_identity(root, &ret->devs[ret->n_devs - 1]);
	}
	strv_free(names);
	return r;
}

/* The verbs device list, opened once on the first device that wants it. */
struct verbs_list {
	struct ibv_device **v;
	bool tried;
};

static struct ibv_device **verbs_list_get(struct verbs_list *l)
{
	if (!l->tried)
		/* NULL when the library is missing: ports are read from sysfs then */
		l->v = dlopen_libibverbs() >= 0 ? sym_ibv_get_device_list(NULL) : NULL;
	l->tried = true;
	return l->v;
}

int rdma_scan_ports(const struct sysroot *root, struct rdma_inventory *inv, rdma_want_fn want,
		    rdma_want_fn verbs, void *userdata)
{
	struct verbs_list vl = {};
	int r = 0;

	for (size_t i = 0; r >= 0 && i < inv->n_devs; i++) {
		struct rdma_device *d = &inv->devs[i];

		if (d->err || d->ports_read || (want && !want(d, userdata)))
			continue;
		d->ports_read = true;
		r = scan_device(root, verbs && verbs(d, userdata) ? verbs_list_get(&vl) : NULL, d);
	}
	if (vl.v)
		sym_ibv_free_device_list(vl.v);
	return r;
}

/* A device the rescan reads again: its ports before (what the wait recorded of them). */
struct rescan_dev {
	bool marked;
	struct rdma_port *old;
	size_t n_old;
};

struct rescan {
	const struct rdma_inventory *inv;
	const struct rescan_dev *devs;
	rdma_want_fn verbs;
	void *userdata;
};

static bool rescan_marked(const struct rdma_device *d, void *userdata)
{
	const struct rescan *rs = userdata;

	return rs->devs[d - rs->inv->devs].marked;
}

static bool rescan_verbs(const struct rdma_device *d, void *userdata)
{
	const struct rescan *rs = userdata;

	return rs->verbs && rs->verbs(d, rs->userdata);
}

/* What the wait recorded of each old port goes to the new port of the same number. */
static void keep_wait(struct rdma_device *d, struct rescan_dev *o)
{
	for (size_t i = 0; i < o->n_old; i++) {
		for (size_t k = 0; k < d->n_ports; k++)
			if (d->ports[k].num == o->old[i].num) {
				d->ports[k].waited_usec = o->old[i].waited_usec;
				d->ports[k].wait_flap = o->old[i].wait_flap;
			}
		port_done(&o->old[i]);
	}
	free(o->old);
}

int rdma_rescan_ports(const struct sysroot *root, struct rdma_inventory *inv, rdma_want_fn want,
		      rdma_want_fn verbs, void *userdata)
{
	_cleanup_(freep) struct rescan_dev *devs = calloc(inv->n_devs + 1, sizeof(*devs));
	struct rescan rs = { inv, devs, verbs, userdata };
	int r;

	if (!devs)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n_devs; i++) {
		struct rdma_device *d = &inv->devs[i];

		if (!d->ports_read || !want(d, userdata))
			continue;
		devs[i] = (struct rescan_dev){ true, d->ports, d->n_ports };
		d->ports = NULL;
		d->n_ports = 0;
		d->ports_read = false;
		d->err = 0;
	}
	r = rdma_scan_ports(root, inv, rescan_marked, rescan_verbs, &rs);
	for (size_t i = 0; i < inv->n_devs; i++)
		if (devs[i].marked)
			keep_wait(&inv->devs[i], &devs[i]);
	return r;
}

static bool want_all(const struct rdma_device *d, void *userdata)
{
	return true;
}

int rdma_scan(const struct sysroot *root, bool use_verbs, rdma_want_fn want, void *userdata,
	      struct rdma_inventory *ret)
{
	int r = rdma_scan_devices(root, ret);

	if (r < 0 || ret->err)
		return r;
	return rdma_scan_ports(root, ret, want, use_verbs ? want_all : NULL, userdata);
}

void rdma_inventory_done(struct rdma_inventory *inv)
{
	for (size_t i = 0; i < inv->n_devs; i++) {
		struct rdma_device *d = &inv->devs[i];

		for (size_t j = 0; j < d->n_ports; j++)
			port_done(&d->ports[j]);
		free(d->ports);
		free(d->name);
		free(d->pci);
		free(d->source_note);
		free(d->fw_ver);
		free(d->board_id);
	}
	free(inv->devs);
	*inv = (struct rdma_inventory){};
}

const struct rdma_gid *rdma_port_roce_v2_ip_gid(const struct rdma_port *p, bool ipv4_only)
{
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct rdma_gid *g = &p->gids[i];

		if (g->type_err || g->type != RDMA_GID_ROCE_V2)
			continue;
		if (ipv4_only ? rdma_gid_is_ipv4(g->raw) : rdma_gid_has_ip(g->raw))
			return g;
	}
	return NULL;
}
