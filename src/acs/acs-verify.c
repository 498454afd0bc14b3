// SPDX-License-Identifier: GPL-2.0-or-later
#include "acs/acs-config.h"
#include "acs/acs-verify.h"
#include "acs/isolation.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "topo/topo.h"

/* "x0x00xx: RR,CR,EC off" */
static void describe_mask(const struct acs_mask *m, char *buf, size_t size)
{
	char text[ACS_MASK_BITS + 1], off[64], on[64];
	size_t n;

	acs_mask_format(m, text);
	acs_ctrl_describe(m->clear, off, sizeof(off));
	acs_ctrl_describe(m->set, on, sizeof(on));
	n = snprintf(buf, size, "%s:", text);
	if (m->clear && n < size)
		n += snprintf(buf + n, size - n, " %s off", off);
	if (m->set && n < size)
		n += snprintf(buf + n, size - n, "%s %s on", m->clear ? ";" : "", on);
	if (!m->clear && !m->set && n < size)
		snprintf(buf + n, size - n, " leave all");
}

/* Name the boot-time form only where the kernel understands one for this mask. */
static const char *drift_remedy(bool apply_enabled, bool boot_form)
{
	if (apply_enabled && boot_form)
		return "hostprep apply (hotplug, reset, resume and driver bind rewrite ACS; "
		       "'hostprep acs cmdline' gives the boot-time form)";
	if (apply_enabled)
		return "hostprep apply (hotplug, reset, resume and driver bind rewrite ACS)";
	if (boot_form)
		return "set Apply=yes in [Host] (e.g. "
		       "/etc/hostprep/hostprep.conf.d/50-apply.conf), "
		       "then hostprep apply; or boot with the argument from hostprep acs cmdline";
	return "set Apply=yes in [Host] (e.g. /etc/hostprep/hostprep.conf.d/50-apply.conf), then "
	       "hostprep apply";
}

const char *acs_write_refused_remedy(const char *osrelease)
{
	/* Any boot-time form at all (config_acs 6.11+, disable_acs_redir 4.19+): acs cmdline says
	 * which. */
	if (kernel_acs_param_assumed(osrelease) != KERNEL_ACS_NONE)
		return "config space cannot be written at runtime here: boot with the argument "
		       "from 'hostprep acs cmdline' (it says when this kernel has no boot-time "
		       "form for the policy), or boot without kernel lockdown";
	return "config space cannot be written at runtime here: boot without kernel lockdown "
	       "(it follows Secure Boot), or a kernel with pci=config_acs= (6.11+)";
}

/* This run's own result of a check on a port, if any. */
/*
 * What this run did to ports before verify: its acs.write failures and acs.revert
 * passes, sorted by object for lookup (a 4096-function host has thousands of targets;
 * scanning every result per port was quadratic). The strings are the results' own: they
 * stay put when verify's results_add() moves the array.
 */
struct prior_entry {
	const char *object, *check, *remedy;
	size_t order;
};

struct prior {
	struct prior_entry *v;
	size_t n;
};

static bool prior_kind(const struct result *res)
{
	return (res->verdict == VERDICT_FAIL && streq(res->check, "acs.write")) ||
	       (res->verdict == VERDICT_PASS && streq(res->check, "acs.revert"));
}

static int cmp_prior(const void *a, const void *b)
{
	const struct prior_entry *x = a, *y = b;
	int c = strcmp(x->object, y->object);

	if (!c)
		c = strcmp(x->check, y->check);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int prior_build(const struct results *rs, struct prior *ret)
{
	*ret = (struct prior){};
	for (size_t i = 0; i < rs->n; i++) {
		const struct result *res = &rs->items[i];

		if (!prior_kind(res))
			continue;
		if (!ret->v) {
			ret->v = calloc(rs->n, sizeof(*ret->v));
			if (!ret->v)
				return -ENOMEM;
		}
		ret->v[ret->n++] = (struct prior_entry){ .object = res->object,
							 .check = res->check,
							 .remedy = res->remedy,
							 .order = i };
	}
	if (ret->n)
		qsort(ret->v, ret->n, sizeof(*ret->v), cmp_prior);
	return 0;
}

static void prior_done(struct prior *p)
{
	free(p->v);
}

/* The port's first (in result order) result of that check, or NULL. */
static const struct prior_entry *find_result(const struct prior *p, const char *check,
					     const char *addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) { /* the first entry not below (addr, check, 0) */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->v[mid].object, addr);

		if (!c)
			c = strcmp(p->v[mid].check, check);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n && streq(p->v[lo].object, addr) && streq(p->v[lo].check, check))
		return &p->v[lo];
	return NULL;
}

/*
 * One cause, one remedy: a port this run just failed to write keeps the write's remedy,
 * and one that revert restored on purpose is no drift. Only otherwise did something
 * else (hotplug, reset, resume, driver bind) rewrite ACS.
 */
static const char *port_remedy(const struct prior *prior, const char *addr, bool apply_enabled,
			       bool boot_form)
{
	const struct prior_entry *w = find_result(prior, "acs.write", addr);

	if (w)
		return w->remedy ? w->remedy : "see the acs.write result for this port";
	if (find_result(prior, "acs.revert", addr))
		return "restored on purpose by hostprep revert; hostprep apply applies the "
		       "policy again";
	return drift_remedy(apply_enabled, boot_form);
}

/* A selected port that does not answer or vanished: FAIL, never skip, never "no ACS". */
static int verify_broken(const struct pci_dev_info *d, const char *expected, struct results *rs)
{
	_cleanup_(freep) char *remedy = NULL;

	if (asprintf(&remedy,
		     "check dmesg for AER/DPC and hotplug messages about %s and 'lspci -vv -s %s'; "
		     "once it answers again (rescan or reboot), run hostprep check",
		     d->addr, d->addr) < 0)
		return -ENOMEM;
	if (d->state == PCI_DEV_DEAD)
		return results_add(
			rs, &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs",
				    .object = d->addr,
				    .expected = expected,
				    .actual = "device not responding: config space reads 0xffff "
					      "(surprise removal, link down or powered off)",
				    .remedy = remedy,
				    .action = ACTION_HARDWARE,
			    });
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs",
				    .object = d->addr,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_HARDWARE,
			    },
			    "device gone: listed in sysfs but its config space cannot be read (%s)",
			    strerror(-d->err));
}

/*
 * A port the policy relaxes above a function bound to vfio-pci, without AllowVFIO=yes:
 * not written (or relaxed by someone else), and a fail either way: the VM's device was
 * isolated by these bits when its IOMMU group was formed.
 */
static int verify_refused(const struct acs_target *t, const struct pci_dev_info *d,
			  const char *expected, const char *bits, struct results *rs)
{
	_cleanup_(freep) char *remedy = NULL;
	char groups[256], below[512];

	acs_merged_format(t, groups, sizeof(groups));
	acs_vfio_format(t, below, sizeof(below));
	if (asprintf(&remedy,
		     "relaxing ACS here lets a guest's device reach another guest's (or the "
		     "host's) memory: unbind vfio-pci below, or Exclude= this port from rule %s; "
		     "if the VMs below may share one IOMMU group, set AllowVFIO=yes in "
		     "[" ACS_PREFIX "%s]",
		     t->first->name, t->first->name) < 0)
		return -ENOMEM;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs",
				    .object = t->addr,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_CONFIG,
			    },
			    "0x%04x (%s) %s: %s%s%s%s", d->acs_ctrl, bits,
			    acs_ctrl_matches(d->acs_ctrl, d->acs_cap, &t->mask) ? "relaxed already"
										: "not written",
			    below, t->n_merged ? "; IOMMU groups " : "", groups,
			    t->n_merged ? " would become one" : "");
}

/*
 * "; IOMMU groups 14, 15 below become one" for a port that relaxes above several groups
 * ("would become one" while it is not relaxed yet).
 */
static void merged_note(const struct acs_target *t, bool done, char *buf, size_t size)
{
	char groups[256];

	buf[0] = '\0';
	if (!t->n_merged)
		return;
	acs_merged_format(t, groups, sizeof(groups));
	snprintf(buf, size, "; IOMMU groups %s below %s one", groups,
		 done ? "become" : "would become");
}

/*
 * A port whose Control is not what the policy wants. Still redirecting the P2P of parts
 * whose vendor documents more than slowness (pci/accel.h: Arc copies that return
 * all-ones), the remedy says so.
 */
static int verify_differs(const struct acs_target *t, const struct pci_inventory *inv,
			  const struct topo_risky *risky, const struct pci_dev_info *d,
			  const char *expected, const char *bits, const char *remedy,
			  struct results *rs)
{
	const char *risk = (d->acs_ctrl & ACS_REDIR_BITS)
				   ? topo_port_p2p_risk(inv, risky, (size_t)(d - inv->devs))
				   : NULL;
	_cleanup_(freep) char *both = NULL;
	char note[300];

	if (risk && asprintf(&both, "%s; %s", remedy, risk) < 0)
		return -ENOMEM;
	merged_note(t, false, note, sizeof(note));
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs",
				    .object = t->addr,
				    .expected = expected,
				    .remedy = both ? both : remedy,
				    .action = ACTION_APPLY,
			    },
			    "0x%04x (%s)%s", d->acs_ctrl, bits, note);
}

/* What every port's verdict is judged with, found once per verify. */
struct verify_ctx {
	bool apply_enabled;
	const char *osrelease;
	enum pci_limited_cause why;
	struct prior prior;
	struct topo_risky risky;
};

static void verify_ctx_done(struct verify_ctx *c)
{
	prior_done(&c->prior);
	topo_risky_done(&c->risky);
}

static int verify_one(const struct acs_target *t, const struct pci_inventory *inv,
		      const struct verify_ctx *c, struct results *rs)
{
	const struct pci_dev_info *d = pci_inventory_find(inv, t->addr);
	char expected[96], bits[64], note[300];

	describe_mask(&t->mask, expected, sizeof(expected));
	if (!d)
		return results_add(
			rs, &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs",
				    .object = t->addr,
				    .expected = expected,
				    .actual = "device gone (removed or renumbered since the plan)",
				    .action = ACTION_INSPECT,
			    });
	if (d->state != PCI_DEV_OK)
		return verify_broken(d, expected, rs);
	if (d->cfg == PCI_CFG_LIMITED)
		return results_add(rs, &(const struct result_spec){
					       .verdict = VERDICT_UNKNOWN,
					       .check = "acs",
					       .object = t->addr,
					       .expected = expected,
					       .actual = pci_limited_text(c->why)->actual,
					       .remedy = pci_limited_text(c->why)->remedy,
					       .action = ACTION_INSPECT,
				       });
	if (d->cfg == PCI_CFG_NO_EXT || d->cfg == PCI_CFG_EXT_BROKEN)
		return results_add(rs, &(const struct result_spec){
					       .verdict = VERDICT_UNKNOWN,
					       .check = "acs",
					       .object = t->addr,
					       .expected = expected,
					       .actual = pci_unreadable_text(d)->actual,
					       .remedy = pci_unreadable_text(d)->remedy,
					       .action = ACTION_INSPECT,
				       });
	if (!d->has_acs)
		return results_add(
			rs, &(const struct result_spec){
				    .verdict = VERDICT_SKIP,
				    .check = "acs",
				    .object = t->addr,
				    .expected = expected,
				    .actual = "no ACS capability on this port: nothing to change",
				    .action = ACTION_NONE,
			    });
	acs_ctrl_describe(d->acs_ctrl, bits, sizeof(bits));
	if (t->refused)
		return verify_refused(t, d, expected, bits, rs);
	if (!acs_ctrl_matches(d->acs_ctrl, d->acs_cap, &t->mask))
		return verify_differs(t, inv, &c->risky, d, expected, bits,
				      port_remedy(&c->prior, t->addr, c->apply_enabled,
						  kernel_has_boot_form(c->osrelease, &t->mask)),
				      rs);
	merged_note(t, true, note, sizeof(note));
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = "acs",
				    .object = t->addr,
				    .expected = expected,
			    },
			    "0x%04x (%s)%s", d->acs_ctrl, bits, note);
}

#define IDLE_IDS_MAX 6

/* "1000:c030 x16, 8086:352a x5": the PCI bridges of this host by ID, most first. */
static int bridge_ids(const struct pci_inventory *inv, struct strbuf *b)
{
	struct {
		uint16_t vendor, device;
		size_t n;
	} ids[IDLE_IDS_MAX + 1] = {};
	size_t n_ids = 0, more = 0;

	for (size_t i = 0; i < inv->n; i++) {
		const struct pci_ident *id = &inv->devs[i].id;
		size_t k = 0;

		if (id->class_code >> 8 != 0x0604)
			continue;
		while (k < n_ids && (ids[k].vendor != id->vendor || ids[k].device != id->device))
			k++;
		if (k == n_ids && n_ids == IDLE_IDS_MAX) {
			more++;
			continue;
		}
		ids[k].vendor = id->vendor;
		ids[k].device = id->device;
		ids[k].n++;
		n_ids += k == n_ids;
	}
	if (!n_ids)
		strbuf_printf(b, "no PCI bridge on this host");
	for (size_t k = 0; k < n_ids; k++)
		strbuf_printf(b, "%s%04x:%04x x%zu", k ? ", " : "PCI bridges here: ", ids[k].vendor,
			      ids[k].device, ids[k].n);
	if (more)
		strbuf_printf(b, " and %zu more", more);
	return b->oom ? -ENOMEM : 0;
}

/*
 * A rule that selects no port: the vendor's own (its p2p: rule on a host without switches)
 * or one that says AllowNone=yes is a skip; an admin's is a fail, never a silent no-op:
 * a typo or the wrong host leaves P2P going through the root complex.
 */
static int verify_idle_one(const struct plan_idle *idle, const struct pci_inventory *inv,
			   struct results *rs)
{
	_cleanup_(strbuf_done) struct strbuf b = {};
	char object[64], actual[128];

	snprintf(object, sizeof(object), "rule %s", idle->rule->name);
	if (idle->functions)
		snprintf(actual, sizeof(actual),
			 "selects no port on this host: %zu function%s, none a port or with ACS",
			 idle->functions, idle->functions == 1 ? "" : "s");
	else
		snprintf(actual, sizeof(actual), "selects no port on this host");
	if (idle->rule->allow_none) {
		if (idle->rule->allow_none_at.file)
			strncat(actual, " (AllowNone=yes)", sizeof(actual) - strlen(actual) - 1);
		return results_add(rs, &(const struct result_spec){
					       .verdict = VERDICT_SKIP,
					       .check = "acs",
					       .object = object,
					       .expected = "selects ports",
					       .actual = actual,
					       .action = ACTION_NONE,
				       });
	}
	strbuf_printf(&b, "fix Select= of [" ACS_PREFIX "%s] (", idle->rule->name);
	if (bridge_ids(inv, &b) < 0)
		return -ENOMEM;
	strbuf_printf(&b,
		      "%s); where this config is shared with hosts it does not fit, set "
		      "AllowNone=yes in the rule",
		      idle->functions ? "; upstream:SELECTOR takes the ports above devices, "
					"p2p:A~B those between pairs"
				      : "");
	if (b.oom)
		return -ENOMEM;
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_FAIL,
				       .check = "acs",
				       .object = object,
				       .expected = "selects ports",
				       .actual = actual,
				       .remedy = b.s,
				       .action = ACTION_APPLY,
			       });
}

static int verify_idle(const struct plan *p, const struct pci_inventory *inv, struct results *rs)
{
	for (size_t i = 0; i < p->n_idle; i++) {
		int r = verify_idle_one(&p->idle[i], inv, rs);

		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Nobody declared this expectation: only the vendor's rule selects the port and
 * hostprep may not change it (Apply=no). Its result is advice, so a fresh install
 * on a stock host neither fails its unit nor closes a gate on it.
 */
static int make_advisory(struct results *rs)
{
	struct result *res = &rs->items[rs->n - 1];
	char *remedy = NULL;

	if (res->verdict != VERDICT_FAIL && res->verdict != VERDICT_UNKNOWN)
		return 0;
	if (asprintf(&remedy,
		     "%s%s(a warning only: no admin declared this vendor rule; declare it in "
		     "/etc/hostprep/hostprep.conf.d/, or set Apply=yes, to make it count for "
		     "readiness)",
		     strempty(res->remedy), res->remedy ? " " : "") < 0)
		return -ENOMEM;
	results_set_last_remedy(rs, remedy);
	res->verdict = VERDICT_WARN;
	return 0;
}

/*
 * Next to the ports' results: where the IOMMU translates the DMA of the functions below
 * them (DMA or DMA-FQ groups), GPUDirect RDMA and GPU peer-to-peer do not work whatever ACS
 * allows (the NIC's and GPU's bus addresses are not each other's physical addresses). A
 * warning: the mode is [IOMMU] Expect='s business, this only says what it costs here.
 */
static int verify_translated(const struct plan *p, struct results *rs)
{
	size_t n = 0;
	const char *first = NULL;

	for (size_t i = 0; i < p->n_targets; i++)
		if (p->targets[i].translated) {
			first = first ? first : p->targets[i].addr;
			n++;
		}
	if (!n)
		return 0;
	return results_addf(
		rs,
		&(const struct result_spec){
			.verdict = VERDICT_WARN,
			.check = "acs.iommu",
			.object = "host",
			.expected =
				"no IOMMU translation below the selected ports (GPUDirect RDMA)",
			.remedy = "iommu=pt on the kernel command line (or the IOMMU off) for "
				  "GPUDirect RDMA and GPU peer-to-peer; [IOMMU] Expect=passthrough "
				  "checks it",
			.action = ACTION_CONFIG,
		},
		"translated (DMA or DMA-FQ IOMMU groups) below %zu selected port%s (first %s): "
		"GPUDirect RDMA peer-to-peer does not work there",
		n, n == 1 ? "" : "s", first);
}

int acs_verify(const struct plan *p, const struct pci_inventory *inv, bool apply_enabled,
	       const char *osrelease, struct results *rs)
{
	_cleanup_(verify_ctx_done) struct verify_ctx c = {
		.apply_enabled = apply_enabled,
		.osrelease = osrelease,
		.why = pci_limited_cause(),
	};
	int r = prior_build(rs, &c.prior);

	if (r >= 0)
		r = topo_risky_build(inv, &c.risky);
	if (r >= 0)
		r = verify_idle(p, inv, rs);
	for (size_t i = 0; i < p->n_targets && r >= 0; i++) {
		const struct acs_target *t = &p->targets[i];

		r = verify_one(t, inv, &c, rs);
		if (r >= 0 && !apply_enabled && !t->declared)
			r = make_advisory(rs);
	}
	return r < 0 ? r : verify_translated(p, rs);
}
