// SPDX-License-Identifier: GPL-2.0-or-later
/* Classification, distance classes and pair ports: pure functions of the inventory. */
#include "pci/accel.h"
#include "topo/topo.h"
#include "core/string-table.h"

/* Deeper than any real tree (a few switch levels); also bounds a parent loop. */
#define TOPO_DEPTH_MAX 32

#define PCIE_TYPE_ROOT_PORT  4
#define PCIE_TYPE_UPSTREAM   5
#define PCIE_TYPE_DOWNSTREAM 6

enum hop_role {
	HOP_ROOT_PORT,
	HOP_UPSTREAM,
	HOP_DOWNSTREAM,
	HOP_BRIDGE, /* a PCI(-X) bridge or anything else that is not a switch port */
};

/*
 * The function and every bridge above it, top (on a root bus) first. Built once per
 * endpoint by topo_paths_build() (struct topology keeps them), or on the stack by the
 * functions that take two device indices.
 */
struct topo_chain {
	uint32_t dev[TOPO_DEPTH_MAX];
	uint8_t role[TOPO_DEPTH_MAX]; /* enum hop_role */
	uint32_t n;
};

static bool ident_known(const struct pci_ident *id)
{
	return id->vendor != 0xffff && id->class_code != 0xffffff;
}

#define PCI_EXP_TYPE_PCI_BRIDGE 7 /* PCIe-to-PCI bridge: conventional PCI below */
#define TOPO_GPU_BAR_MIN	(256ULL << 20)

/* A display controller of a GPU vendor (NVIDIA, AMD, Intel). */
static bool gpu_vendor_display(const struct pci_dev_info *d)
{
	uint32_t cls = d->id.class_code >> 8;

	if (cls != 0x0300 && cls != 0x0380)
		return false;
	return d->id.vendor == 0x10de || d->id.vendor == 0x1002 || d->id.vendor == 0x8086;
}

/*
 * A function of conventional PCI for sure: its header says it has no capability at all,
 * or its whole chain was read (not cut to 64 bytes) without the PCI Express capability,
 * which every PCIe function has. What could not be read (capabilities not loaded, 64
 * bytes without root, a function that does not answer) proves nothing.
 */
static bool without_pcie(const struct pci_dev_info *d)
{
	if (d->state != PCI_DEV_OK)
		return false;
	return d->no_caps || (d->caps_loaded && d->cfg != PCI_CFG_LIMITED && d->pcie_type < 0);
}

/*
 * The bridge above is conventional PCI: a subtractive-decode ("legacy") PCI bridge
 * (class 060401, the chipset's bridge onboard VGA hangs off), a PCIe-to-PCI bridge, or a
 * bridge without the PCI Express capability (a PCI-to-PCI bridge: the ICH's hub-to-PCI
 * bridge). No GPU of the last fifteen years sits on conventional PCI.
 */
static bool conventional_parent(const struct pci_inventory *inv, const struct pci_dev_info *d)
{
	const struct pci_dev_info *p;

	if (d->parent < 0)
		return false;
	p = &inv->devs[d->parent];
	return p->id.class_code == 0x060401 || p->pcie_type == PCI_EXP_TYPE_PCI_BRIDGE ||
	       without_pcie(p);
}

/*
 * topo_is_accelerator() of a function; parent_good: not behind a conventional PCI bridge,
 * and, unless NVIDIA's, not on a root bus (true when the parent is not known yet, as in
 * topo_wants_caps()).
 */
static bool accelerator_ident(const struct pci_dev_info *d, bool parent_good,
			      const struct topo_evidence *ev)
{
	uint32_t cls = d->id.class_code >> 8;

	if (!ident_known(&d->id))
		return false;
	/* a 3D controller is a GPU; a co-processor only when the table knows it (pci/accel.h) */
	if (cls == 0x0302 || pci_accel_lookup(&d->id))
		return true;
	/*
	 * A display controller counts only from a GPU vendor, behind a PCIe bridge, and on
	 * PCIe itself: one without the PCI Express capability (or any capability) is
	 * conventional PCI, onboard graphics (the ES1000), whatever its BARs say...
	 */
	if (!gpu_vendor_display(d) || !parent_good || without_pcie(d))
		return false;
	/*
	 * ... and, from AMD and Intel (the makers of onboard graphics too: ES1000 128 MiB),
	 * with a GPU's aperture when the BARs were read. NVIDIA makes no onboard graphics, and
	 * its Fermi boards have a 128 MiB BAR1.
	 */
	if (d->id.vendor == 0x10de || !ev || !ev->bar_max)
		return true;
	return ev->bar_max >= TOPO_GPU_BAR_MIN;
}

/*
 * A display controller on a root bus is onboard VGA, except NVIDIA's: NVIDIA makes no
 * onboard graphics, and a VM puts a passed-through RTX A6000 or A40 (class 0300) on its
 * root bus (i440fx; q35's pcie.0), where nvidia-smi and CUDA count it like any other GPU.
 */
static bool parent_ok(const struct pci_inventory *inv, size_t i)
{
	const struct pci_dev_info *d = &inv->devs[i];

	if (d->parent < 0)
		return d->id.vendor == 0x10de;
	return !conventional_parent(inv, d);
}

bool topo_is_accelerator(const struct pci_inventory *inv, size_t i)
{
	return accelerator_ident(&inv->devs[i], parent_ok(inv, i), NULL);
}

/*
 * Network controllers (02xx), and InfiniBand controllers filed as serial bus (0c06: QLogic
 * and Intel True Scale HCAs, older ConnectX VPI parts): `hostprep rdma` lists them, and a
 * GPU's nearest NIC must not become a 1 GbE port beside them.
 */
static bool nic_ident(const struct pci_dev_info *d)
{
	return ident_known(&d->id) &&
	       ((d->id.class_code >> 16) == 0x02 || (d->id.class_code >> 8) == 0x0c06);
}

bool topo_nearest_candidate(const struct topology *t, size_t j)
{
	return t->eps[j].kind == TOPO_NIC && (t->n_rdma_nics == 0 || t->eps[j].rdma);
}

bool topo_is_nic(const struct pci_inventory *inv, size_t i)
{
	return nic_ident(&inv->devs[i]);
}

bool topo_evidence_high_speed(const struct topo_evidence *ev)
{
	if (ev->net_speed > 0)
		return ev->net_speed >= TOPO_NIC_SPEED_MIN;
	return ev->net_speed < 0 && ev->link_gen >= 3 && ev->link_width >= 4;
}

/* Whatever its class: an RDMA device, or a netdev of a high-speed link. */
static bool nic_evidence(const struct pci_dev_info *d, const struct topo_evidence *ev)
{
	return ident_known(&d->id) && ev && (ev->rdma || topo_evidence_high_speed(ev));
}

static bool selected(const struct selector_entry *v, size_t n, const struct pci_dev_info *d)
{
	for (size_t k = 0; k < n; k++)
		if (selector_match_ident(&v[k].sel, &d->id))
			return true;
	return false;
}

static int classify_ident(const struct topo_config *cfg, const struct pci_dev_info *d,
			  bool parent_good, const struct topo_evidence *ev)
{
	bool accel, nic;

	accel = cfg && cfg->accel_set ? selected(cfg->accel, cfg->n_accel, d)
				      : accelerator_ident(d, parent_good, ev);
	if (accel)
		return TOPO_GPU;
	nic = cfg && cfg->nics_set ? selected(cfg->nics, cfg->n_nics, d)
				   : nic_ident(d) || nic_evidence(d, ev);
	return nic ? TOPO_NIC : -1;
}

int topo_classify(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i)
{
	return classify_ident(cfg, &inv->devs[i], parent_ok(inv, i), NULL);
}

int topo_classify_evidence(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i,
			   const struct topo_evidence *ev)
{
	return classify_ident(cfg, &inv->devs[i], parent_ok(inv, i), ev);
}

bool topo_needs_evidence(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i)
{
	const struct pci_dev_info *d = &inv->devs[i];
	int kind = topo_classify(cfg, inv, i);

	if (!ident_known(&d->id) || (d->id.class_code >> 16) == 0x06)
		return false; /* bridges carry neither GPUs nor NICs */
	if (kind == TOPO_GPU)
		return (!cfg || !cfg->accel_set) && gpu_vendor_display(d) && d->id.vendor != 0x10de;
	return kind < 0 && (!cfg || !cfg->nics_set);
}

/*
 * The bridges above a candidate decide its paths; its own capabilities only whether a GPU
 * vendor's display controller is on PCIe (accelerator_ident()). An endpoint whose own ACS
 * a pair's path ends at is loaded by topo_load_caps().
 */
static unsigned wants_of_kind(const struct pci_dev_info *d, int kind)
{
	if (kind < 0)
		return 0;
	return PCI_WANT_ABOVE | (gpu_vendor_display(d) ? PCI_WANT_SELF : 0);
}

unsigned topo_wants_caps(const struct pci_dev_info *d, void *cfg)
{
	return wants_of_kind(d, classify_ident(cfg, d, true, NULL));
}

/*
 * The view's pairs all have a GPU at one end (topo_load_caps()): a GPU's own ACS can end
 * one wherever it shares a bus, a NIC's only beside a GPU, so a NIC's is not asked for at
 * the scan (topo_load_caps() reads it in that rare case).
 */
unsigned topo_wants_view_caps(const struct pci_dev_info *d, void *cfg)
{
	int kind = classify_ident(cfg, d, true, NULL); /* once: the scan asks every function */
	unsigned want = wants_of_kind(d, kind);

	return kind == TOPO_GPU ? want | PCI_WANT_SELF_SHARED : want;
}

unsigned topo_wants_own_caps(const struct pci_dev_info *d, void *cfg)
{
	return classify_ident(cfg, d, true, NULL) >= 0 ? PCI_WANT_SELF | PCI_WANT_ABOVE : 0;
}

/*
 * The role of each bridge from the PCIe type when it was read, else from its place:
 * a root port on the root bus, then upstream and downstream ports in turn.
 */
static enum hop_role role_of(int pcie_type, enum hop_role expected)
{
	switch (pcie_type) {
	case PCIE_TYPE_ROOT_PORT:
		return HOP_ROOT_PORT;
	case PCIE_TYPE_UPSTREAM:
		return HOP_UPSTREAM;
	case PCIE_TYPE_DOWNSTREAM:
		return HOP_DOWNSTREAM;
	case -1:
		return expected;
	default:
		return HOP_BRIDGE;
	}
}

static void chain_build(const struct pci_inventory *inv, size_t i, struct topo_chain *c)
{
	uint32_t up[TOPO_DEPTH_MAX], n = 0;
	enum hop_role expected = HOP_ROOT_PORT;
	int p = (int)i;

	while (p >= 0 && n < TOPO_DEPTH_MAX) {
		up[n++] = (uint32_t)p;
		p = inv->devs[p].parent;
	}
	c->n = n;
	for (uint32_t k = 0; k < n; k++) {
		c->dev[k] = up[n - 1 - k];
		c->role[k] = (uint8_t)role_of(inv->devs[c->dev[k]].pcie_type, expected);
		expected = c->role[k] == HOP_UPSTREAM ? HOP_DOWNSTREAM : HOP_UPSTREAM;
	}
}

/* The switch a bridge belongs to: its upstream port. SIZE_MAX for a root port. */
static size_t switch_of(const struct topo_chain *c, size_t k)
{
	switch (c->role[k]) {
	case HOP_ROOT_PORT:
		return SIZE_MAX;
	case HOP_DOWNSTREAM:
		return k > 0 && c->role[k - 1] == HOP_UPSTREAM ? c->dev[k - 1] : c->dev[k];
	default:
		return c->dev[k];
	}
}

static bool same_device(const struct pci_inventory *inv, size_t a, size_t b)
{
	const struct pci_dev_info *x = &inv->devs[a], *y = &inv->devs[b];

	return x->parent == y->parent && x->id.domain == y->id.domain && x->id.bus == y->id.bus &&
	       x->id.dev == y->id.dev;
}

static size_t common_prefix(const struct topo_chain *x, const struct topo_chain *y)
{
	size_t p = 0;

	while (p < x->n && p < y->n && x->dev[p] == y->dev[p])
		p++;
	return p;
}

/* Distinct switches on the bridges of one side below the meeting point, into sw. */
static size_t add_switches(const struct topo_chain *c, size_t from, size_t *sw, size_t n)
{
	for (size_t k = from; k + 1 < c->n; k++) {
		size_t s = switch_of(c, k);
		bool seen = false;

		for (size_t j = 0; j < n && !seen; j++)
			seen = sw[j] == s;
		if (!seen && s != SIZE_MAX && n < 2 * TOPO_DEPTH_MAX + 1)
			sw[n++] = s;
	}
	return n;
}

static bool same_root_bus(const struct pci_inventory *inv, size_t x, size_t y)
{
	const struct pci_dev_info *a = &inv->devs[x], *b = &inv->devs[y];

	return a->id.domain == b->id.domain && a->id.bus == b->id.bus;
}

/* The PCI distance, and where the paths meet (p: length of the common prefix). */
static enum topo_dist pci_distance(const struct pci_inventory *inv, const struct topo_chain *ca,
				   const struct topo_chain *cb, size_t *ret_p)
{
	size_t sw[2 * TOPO_DEPTH_MAX + 1], n = 0, p = common_prefix(ca, cb);

	*ret_p = p;
	if (p == 0)
		return same_root_bus(inv, ca->dev[0], cb->dev[0]) ? TOPO_PHB : TOPO_NODE;
	if (p == ca->n || p == cb->n)
		return TOPO_PIX; /* one is above the other: no switch between them */
	if (ca->role[p - 1] == HOP_ROOT_PORT)
		return TOPO_PHB;
	sw[n++] = switch_of(ca, p - 1);
	n = add_switches(ca, p, sw, n);
	n = add_switches(cb, p, sw, n);
	return n > 1 ? TOPO_PXB : TOPO_PIX;
}

/* The PCI distance of the two chains' functions. */
static enum topo_dist chains_distance(const struct pci_inventory *inv, const struct topo_chain *ca,
				      const struct topo_chain *cb)
{
	size_t a = ca->dev[ca->n - 1], b = cb->dev[cb->n - 1], p;

	if (a != b && same_device(inv, a, b))
		return TOPO_PIX;
	return pci_distance(inv, ca, cb, &p);
}

enum topo_dist topo_pci_distance(const struct pci_inventory *inv, size_t a, size_t b)
{
	struct topo_chain ca, cb;

	chain_build(inv, a, &ca);
	chain_build(inv, b, &cb);
	return chains_distance(inv, &ca, &cb);
}

/* The PCI part refined by the NUMA nodes of both ends (see topo_distance()). */
static enum topo_dist numa_refine(enum topo_dist d, int numa_a, int numa_b)
{
	if (d != TOPO_NODE)
		return d;
	if (numa_a < 0 && numa_b < 0)
		return TOPO_NODE;
	return numa_a == numa_b ? TOPO_NODE : TOPO_SYS;
}

enum topo_dist topo_distance(const struct pci_inventory *inv, size_t a, int numa_a, size_t b,
			     int numa_b)
{
	return numa_refine(topo_pci_distance(inv, a, b), numa_a, numa_b);
}

enum topo_dist topo_endpoint_distance(const struct pci_inventory *inv,
				      const struct topo_endpoint *a, const struct topo_endpoint *b)
{
	return topo_distance(inv, a->dev, a->numa_node, b->dev, b->numa_node);
}

static void port_eval(const struct pci_inventory *inv, size_t dev, enum topo_port_role role,
		      struct topo_port *ret)
{
	const struct pci_dev_info *d = &inv->devs[dev];

	*ret = (struct topo_port){ .dev = dev, .role = role };
	if (d->state != PCI_DEV_OK || d->cfg == PCI_CFG_EXT_BROKEN)
		ret->state = TOPO_ACS_UNREADABLE;
	else if (d->cfg == PCI_CFG_NO_EXT)
		ret->state = TOPO_ACS_NO_EXT;
	else if (d->cfg != PCI_CFG_FULL)
		ret->state = TOPO_ACS_NEEDS_ROOT;
	else if (!d->has_acs)
		ret->state = TOPO_ACS_NONE;
	else {
		ret->state = TOPO_ACS_KNOWN;
		ret->ctrl = d->acs_ctrl;
		ret->redirect = d->acs_ctrl & TOPO_ACS_REDIRECT;
	}
}

bool topo_acs_unknown(enum topo_acs_state s)
{
	return s == TOPO_ACS_NEEDS_ROOT || s == TOPO_ACS_UNREADABLE || s == TOPO_ACS_NO_EXT;
}

static enum topo_p2p path_verdict(const struct topo_path *path)
{
	bool unknown = false;

	for (size_t k = 0; k < path->n_ports; k++) {
		const struct topo_port *pt = &path->ports[k];

		if (pt->state == TOPO_ACS_KNOWN && pt->redirect)
			return TOPO_P2P_REDIRECTED;
		if (topo_acs_unknown(pt->state))
			unknown = true;
	}
	return unknown ? TOPO_P2P_UNKNOWN : TOPO_P2P_DIRECT;
}

static void chains_pair_ports(const struct pci_inventory *inv, const struct topo_chain *ca,
			      const struct topo_chain *cb, struct topo_path *ret)
{
	size_t a = ca->dev[ca->n - 1], b = cb->dev[cb->n - 1], p;

	*ret = (struct topo_path){ .p2p = TOPO_P2P_ROOT_COMPLEX };
	if (a != b && same_device(inv, a, b)) {
		ret->dist = TOPO_PIX;
		port_eval(inv, a, TOPO_PORT_FUNCTION, &ret->ports[0]);
		port_eval(inv, b, TOPO_PORT_FUNCTION, &ret->ports[1]);
		ret->n_ports = 2;
		ret->p2p = path_verdict(ret);
		return;
	}
	ret->dist = pci_distance(inv, ca, cb, &p);
	if (ret->dist > TOPO_PXB)
		return;
	if (p < ca->n && p < cb->n) {
		/* Below the upstream port: the downstream ports each side enters; else functions.
		 */
		enum topo_port_role role =
			ca->role[p - 1] == HOP_UPSTREAM ? TOPO_PORT_INGRESS : TOPO_PORT_FUNCTION;

		port_eval(inv, ca->dev[p], role, &ret->ports[0]);
		port_eval(inv, cb->dev[p], role, &ret->ports[1]);
		ret->n_ports = 2;
	}
	ret->p2p = path_verdict(ret);
}

void topo_pair_ports(const struct pci_inventory *inv, size_t a, size_t b, struct topo_path *ret)
{
	struct topo_chain ca, cb;

	chain_build(inv, a, &ca);
	chain_build(inv, b, &cb);
	chains_pair_ports(inv, &ca, &cb, ret);
}

/* ---- the same per endpoint pair, from chains built once ---- */

/* Index of pair i < j in the upper triangle of an n x n matrix without its diagonal. */
static size_t tri_index(size_t n, size_t i, size_t j)
{
	return i * n - i * (i + 1) / 2 + (j - i - 1);
}

void topo_paths_done(struct topology *t)
{
	free(t->chains);
	free(t->dist);
	t->chains = NULL;
	t->dist = NULL;
}

int topo_paths_build(struct topology *t, const struct pci_inventory *inv)
{
	size_t n = t->n;

	topo_paths_done(t);
	if (n == 0)
		return 0;
	t->chains = calloc(n, sizeof(*t->chains));
	t->dist = n > 1 ? malloc(n * (n - 1) / 2) : NULL;
	if (!t->chains || (n > 1 && !t->dist)) {
		topo_paths_done(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		chain_build(inv, t->eps[i].dev, &t->chains[i]);
	for (size_t i = 0; i < n; i++) {
		uint8_t *row = t->dist + tri_index(n, i, i + 1);

		for (size_t j = i + 1; j < n; j++)
			row[j - i - 1] = (uint8_t)numa_refine(
				chains_distance(inv, &t->chains[i], &t->chains[j]),
				t->eps[i].numa_node, t->eps[j].numa_node);
	}
	return 0;
}

enum topo_dist topo_ep_distance(const struct topology *t, const struct pci_inventory *inv, size_t i,
				size_t j)
{
	if (!t->dist || i == j)
		return topo_endpoint_distance(inv, &t->eps[i], &t->eps[j]);
	return (enum topo_dist)(i < j ? t->dist[tri_index(t->n, i, j)]
				      : t->dist[tri_index(t->n, j, i)]);
}

void topo_ep_pair_ports(const struct topology *t, const struct pci_inventory *inv, size_t i,
			size_t j, struct topo_path *ret)
{
	if (!t->chains) {
		topo_pair_ports(inv, t->eps[i].dev, t->eps[j].dev, ret);
		return;
	}
	chains_pair_ports(inv, &t->chains[i], &t->chains[j], ret);
}

/* The risk of a function alone: its table entry's, if it is listed with one. */
static const char *dev_risk(const struct pci_inventory *inv, size_t i)
{
	const struct pci_accel_id *e;

	if (!ident_known(&inv->devs[i].id))
		return NULL;
	e = pci_accel_lookup(&inv->devs[i].id);
	return e ? e->p2p_risk : NULL;
}

const char *topo_p2p_risk(const struct pci_inventory *inv, size_t a, size_t b)
{
	const char *ra = dev_risk(inv, a);

	/* documented between two such parts (intel/compute-runtime 935), not with a NIC */
	return ra && dev_risk(inv, b) ? ra : NULL;
}

static bool path_has_port(const struct topo_path *p, size_t port)
{
	for (size_t k = 0; k < p->n_ports; k++)
		if (p->ports[k].dev == port)
			return true;
	return false;
}

int topo_risky_build(const struct pci_inventory *inv, struct topo_risky *ret)
{
	*ret = (struct topo_risky){};
	for (size_t i = 0; i < inv->n; i++) {
		size_t *v;

		if (!dev_risk(inv, i))
			continue;
		v = reallocarray(ret->idx, ret->n + 1, sizeof(*v));
		if (!v) {
			topo_risky_done(ret);
			return -ENOMEM;
		}
		ret->idx = v;
		ret->idx[ret->n++] = i;
	}
	return 0;
}

void topo_risky_done(struct topo_risky *rk)
{
	free(rk->idx);
	*rk = (struct topo_risky){};
}

const char *topo_port_p2p_risk(const struct pci_inventory *inv, const struct topo_risky *rk,
			       size_t port)
{
	struct topo_path p;

	for (size_t x = 0; x < rk->n; x++)
		for (size_t y = x + 1; y < rk->n; y++) {
			size_t a = rk->idx[x], b = rk->idx[y];

			if (!topo_p2p_risk(inv, a, b))
				continue;
			topo_pair_ports(inv, a, b, &p);
			if (path_has_port(&p, port))
				return dev_risk(inv, a);
		}
	return NULL;
}

const char *topo_acs_bits(uint16_t mask, char *buf, size_t size)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} bits[] = { { TOPO_ACS_RR, "RR" }, { TOPO_ACS_CR, "CR" }, { TOPO_ACS_EC, "EC" } };
	char all[sizeof("RR CR EC")];
	size_t len = 0;

	/* Without a printf: every redirected pair's verdict names the bits of its ports. */
	for (size_t k = 0; k < ARRAY_SIZE(bits); k++) {
		if (!(mask & bits[k].bit))
			continue;
		if (len)
			all[len++] = ' ';
		memcpy(all + len, bits[k].name, 2);
		len += 2;
	}
	if (!len)
		len = (size_t)(stpcpy(all, "none") - all);
	all[len] = '\0';
	if (len < size)
		memcpy(buf, all, len + 1);
	else
		snprintf(buf, size, "%s", all);
	return buf;
}

static const char *const topo_dist_table[_TOPO_DIST_MAX] = {
	[TOPO_PIX] = "PIX",   [TOPO_PXB] = "PXB", [TOPO_PHB] = "PHB",
	[TOPO_NODE] = "NODE", [TOPO_SYS] = "SYS",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(topo_dist, enum topo_dist, "?");

const char *topo_kind_to_string(enum topo_kind k)
{
	return k == TOPO_GPU ? "GPU" : "NIC";
}
