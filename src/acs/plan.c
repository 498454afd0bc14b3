// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <limits.h>

#include "acs/acs-verify.h"
#include "acs/isolation.h"
#include "core/emit.h"
#include "core/json-util.h"
#include "core/log.h"
#include "acs/plan.h"
#include "topo/topo.h"
#include "core/string-table.h"

enum pick {
	PICK_UPSTREAM = 1,
	PICK_EXPLICIT = 2,
	PICK_P2P = 4,
};

/*
 * A port on the way up from an endpoint counts when it has (or may have)
 * ACS: one we cannot read, or one that does not answer, is reported rather
 * than silently left out.
 */
static bool upstream_candidate(const struct pci_dev_info *p)
{
	return p->has_acs || p->cfg != PCI_CFG_FULL || p->state != PCI_DEV_OK;
}

static void mark_upstream(const struct pci_inventory *inv, size_t i, uint8_t *marks, uint8_t how)
{
	for (int p = inv->devs[i].parent; p >= 0; p = inv->devs[p].parent)
		if (upstream_candidate(&inv->devs[p]))
			marks[p] |= how;
}

/* p2p: names endpoints: a bridge matching A or B is on paths, not at their ends. */
static bool p2p_endpoint(const struct pci_dev_info *d)
{
	return d->id.class_code >> 8 != 0x0604 && d->id.class_code >> 8 != 0x0609;
}

/*
 * p2p:A~B: for every pair (a matching A, b matching B, a != b) that meets below a
 * switch (PIX/PXB), the ports whose ACS decides whether its traffic is redirected
 * (topo_pair_ports(): the two downstream ports where the paths enter the lowest common
 * switch, or the functions of one multi-function device). Root ports never: a pair
 * through the host bridge is the root complex's business, not ACS's.
 */
static void mark_p2p(const struct selector *sel, const struct pci_inventory *inv, uint8_t *marks)
{
	for (size_t a = 0; a < inv->n; a++) {
		if (!p2p_endpoint(&inv->devs[a]) || !selector_match_ident(sel, &inv->devs[a].id))
			continue;
		for (size_t b = 0; b < inv->n; b++) {
			struct topo_path path;

			if (b == a || !p2p_endpoint(&inv->devs[b]) ||
			    !selector_match_peer(sel, &inv->devs[b].id))
				continue;
			topo_pair_ports(inv, a, b, &path);
			if (path.dist != TOPO_PIX && path.dist != TOPO_PXB)
				continue;
			for (size_t k = 0; k < path.n_ports; k++)
				if (upstream_candidate(&inv->devs[path.ports[k].dev]))
					marks[path.ports[k].dev] |= PICK_P2P;
		}
	}
}

static void mark(const struct selector_entry *sels, size_t n, const struct pci_inventory *inv,
		 uint8_t *marks)
{
	for (size_t s = 0; s < n; s++) {
		if (sels[s].sel.p2p) {
			mark_p2p(&sels[s].sel, inv, marks);
			continue;
		}
		for (size_t i = 0; i < inv->n; i++) {
			if (!selector_match_ident(&sels[s].sel, &inv->devs[i].id))
				continue;
			if (sels[s].sel.upstream)
				mark_upstream(inv, i, marks, PICK_UPSTREAM);
			else
				marks[i] |= PICK_EXPLICIT;
		}
	}
}

/*
 * The capabilities p2p: selectors look at (the bridges above their endpoints), read
 * before plan_build() for a scan that reads them only on demand. First error wins.
 */
int plan_load_caps(const struct config *c, struct pci_backend *b, struct pci_inventory *inv)
{
	int r = 0;

	for (size_t k = 0; k < acs_config_get(c)->n_rules; k++) {
		const struct acs_rule *rule = &acs_config_get(c)->rules[k];

		if (!rule->enabled)
			continue;
		for (size_t s = 0; s < rule->n_select + rule->n_exclude; s++) {
			const struct selector *sel =
				s < rule->n_select ? &rule->select[s].sel
						   : &rule->exclude[s - rule->n_select].sel;

			for (size_t i = 0; sel->p2p && i < inv->n; i++) {
				int q;

				if (!selector_match_ident(sel, &inv->devs[i].id) &&
				    !selector_match_peer(sel, &inv->devs[i].id))
					continue;
				q = topo_load_path_caps(b, inv, i);
				if (q < 0 && r == 0)
					r = q;
			}
		}
	}
	return r;
}

static void want_upstream(const struct pci_inventory *inv, size_t i, bool *want)
{
	for (int p = inv->devs[i].parent; p >= 0; p = inv->devs[p].parent)
		want[p] = true;
}

unsigned plan_wants_caps(const struct pci_dev_info *d, void *config)
{
	const struct config *c = config;
	unsigned want = 0;

	for (size_t r = 0; r < acs_config_get(c)->n_rules; r++) {
		const struct acs_rule *rule = &acs_config_get(c)->rules[r];

		if (!rule->enabled)
			continue;
		for (size_t s = 0; s < rule->n_select; s++)
			if (selector_match_ident(&rule->select[s].sel, &d->id))
				want |= rule->select[s].sel.upstream ? PCI_WANT_ABOVE
								     : PCI_WANT_SELF;
	}
	return want;
}

int plan_candidates(const struct config *c, const struct pci_inventory *inv, bool *want)
{
	size_t n = 0;

	for (size_t r = 0; r < acs_config_get(c)->n_rules; r++) {
		const struct acs_rule *rule = &acs_config_get(c)->rules[r];

		if (!rule->enabled)
			continue;
		for (size_t s = 0; s < rule->n_select; s++)
			for (size_t i = 0; i < inv->n; i++) {
				if (!selector_match_ident(&rule->select[s].sel, &inv->devs[i].id))
					continue;
				if (rule->select[s].sel.upstream)
					want_upstream(inv, i, want);
				else
					want[i] = true;
			}
	}
	for (size_t i = 0; i < inv->n; i++)
		n += want[i];
	return n > INT_MAX ? INT_MAX : (int)n;
}

static int append_rule_name(struct acs_target *t, const char *name)
{
	char *s = NULL;

	if (asprintf(&s, "%s%s%s", strempty(t->rules), t->rules ? "," : "", name) < 0)
		return -ENOMEM;
	free(t->rules);
	t->rules = s;
	return 0;
}

static int conflict(const struct acs_target *t, const struct acs_rule *r)
{
	char have[ACS_MASK_BITS + 1], want[ACS_MASK_BITS + 1];

	acs_mask_format(&t->mask, have);
	acs_mask_format(&r->mask, want);
	log_error("%s:%u: rule '%s' (Mask=%s) and rule '%s' at %s:%u (Mask=%s) both select %s and "
		  "force an ACS bit both ways; narrow a Select= or add an Exclude=",
		  r->at.file, r->at.line, r->name, want, t->first->name, t->first->at.file,
		  t->first->at.line, have, t->addr);
	return -EINVAL;
}

static int add_idle(struct plan *p, const struct acs_rule *r, size_t functions)
{
	struct plan_idle *v = reallocarray(p->idle, p->n_idle + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	p->idle = v;
	p->idle[p->n_idle++] = (struct plan_idle){ .rule = r, .functions = functions };
	return 0;
}

/*
 * What makes a rule not idle: a port (a bridge: with or without ACS, its result says), or a
 * function with ACS or whose ACS cannot be read. A rule that picks only endpoints without
 * ACS (Select=10de:* for upstream:10de:*) changes nothing and checks nothing.
 */
static bool pick_counts(const struct pci_dev_info *d)
{
	return !p2p_endpoint(d) || upstream_candidate(d);
}

static int add_rule(const struct acs_rule *r, const struct pci_inventory *inv,
		    struct acs_target *by_dev, struct plan *p)
{
	size_t picked = 0, others = 0;

	_cleanup_(freep) uint8_t *sel = calloc(inv->n + 1, 1);
	_cleanup_(freep) uint8_t *exc = calloc(inv->n + 1, 1);

	if (!sel || !exc)
		return -ENOMEM;
	mark(r->select, r->n_select, inv, sel);
	mark(r->exclude, r->n_exclude, inv, exc);
	for (size_t i = 0; i < inv->n; i++) {
		struct acs_target *t = &by_dev[i];
		int q;

		if (!sel[i] || exc[i])
			continue;
		if (pick_counts(&inv->devs[i]))
			picked++;
		else
			others++;
		if (!t->rules) {
			snprintf(t->addr, sizeof(t->addr), "%s", inv->devs[i].addr);
			t->mask = r->mask;
			t->first = r;
			t->allow_vfio = r->allow_vfio;
		} else if (acs_mask_merge(&t->mask, &r->mask) < 0)
			return conflict(t, r);
		t->declared |= r->declared;
		t->allow_vfio &= r->allow_vfio;
		q = append_rule_name(t, r->name);
		if (q < 0)
			return q;
	}
	return picked ? 0 : add_idle(p, r, others);
}

static int add_action(struct plan *p, const struct pci_dev_info *d, const struct acs_target *t)
{
	uint16_t want = acs_ctrl_target(d->acs_ctrl, d->acs_cap, &t->mask);
	struct acs_action *a;

	if (want == d->acs_ctrl)
		return 0;
	a = reallocarray(p->actions, p->n_actions + 1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	p->actions = a;
	a = &p->actions[p->n_actions++];
	*a = (struct acs_action){
		.off = d->acs_off, .cap = d->acs_cap, .old = d->acs_ctrl, .new = want, .target = t
	};
	snprintf(a->addr, sizeof(a->addr), "%s", d->addr);
	return 0;
}

static void target_state(struct acs_target *t, const struct pci_dev_info *d)
{
	if (d->state == PCI_DEV_GONE) {
		t->state = ACS_PORT_GONE;
		t->err = d->err;
	} else if (d->state == PCI_DEV_DEAD)
		t->state = ACS_PORT_DEAD;
	else if (d->cfg != PCI_CFG_FULL) {
		t->state = ACS_PORT_UNREADABLE;
		t->no_ext = d->cfg == PCI_CFG_NO_EXT;
		t->ext_broken = d->cfg == PCI_CFG_EXT_BROKEN;
	} else if (!d->has_acs)
		t->state = ACS_PORT_NO_ACS;
	else {
		t->state = ACS_PORT_ACS;
		t->off = d->acs_off;
		t->cap = d->acs_cap;
		t->ctrl = d->acs_ctrl;
	}
}

/* Move the selected ports out of the per-device scratch array, in address order. */
static int collect(struct plan *p, const struct pci_inventory *inv, struct acs_target *by_dev)
{
	size_t n = 0;

	for (size_t i = 0; i < inv->n; i++)
		n += by_dev[i].rules != NULL;
	p->targets = calloc(n ? n : 1, sizeof(*p->targets));
	if (!p->targets)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n; i++) {
		struct acs_target *t;
		int r;

		if (!by_dev[i].rules)
			continue;
		t = &p->targets[p->n_targets++];
		*t = by_dev[i];
		by_dev[i].rules = NULL;
		target_state(t, &inv->devs[i]);
		p->n_state[t->state]++;
		p->n_no_ext += t->no_ext;
		p->n_ext_broken += t->ext_broken;
		if (t->state != ACS_PORT_ACS)
			continue;
		r = add_action(p, &inv->devs[i], t);
		if (r < 0)
			return r;
	}
	return 0;
}

static void targets_free(struct acs_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].rules);
		free(t[i].vfio);
		free(t[i].driver_unread);
		free(t[i].merged);
	}
	free(t);
}

int plan_build(const struct config *c, const struct pci_inventory *inv, struct plan *ret)
{
	struct acs_target *by_dev = calloc(inv->n + 1, sizeof(*by_dev));
	struct plan p = {};
	int r = 0;

	if (!by_dev)
		return -ENOMEM;
	for (size_t i = 0; i < acs_config_get(c)->n_rules && r >= 0; i++)
		if (acs_config_get(c)->rules[i].enabled)
			r = add_rule(&acs_config_get(c)->rules[i], inv, by_dev, &p);
	if (r >= 0)
		r = collect(&p, inv, by_dev);
	targets_free(by_dev, inv->n);
	if (r < 0) {
		plan_done(&p);
		return r;
	}
	*ret = p;
	return 0;
}

void plan_done(struct plan *p)
{
	targets_free(p->targets, p->n_targets);
	free(p->actions);
	free(p->refused);
	free(p->idle);
	*p = (struct plan){};
}

static const char *const acs_port_state_table[_ACS_PORT_STATE_MAX] = {
	[ACS_PORT_ACS] = "acs",
	[ACS_PORT_NO_ACS] = "no_acs",
	[ACS_PORT_UNREADABLE] = "unreadable",
	[ACS_PORT_DEAD] = "not_responding",
	[ACS_PORT_GONE] = "gone",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(acs_port_state, enum acs_port_state, "?");

size_t plan_undecided(const struct plan *p)
{
	return p->n_state[ACS_PORT_UNREADABLE] + p->n_state[ACS_PORT_DEAD] +
	       p->n_state[ACS_PORT_GONE];
}

/* Why the plan has no write for a port that is not ACS_PORT_ACS; NULL for one that is. */
static const char *target_reason(const struct acs_target *t, const struct plan_doc *doc, char *buf,
				 size_t size)
{
	switch (t->state) {
	case ACS_PORT_ACS:
		return NULL;
	case ACS_PORT_NO_ACS:
		return "no ACS capability, nothing to change";
	case ACS_PORT_UNREADABLE:
		return t->no_ext       ? pci_no_ext_text()->actual
		       : t->ext_broken ? pci_ext_broken_text()->actual
				       : doc->limited_detail;
	case ACS_PORT_DEAD:
		return "not responding: config space reads 0xffff (surprise removal, link down or "
		       "powered off)";
	case ACS_PORT_GONE:
		snprintf(buf, size, "gone: config space cannot be read (%s)", strerror(-t->err));
		return buf;
	default:
		return "?";
	}
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "0x%0*x": the JSON string, and what the text prints after its words. */
static void emit_hex(struct emit *e, enum emit_to to, const char *key, const char *fmt, unsigned v,
		     int width)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	emit_string(e, to, key, fmt, buf);
}

/* Why a state has no write, after its count in the text: only "unreadable" says. */
static void unreadable_emit(struct emit *e, const struct plan *p, const struct plan_doc *doc)
{
	size_t n = p->n_state[ACS_PORT_UNREADABLE];

	if (p->n_ext_broken == n)
		return emit_textf(e, " (%s)", pci_ext_broken_text()->why);
	if (p->n_ext_broken)
		return emit_textf(e, " (%s)", "not all for the same reason: see each port");
	emit_textf(e, " (%s)",
		   p->n_no_ext == n ? pci_no_ext_text()->why
		   : p->n_no_ext    ? "some need CAP_SYS_ADMIN, some have no extended config space"
				    : doc->limited_short);
}

/* Text "plan: 12 ports selected: 8 with ACS, 3 without ACS, 1 unreadable (...); 5 writes";
 * JSON every state's count, none left out. */
static void summary_emit(struct emit *e, const struct plan *p, const struct plan_doc *doc)
{
	static const char *const label[_ACS_PORT_STATE_MAX] = {
		[ACS_PORT_ACS] = "with ACS",
		[ACS_PORT_NO_ACS] = "without ACS",
		[ACS_PORT_UNREADABLE] = "unreadable",
		[ACS_PORT_DEAD] = "not responding",
		[ACS_PORT_GONE] = "gone",
	};
	const char *sep = ": ";
	size_t undecided = plan_undecided(p);

	emit_open_object(e, "summary");
	emit_u64(e, EMIT_ANY, "selected", "plan: %" PRIu64, p->n_targets);
	emit_textf(e, " port%s selected", plural(p->n_targets));
	for (int s = 0; s < _ACS_PORT_STATE_MAX; s++) {
		size_t n = p->n_state[s];

		/* a state no port is in: a 0 in JSON, no words in the text */
		if (n)
			emit_textf(e, "%s", sep);
		emit_u64(e, n ? EMIT_ANY : EMIT_JSON, acs_port_state_to_string(s), "%" PRIu64, n);
		if (!n)
			continue;
		emit_textf(e, " %s", label[s]);
		if (s == ACS_PORT_UNREADABLE)
			unreadable_emit(e, p, doc);
		sep = ", ";
	}
	emit_u64(e, EMIT_ANY, "writes", "; %" PRIu64, p->n_actions);
	emit_textf(e, " write%s", plural(p->n_actions));
	emit_u64(e, p->n_refused ? EMIT_ANY : EMIT_JSON, "refused", ", %" PRIu64 " refused",
		 p->n_refused);
	if (undecided)
		emit_textf(e, " (%zu port%s could not be read)", undecided, plural(undecided));
	emit_textf(e, "\n");
	emit_close_object(e);
}

/* "0000:03:00.0 0000:04:00.0" as an array of strings (JSON only: the text says them in
 * isolation_text()'s phrase). */
static void words_emit(struct emit *e, const char *key, const char *s)
{
	emit_open_array(e, key);
	for (const char *w = s; w && *w; w += strcspn(w, " "), w += strspn(w, " ")) {
		_cleanup_(freep) char *word = strndup(w, strcspn(w, " "));

		if (word)
			emit_string(e, EMIT_JSON, NULL, NULL, word);
		else
			emit_null(e, EMIT_JSON, NULL, NULL, NULL); /* never a shorter list */
	}
	emit_close_array(e);
}

/* JSON: the IOMMU groups that become one, and the devices that decide the refusal. */
static void isolation_json(struct emit *e, const struct acs_target *t)
{
	words_emit(e, "vfio", t->vfio);
	words_emit(e, "driver_unreadable", t->driver_unread);
	emit_open_array(e, "iommu_groups_merged");
	for (size_t i = 0; i < t->n_merged; i++)
		emit_int(e, EMIT_JSON, NULL, NULL, t->merged[i]);
	emit_close_array(e);
}

/* Text, under a port's line: what relaxing it does to the IOMMU groups, why it is refused. */
static void isolation_text(struct emit *e, const struct acs_target *t)
{
	char groups[256], below[512];

	if (emit_is_json(e))
		return;
	acs_merged_format(t, groups, sizeof(groups));
	if (t->n_merged)
		emit_textf(e, "    IOMMU groups %s below become one\n", groups);
	acs_vfio_format(t, below, sizeof(below));
	if (t->refused)
		emit_textf(e,
			   "    refused: %s; a guest's device could reach another guest's memory; "
			   "AllowVFIO=yes in the rule allows it\n",
			   below);
	else if (t->relaxes && below[0])
		emit_textf(e, "    %s: allowed by AllowVFIO=yes\n", below);
}

/* The write (or the refused one) of a port: its old and new Control, and in the text
 * what they mean. */
static void action_emit(struct emit *e, const struct acs_target *t, const struct acs_action *a)
{
	char from[64], to[64];

	if (!a) {
		emit_null(e, EMIT_JSON, "old", NULL, NULL);
		emit_null(e, EMIT_JSON, "new", NULL, NULL);
		if (t->refused) /* relaxed already: nothing to write, nothing to allow */
			emit_textf(e, ": relaxed already");
		return;
	}
	emit_hex(e, EMIT_ANY, "old", " ctrl(+0x6) %s", a->old, 4);
	emit_hex(e, EMIT_ANY, "new", " -> %s", a->new, 4);
	acs_ctrl_describe(a->old, from, sizeof(from));
	acs_ctrl_describe(a->new, to, sizeof(to));
	emit_textf(e, "  (%s -> %s)", from, to);
}

/*
 * One port. The text has a line for a write or a refusal, a port relaxed already, and
 * one without ACS or unread ("skip"/"unknown", with the reason); none for an ACS port
 * left as it is. JSON has every port.
 */
static void port_emit(struct emit *e, const struct acs_target *t, const struct acs_action *a,
		      const char *verb, const struct plan_doc *doc)
{
	bool acs = t->state == ACS_PORT_ACS;
	enum emit_to line = verb ? EMIT_ANY : EMIT_JSON;
	char buf[128];
	const char *reason = target_reason(t, doc, buf, sizeof(buf));

	emit_open_object(e, NULL);
	if (verb)
		emit_textf(e, "  %s ", verb);
	emit_string(e, line, "address", "%s", t->addr);
	emit_string(e, EMIT_JSON, "state", NULL, acs_port_state_to_string(t->state));
	if (acs) {
		emit_hex(e, line, "offset", " ACS@%s", t->off, 3);
		/* a write's line says its old value instead */
		emit_hex(e, a ? EMIT_JSON : line, "control", " ctrl(+0x6) %s", t->ctrl, 4);
	} else {
		emit_null(e, EMIT_JSON, "offset", NULL, NULL);
		emit_null(e, EMIT_JSON, "control", NULL, NULL);
		emit_string(e, line & EMIT_TEXT, NULL, ": %s", reason);
	}
	emit_bool(e, EMIT_JSON, "write", NULL, a != NULL && !t->refused);
	emit_bool(e, EMIT_JSON, "refused", NULL, t->refused);
	isolation_json(e, t);
	action_emit(e, t, a);
	emit_string(e, line, "rules", "  rule %s\n", t->rules);
	emit_string(e, EMIT_JSON, "reason", NULL, reason);
	isolation_text(e, t);
	emit_close_object(e);
}

static void ports_emit(struct emit *e, const struct plan *p, const struct plan_doc *doc)
{
	size_t a = 0, x = 0;

	emit_open_array(e, "ports");
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct acs_target *t = &p->targets[i];
		const struct acs_action *act = NULL;
		const char *verb = NULL;

		if (a < p->n_actions && p->actions[a].target == t)
			act = &p->actions[a++], verb = "write";
		else if (x < p->n_refused && p->refused[x].target == t)
			act = &p->refused[x++], verb = "refuse"; /* old and new: what was refused */
		else if (t->refused)
			verb = "refuse";
		else if (t->state != ACS_PORT_ACS)
			verb = t->state == ACS_PORT_NO_ACS ? "skip" : "unknown";
		port_emit(e, t, act, verb, doc);
	}
	emit_close_array(e);
}

/* The idle rules' names; "idle_rules_failing": those that may not be idle (AllowNone=no). */
static void idle_emit(struct emit *e, const struct plan *p)
{
	emit_open_array(e, "idle_rules");
	for (size_t i = 0; i < p->n_idle; i++) {
		emit_string(e, EMIT_ANY, NULL, "  rule %s selects no port on this host",
			    p->idle[i].rule->name);
		emit_textf(e, "%s\n",
			   p->idle[i].rule->allow_none
				   ? ""
				   : ": fails (an admin's Select=; AllowNone=yes allows none)");
	}
	emit_close_array(e);
	emit_open_array(e, "idle_rules_failing");
	for (size_t i = 0; i < p->n_idle; i++)
		if (!p->idle[i].rule->allow_none)
			emit_string(e, EMIT_JSON, NULL, NULL, p->idle[i].rule->name);
	emit_close_array(e);
}

/* The plan, as apply --dry-run's lines or its "plan" object. */
static void plan_emit(struct emit *e, const struct plan *p, const struct plan_doc *doc)
{
	if (doc->scan_err < 0)
		emit_string(e, EMIT_ANY, "error",
			    "plan: cannot enumerate PCI devices (%s); nothing planned\n",
			    strerror(-doc->scan_err));
	else
		emit_null(e, EMIT_JSON, "error", NULL, NULL);
	if (doc->scan_err < 0 && !emit_is_json(e))
		return; /* the text says nothing more; JSON has its (empty) members */
	summary_emit(e, p, doc);
	ports_emit(e, p, doc);
	idle_emit(e, p);
}

int plan_print(const struct plan *p, const struct plan_doc *doc, FILE *f)
{
	struct emit e;

	emit_init_text(&e, f);
	plan_emit(&e, p, doc);
	return emit_done(&e);
}

json_object *plan_json(const struct plan *p, const struct plan_doc *doc)
{
	struct json_object *o;
	struct emit e;

	if (emit_init_json(&e) < 0)
		return NULL;
	plan_emit(&e, p, doc);
	o = emit_take_json(&e);
	emit_done(&e);
	return o;
}

/* json-c's adders take ownership even of NULL; a NULL value is JSON null. */
static int add(json_object *o, const char *key, json_object *v)
{
	return json_object_object_add(o, key, v) < 0 ? -ENOMEM : 0;
}

int plan_print_json(const struct plan *p, const struct plan_doc *doc, FILE *f)
{
	_cleanup_(json_object_putp) json_object *root = json_object_new_object();
	json_object *plan = plan_json(p, doc);
	json_object *modules = doc->modules ? doc->modules : json_object_new_array();

	if (!root || !plan || !modules) {
		json_object_put(plan);
		json_object_put(modules);
		return -ENOMEM;
	}
	if (add(root, "schema", json_object_new_int(1)) < 0 ||
	    add(root, "version", json_object_new_string(doc->version)) < 0 ||
	    add(root, "command", json_object_new_string("apply --dry-run")) < 0 ||
	    add(root, "host", json_object_new_string(doc->host)) < 0 ||
	    add(root, "time", json_object_new_string(doc->time)) < 0 ||
	    add(root, "apply", json_object_new_boolean(doc->apply)) < 0 ||
	    add(root, "plan", plan) < 0 || add(root, "modules", modules) < 0)
		return -ENOMEM;
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	return 0;
}
