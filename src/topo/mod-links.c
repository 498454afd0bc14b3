// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The links module ([Links]): every hop from the selected endpoints up to their root ports
 * against what both ends can do. Check only; it reads at verify time, after the other
 * modules wrote, like a fresh `check` would.
 */
#include "core/log.h"
#include "run/run.h"
#include "topo/links-config.h"
#include "topo/links.h"
#include "topo/topo.h"

#define CHECK_LINK "pcie.link"

static const char remedy_degraded[] =
	"lspci -vv -s %s (LnkCap vs LnkSta); reseat the card or its riser and check the "
	"slot's lane setting (bifurcation) in the firmware; a link trains again only on a "
	"reset or reboot";
static const char remedy_slow[] =
	"lspci -vv -s %s (LnkSta); check the slot's speed setting in the firmware, the riser "
	"or retimer; a link trains again only on a reset or reboot";
static const char remedy_idle[] =
	"GPUs lower their link speed when idle (power saving): compare under load "
	"(nvidia-smi -q -d PCIE, or lspci -vv -s %s while busy); if it stays low, check the "
	"slot's speed setting in the firmware and the riser";

static enum verdict degraded_verdict(enum links_degraded d)
{
	switch (d) {
	case LINKS_DEGRADED_FAIL:
		return VERDICT_FAIL;
	case LINKS_DEGRADED_IGNORE:
		return VERDICT_SKIP;
	default:
		return VERDICT_WARN;
	}
}

/* A GPU or accelerator: the kind that lowers its link speed when idle. */
static bool idles_slow(const struct pci_inventory *inv, const char *addr)
{
	const struct pci_dev_info *d = pci_inventory_find(inv, addr);
	uint32_t base = d ? d->id.class_code >> 16 : 0;

	return base == 0x03 || base == 0x12 || (d && d->id.class_code >> 8 == 0x0b40);
}

static int hop_result(struct run *run, const struct pci_inventory *inv, const struct link_hop *h)
{
	enum verdict bad = degraded_verdict(links_config_get(run->cfg)->degraded);
	char text[256], expected[64], remedy[512];
	const char *fmt = NULL;
	enum verdict v = VERDICT_PASS;

	link_hop_describe(h, text, sizeof(text));
	snprintf(expected, sizeof(expected), "%s x%d (what both ends can do)",
		 link_gen_to_string(h->cap_gen), h->cap_width);
	switch (h->state) {
	case HOP_OK:
		break;
	case HOP_DEGRADED:
		v = bad, fmt = remedy_degraded;
		break;
	case HOP_SLOW:
		/* idle downtraining is normal: a warning at most, never a failure */
		if (idles_slow(inv, h->dev))
			v = bad == VERDICT_SKIP ? VERDICT_SKIP : VERDICT_WARN, fmt = remedy_idle;
		else
			v = bad, fmt = remedy_slow;
		break;
	case HOP_UNKNOWN: /* ignore is about degraded hops: an unread one is never skipped */
		v = bad == VERDICT_FAIL ? VERDICT_UNKNOWN : VERDICT_WARN;
		snprintf(expected, sizeof(expected), "a readable link state");
		break;
	}
	if (fmt)
		snprintf(remedy, sizeof(remedy), fmt, h->dev);
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = v,
						  .check = CHECK_LINK,
						  .object = h->dev,
						  .expected = expected,
						  .actual = text,
						  .remedy = fmt ? remedy : NULL,
						  .action = ACTION_HARDWARE,
					  });
}

/* Select=, or else the GPUs, accelerators and NICs as `hostprep topology` classifies them. */
static int selected(const struct run *run, const struct pci_inventory *inv, size_t i)
{
	const struct links_config *lc = links_config_get(run->cfg);
	int k;

	if (lc->n_select)
		return links_config_selects(lc, &inv->devs[i].id);
	k = topo_classify_at(run->root, topo_config_get(run->cfg), inv, i);
	return k == -ENOMEM ? k : k >= 0;
}

/*
 * An admin's Select= matched endpoints, but no hop is on their paths (integrated functions
 * on a root bus, conventional PCI): it checks nothing, and fails as one that matches
 * nothing does. The built-in sets stay quiet there, as before (a GPU on a root bus).
 */
static int no_links(struct run *run, size_t endpoints)
{
	return results_addf(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_FAIL,
			.check = CHECK_LINK,
			.object = "host",
			.expected = "the [Links] endpoints",
			.remedy = "fix [Links] Select=: it selects no function behind a "
				  "PCIe link",
			.action = ACTION_CONFIG,
		},
		"%zu function%s selected, none behind a PCIe link (integrated on a root "
		"bus, or conventional PCI)",
		endpoints, endpoints == 1 ? "" : "s");
}

static int links_judge(struct run *run, struct pci_backend *b, struct pci_inventory *inv)
{
	_cleanup_(link_collect_done) struct link_collect c = {};
	size_t endpoints = 0;
	int r;

	r = link_collect_init(&c, run->root, inv);
	if (r < 0)
		return r;
	for (size_t i = 0; i < inv->n; i++) {
		const struct pci_dev_info *d = &inv->devs[i];

		r = d->id.class_code >> 8 == 0x0604 ? 0 : selected(run, inv, i);
		if (r < 0)
			return r;
		if (r == 0)
			continue;
		endpoints++;
		/* the PCIe port types on the path, when config space gives them */
		r = topo_load_path_caps(b, inv, i);
		if (r == -ENOMEM)
			return r;
		r = link_collect_add(&c, i);
		if (r < 0)
			return r;
	}
	/* The built-in sets may be empty; an admin's Select= that matches nothing fails. */
	if (endpoints == 0 && links_config_get(run->cfg)->n_select)
		return results_add(&run->results,
				   &(const struct result_spec){
					   .verdict = VERDICT_FAIL,
					   .check = CHECK_LINK,
					   .object = "host",
					   .expected = "the [Links] endpoints",
					   .actual = "Select= matches no PCI function",
					   .remedy = "fix [Links] Select= (address, vendor:device "
						     "or class:), or remove it to check the GPUs "
						     "and NICs hostprep topology finds",
					   .action = ACTION_CONFIG,
				   });
	if (endpoints == 0)
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_SKIP,
							  .check = CHECK_LINK,
							  .object = "host",
							  .expected = "the [Links] endpoints",
							  .actual = "no PCI function matches",
							  .action = ACTION_NONE,
						  });
	if (c.n == 0 && links_config_get(run->cfg)->n_select)
		return no_links(run, endpoints);
	link_hops_sort(c.hops, c.n);
	for (size_t i = 0; i < c.n; i++) {
		r = hop_result(run, inv, &c.hops[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool links_wants_pci(const struct run *run)
{
	return links_config_get(run->cfg); /* no [Links] section: nothing read, nothing reported */
}

/* The run's PCI inventory at verify time: after an apply, the one read again. */
static int links_verify(struct run *run)
{
	if (!links_wants_pci(run))
		return 0;
	if (run->pci_err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK_LINK,
					    .object = "host",
					    .expected = "readable PCI devices",
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s", strerror(-run->pci_err));
	return links_judge(run, run->pci, &run->pci_inv);
}

/* The topology's classification and each endpoint's own PCIe type (topo_wants_own_caps()). */
static unsigned links_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_own_caps(info, (void *)topo_config_get(run->cfg));
}

const struct run_module run_module_links = {
	.name = "links",
	.wants_pci = links_wants_pci,
	.pci_wants_caps = links_pci_wants_caps,
	.verify = links_verify,
};
