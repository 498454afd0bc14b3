// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The topology module: [Topology] ExpectP2P= as results ("topology.p2p"), one per pair.
 * Check only; it judges the run's PCI inventory at verify time, read again after an
 * apply that wrote, so it sees the ACS Control words the acs module left (and the kernel
 * kept).
 */
#include "acs/acs-verify.h"
#include "core/log.h"
#include "run/run.h"
#include "topo/topo.h"

#define CHECK_P2P    "topology.p2p"
#define EXPECTED_P2P "P2P not redirected by ACS"

/*
 * ep[dev]: the endpoint of inventory index dev, or -1; selected[dev]: a port some [ACS:*]
 * rule selects. Both found once per verify, not per pair: a host with thousands of
 * functions has thousands of pairs and ports.
 */
struct pair_index {
	int *ep;
	bool *selected;
};

struct pair_ctx {
	struct run *run;
	const struct topo_view *v;
	const struct topo_expect *e;
	size_t n_pairs;
	const struct pair_index *x;
};

static void pair_index_done(struct pair_index *x)
{
	free(x->ep);
	free(x->selected);
}

/* Index the endpoints and the selected ports (their own "acs" results say what is wrong). */
static int pair_index_build(struct run *run, const struct topo_view *v, struct pair_index *x)
{
	const struct pci_inventory *inv = &v->inv;
	const struct plan *plan = acs_run_plan(run);

	x->ep = malloc((inv->n + 1) * sizeof(*x->ep));
	x->selected = calloc(inv->n + 1, sizeof(*x->selected));
	if (!x->ep || !x->selected)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n; i++)
		x->ep[i] = -1;
	for (size_t i = v->topo.n; i-- > 0;) /* the first endpoint of a device wins */
		x->ep[v->topo.eps[i].dev] = (int)i;
	for (size_t i = 0; i < plan->n_targets; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, plan->targets[i].addr);

		if (d)
			x->selected[d - inv->devs] = true;
	}
	return 0;
}

static const struct topo_endpoint *endpoint_of(const struct pair_ctx *c, size_t dev)
{
	return c->x->ep[dev] >= 0 ? &c->v->topo.eps[c->x->ep[dev]] : NULL;
}

/* An endpoint's label, or the bare address for a device the classification left out. */
static void dev_label(const struct pair_ctx *c, size_t dev, char *buf, size_t size)
{
	const struct topo_endpoint *e = endpoint_of(c, dev);

	if (e)
		topo_endpoint_label(c->v, e, buf, size);
	else
		snprintf(buf, size, "%s", c->v->inv.devs[dev].addr);
}

/* With NUMA when both are endpoints (their numa_node was read), else the PCI part. */
static enum topo_dist pair_distance(const struct pair_ctx *c, size_t a, size_t b)
{
	const struct topo_endpoint *ea = endpoint_of(c, a), *eb = endpoint_of(c, b);

	if (ea && eb)
		return topo_endpoint_distance(&c->v->inv, ea, eb);
	return topo_pci_distance(&c->v->inv, a, b);
}

static enum verdict p2p_verdict(enum topo_p2p p)
{
	switch (p) {
	case TOPO_P2P_DIRECT:
		return VERDICT_PASS;
	case TOPO_P2P_REDIRECTED:
		return VERDICT_FAIL;
	case TOPO_P2P_UNKNOWN:
		return VERDICT_UNKNOWN;
	case TOPO_P2P_ROOT_COMPLEX:
		break;
	}
	return VERDICT_WARN; /* not ACS's to decide: the expectation cannot be checked here */
}

/*
 * The redirecting ports, for the remedy: those a rule selects already (their "acs" result
 * names the cause and the remedy) into sel, the others into other: "0000:18:00.0 ...".
 */
static void redirecting_ports(const struct pair_ctx *c, const struct topo_path *p, char *sel,
			      char *other, size_t size)
{
	size_t ls = 0, lo = 0;

	sel[0] = other[0] = '\0';
	for (size_t k = 0; k < p->n_ports; k++) {
		const char *addr = c->v->inv.devs[p->ports[k].dev].addr;

		if (p->ports[k].state != TOPO_ACS_KNOWN || !p->ports[k].redirect)
			continue;
		if (c->x->selected[p->ports[k].dev])
			ls += snprintf(sel + ls, ls < size ? size - ls : 0, "%s%s", ls ? " " : "",
				       addr);
		else
			lo += snprintf(other + lo, lo < size ? size - lo : 0, "%s%s", lo ? " " : "",
				       addr);
	}
}

/*
 * One cause, one message: a port a rule selects already has its own "acs" result; point
 * at it instead of asking to select it again. Only unselected ports get the selection advice.
 */
static int redirected_remedy(const struct pair_ctx *c, const struct topo_path *p, char **ret,
			     enum action *action)
{
	char sel[128], other[128];

	redirecting_ports(c, p, sel, other, sizeof(sel));
	/* a port no rule selects is the config's to add; a selected one is apply's to write */
	*action = other[0] ? ACTION_CONFIG : ACTION_APPLY;
	if (sel[0] && other[0])
		return asprintf(ret,
				"see the acs result of %s; select %s in an [ACS:NAME] rule (its "
				"default Mask=x0x00xx clears RR, CR and EC) and run hostprep apply",
				sel, other);
	if (sel[0])
		return asprintf(ret,
				"see the acs result of %s (selected by a rule, not yet as it "
				"wants)",
				sel);
	return asprintf(ret,
			"Select %s in an [ACS:NAME] rule (its default Mask=x0x00xx clears RR, CR "
			"and EC) and run hostprep apply",
			other);
}

/* remedy + "; " + the documented harm of the redirect (pci/accel.h), when there is one. */
static int with_risk(char **remedy, const char *risk)
{
	char *both;

	if (!risk)
		return 0;
	if (asprintf(&both, "%s; %s", *remedy, risk) < 0)
		return -ENOMEM;
	free(*remedy);
	*remedy = both;
	return 0;
}

/* What would make the unreadable ports of an unknown pair readable: the first cause. */
static const char *unknown_remedy(const struct topo_path *p)
{
	for (size_t k = 0; k < p->n_ports; k++) {
		if (p->ports[k].state == TOPO_ACS_NEEDS_ROOT)
			return pci_limited_cause() == PCI_LIMITED_NOT_ROOT
				       ? "Run hostprep check as root"
				       : pci_limited_text(pci_limited_cause())->remedy;
		if (p->ports[k].state == TOPO_ACS_NO_EXT)
			return pci_no_ext_text()->remedy;
	}
	return "check dmesg for AER/DPC and hotplug messages about the port, and lspci -vv";
}

/* The NVLinks joining devices a and b (NV#), when NVML says; 0 none or not known. */
static int pair_nvlink(const struct pair_ctx *c, size_t a, size_t b)
{
	const struct topo_endpoint *ea = endpoint_of(c, a), *eb = endpoint_of(c, b);
	int nv;

	if (!ea || !eb)
		return 0;
	nv = topo_view_nvlink(c->v, (size_t)(ea - c->v->topo.eps), (size_t)(eb - c->v->topo.eps));
	return nv > 0 ? nv : 0;
}

/*
 * A pair NVLink joins: its peer-to-peer traffic goes over NVLink, not through the PCIe
 * switches, so ACS cannot redirect it: direct, with the PCIe path named for the record.
 */
static int nvlink_result(struct pair_ctx *c, const char *object, const char *pcie, size_t a,
			 size_t b, int links)
{
	c->n_pairs++;
	return results_addf(&c->run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = CHECK_P2P,
				    .object = object,
				    .expected = EXPECTED_P2P,
			    },
			    "direct over NVLink (NV%d, NVML); the PCIe path: %s (%s, from "
			    "ExpectP2P=%s)",
			    links, pcie, topo_dist_to_string(pair_distance(c, a, b)), c->e->text);
}

static int pair_result(struct pair_ctx *c, size_t a, size_t b)
{
	_cleanup_(freep) char *verdict = NULL, *object = NULL, *remedy = NULL;
	char la[TOPO_NAME_MAX + 24], lb[TOPO_NAME_MAX + 24];
	/* across host bridges: where the cards sit decides, not ACS */
	enum action action = ACTION_HARDWARE;
	const char *cause = "placement";
	struct topo_path p;
	int r, links;

	topo_pair_ports(&c->v->inv, a, b, &p);
	r = topo_path_describe(c->v, &p, &verdict);
	if (r < 0)
		return r;
	dev_label(c, a, la, sizeof(la));
	dev_label(c, b, lb, sizeof(lb));
	if (asprintf(&object, "%s \u2194 %s", la, lb) < 0)
		return -ENOMEM;
	links = pair_nvlink(c, a, b);
	if (links)
		return nvlink_result(c, object, verdict, a, b, links);
	if (p.p2p == TOPO_P2P_REDIRECTED) {
		cause = "redirected";
		if (redirected_remedy(c, &p, &remedy, &action) < 0 ||
		    with_risk(&remedy, topo_p2p_risk(&c->v->inv, a, b)) < 0)
			return -ENOMEM;
	}
	if (p.p2p == TOPO_P2P_UNKNOWN) {
		action = ACTION_INSPECT;
		cause = "unreadable";
		remedy = strdup(unknown_remedy(&p));
		if (!remedy)
			return -ENOMEM;
	}
	c->n_pairs++;
	return results_addf(&c->run->results,
			    &(const struct result_spec){
				    .verdict = p2p_verdict(p.p2p),
				    .check = CHECK_P2P,
				    .object = object,
				    .expected = EXPECTED_P2P,
				    .remedy = remedy,
				    .action = action,
				    .cause = cause,
			    },
			    "%s (%s, from ExpectP2P=%s)", verdict,
			    topo_dist_to_string(pair_distance(c, a, b)), c->e->text);
}

/* Every GPU with the NIC or NICs nearest to it (all of those at the smallest class). */
static int expect_nearest(struct pair_ctx *c)
{
	const struct topology *t = &c->v->topo;
	int r;

	for (size_t i = 0; i < t->n; i++) {
		enum topo_dist best = _TOPO_DIST_MAX;

		if (t->eps[i].kind != TOPO_GPU)
			continue;
		for (size_t j = 0; j < t->n; j++)
			if (topo_nearest_candidate(t, j)) {
				enum topo_dist d = topo_ep_distance(t, &c->v->inv, i, j);

				best = d < best ? d : best;
			}
		for (size_t j = 0; j < t->n; j++) {
			if (!topo_nearest_candidate(t, j) ||
			    topo_ep_distance(t, &c->v->inv, i, j) != best)
				continue;
			r = pair_result(c, t->eps[i].dev, t->eps[j].dev);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Every GPU pair that meets below a switch: across a host bridge ACS has no say. */
static int expect_gpu_gpu(struct pair_ctx *c)
{
	const struct topology *t = &c->v->topo;
	int r;

	for (size_t i = 0; i < t->n; i++)
		for (size_t j = i + 1; j < t->n; j++) {
			if (t->eps[i].kind != TOPO_GPU || t->eps[j].kind != TOPO_GPU ||
			    topo_ep_distance(t, &c->v->inv, i, j) > TOPO_PXB) /* NUMA: NODE/SYS */
				continue;
			r = pair_result(c, t->eps[i].dev, t->eps[j].dev);
			if (r < 0)
				return r;
		}
	return 0;
}

static bool matches(const struct selector *s, const struct pci_dev_info *d)
{
	return selector_match_ident(s, &d->id);
}

/* SELECTOR~SELECTOR: every pair of two distinct functions, each unordered pair once. */
static int expect_pair(struct pair_ctx *c, struct pci_backend *b, struct pci_inventory *inv)
{
	/* each side's matches once, not per pair */
	_cleanup_(freep) bool *ma = calloc(inv->n + 1, sizeof(*ma));
	_cleanup_(freep) bool *mb = calloc(inv->n + 1, sizeof(*mb));
	int r;

	if (!ma || !mb)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n; i++) {
		ma[i] = matches(&c->e->a, &inv->devs[i]);
		mb[i] = matches(&c->e->b, &inv->devs[i]);
	}
	for (size_t i = 0; i < inv->n; i++) {
		if (!ma[i])
			continue;
		for (size_t j = 0; j < inv->n; j++) {
			if (i == j || !mb[j] || (j < i && ma[j] && mb[i]))
				continue;
			/* Devices outside the endpoint set: their paths' capabilities too. */
			(void)topo_load_path_caps(b, inv, i);
			(void)topo_load_path_caps(b, inv, j);
			r = pair_result(c, i, j);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* An admin's Accelerators=/NICs= list the pair kind uses that matches no device. */
static const char *empty_list(const struct pair_ctx *c)
{
	const struct topo_config *tc = topo_config_get(c->run->cfg);

	if (tc->n_accel && !c->v->topo.n_kind[TOPO_GPU])
		return "Accelerators= matches no device";
	if (c->e->kind == TOPO_EXPECT_GPU_NIC_NEAREST && tc->n_nics && !c->v->topo.n_kind[TOPO_NIC])
		return "NICs= matches no device";
	return NULL;
}

static int no_pair(struct pair_ctx *c)
{
	const char *empty = c->e->kind == TOPO_EXPECT_PAIR ? NULL : empty_list(c);
	const char *why = c->e->kind == TOPO_EXPECT_PAIR ? "the selectors match no pair of devices"
			  : empty			 ? empty
			  : c->e->kind == TOPO_EXPECT_GPU_GPU
				  ? "no GPU pair meets below a PCIe switch"
				  : "no GPU with a NIC";
	/* A selector that matches nothing is a config mistake; the built-in sets may be empty. */
	enum verdict v = c->e->kind == TOPO_EXPECT_PAIR || empty ? VERDICT_FAIL : VERDICT_SKIP;

	return results_addf(&c->run->results,
			    &(const struct result_spec){
				    .verdict = v,
				    .check = CHECK_P2P,
				    .object = "host",
				    .expected = EXPECTED_P2P,
				    .action = ACTION_INSPECT,
			    },
			    "%s (ExpectP2P=%s)", why, c->e->text);
}

static int expect_one(struct run *run, struct topo_view *v, const struct pair_index *x,
		      const struct topo_expect *e)
{
	struct pair_ctx c = { .run = run, .v = v, .e = e, .x = x };
	int r;

	switch (e->kind) {
	case TOPO_EXPECT_GPU_NIC_NEAREST:
		r = expect_nearest(&c);
		break;
	case TOPO_EXPECT_GPU_GPU:
		r = expect_gpu_gpu(&c);
		break;
	default:
		r = expect_pair(&c, v->pci, &v->inv);
		break;
	}
	if (r >= 0 && c.n_pairs == 0)
		r = no_pair(&c);
	return r;
}

static bool topo_wants_pci(const struct run *run)
{
	return topo_config_get(run->cfg) && topo_config_get(run->cfg)->n_expect > 0;
}

static unsigned topo_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_caps(info, (void *)topo_config_get(run->cfg));
}

/* It reads the run's inventory at verify time: after an apply, the one read again. */
static int topo_verify_step(struct run *run)
{
	const struct topo_config *tc = topo_config_get(run->cfg);
	_cleanup_(pair_index_done) struct pair_index x = {};
	struct topo_view *v;
	int r;

	if (!topo_wants_pci(run))
		return 0; /* no expectation: nothing read, nothing reported */
	r = topo_run_nvlink(run, true, &v);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK_P2P,
					    .object = "host",
					    .expected = EXPECTED_P2P,
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s", strerror(-r));
	r = pair_index_build(run, v, &x);
	for (size_t i = 0; r >= 0 && i < tc->n_expect; i++)
		r = expect_one(run, v, &x, &tc->expect[i]);
	return r;
}

const struct run_module run_module_topology = {
	.name = "topology",
	.wants_pci = topo_wants_pci,
	.pci_wants_caps = topo_pci_wants_caps,
	.verify = topo_verify_step,
};
