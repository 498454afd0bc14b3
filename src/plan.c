// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>

#include "log.h"
#include "plan.h"

enum pick {
	PICK_UPSTREAM = 1,
	PICK_EXPLICIT = 2,
};

/* A port on the way up from an endpoint counts when it has (or may have) ACS. */
static bool upstream_candidate(const struct pci_dev_info *p)
{
	return p->has_acs || p->cfg == PCI_CFG_LIMITED;
}

static void mark_upstream(const struct pci_inventory *inv, size_t i, uint8_t *marks, uint8_t how)
{
	for (int p = inv->devs[i].parent; p >= 0; p = inv->devs[p].parent)
		if (upstream_candidate(&inv->devs[p]))
			marks[p] |= how;
}

static void mark(const struct selector_entry *sels, size_t n, const struct pci_inventory *inv,
		 uint8_t *marks)
{
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < inv->n; i++) {
			if (!selector_match_ident(&sels[s].sel, &inv->devs[i].id))
				continue;
			if (sels[s].sel.upstream)
				mark_upstream(inv, i, marks, PICK_UPSTREAM);
			else
				marks[i] |= PICK_EXPLICIT;
		}
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

static int add_idle(struct plan *p, const struct acs_rule *r)
{
	const struct acs_rule **v = reallocarray(p->idle, p->n_idle + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	p->idle = v;
	p->idle[p->n_idle++] = r;
	return 0;
}

static int add_rule(const struct acs_rule *r, const struct pci_inventory *inv,
		    struct acs_target *by_dev, struct plan *p)
{
	size_t picked = 0;

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
		picked++;
		if (!t->rules) {
			snprintf(t->addr, sizeof(t->addr), "%s", inv->devs[i].addr);
			t->mask = r->mask;
			t->first = r;
		} else if (acs_mask_merge(&t->mask, &r->mask) < 0)
			return conflict(t, r);
		q = append_rule_name(t, r->name);
		if (q < 0)
			return q;
	}
	return picked ? 0 : add_idle(p, r);
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
		const struct pci_dev_info *d = &inv->devs[i];
		int r;

		if (!by_dev[i].rules)
			continue;
		p->targets[p->n_targets++] = by_dev[i];
		by_dev[i].rules = NULL;
		if (!d->has_acs || d->cfg != PCI_CFG_FULL)
			continue;
		r = add_action(p, d, &p->targets[p->n_targets - 1]);
		if (r < 0)
			return r;
	}
	return 0;
}

static void targets_free(struct acs_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].rules);
	free(t);
}

int plan_build(const struct config *c, const struct pci_inventory *inv, struct plan *ret)
{
	struct acs_target *by_dev = calloc(inv->n + 1, sizeof(*by_dev));
	struct plan p = {};
	int r = 0;

	if (!by_dev)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_acs && r >= 0; i++)
		if (c->acs[i].enabled)
			r = add_rule(&c->acs[i], inv, by_dev, &p);
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
	free(p->idle);
	*p = (struct plan){};
}

int plan_print(const struct plan *p, FILE *f)
{
	fprintf(f, "plan: %zu ACS port%s selected, %zu write%s\n", p->n_targets,
		p->n_targets == 1 ? "" : "s", p->n_actions, p->n_actions == 1 ? "" : "s");
	for (size_t i = 0; i < p->n_actions; i++) {
		const struct acs_action *a = &p->actions[i];
		char from[64], to[64];

		acs_ctrl_describe(a->old, from, sizeof(from));
		acs_ctrl_describe(a->new, to, sizeof(to));
		fprintf(f,
			"  write %s ACS@0x%03x ctrl(+0x6) 0x%04x -> 0x%04x  (%s -> %s)  rule %s\n",
			a->addr, a->off, a->old, a->new, from, to, a->target->rules);
	}
	return 0;
}

static void json_putp(json_object **o)
{
	json_object_put(*o);
}

static json_object *hex_string(unsigned v, int width)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	return json_object_new_string(buf);
}

static json_object *action_json(const struct acs_action *a)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "address", json_object_new_string(a->addr));
	json_object_object_add(o, "offset", hex_string(a->off, 3));
	json_object_object_add(o, "register", json_object_new_string("ACS Control (+0x6)"));
	json_object_object_add(o, "old", hex_string(a->old, 4));
	json_object_object_add(o, "new", hex_string(a->new, 4));
	json_object_object_add(o, "rules", json_object_new_string(a->target->rules));
	return o;
}

int plan_print_json(const struct plan *p, bool apply_enabled, FILE *f)
{
	_cleanup_(json_putp) json_object *root = json_object_new_object();
	json_object *writes = json_object_new_array();

	if (!root || !writes) {
		json_object_put(writes);
		return -ENOMEM;
	}
	json_object_object_add(root, "schema", json_object_new_int(1));
	json_object_object_add(root, "command", json_object_new_string("apply --dry-run"));
	json_object_object_add(root, "apply", json_object_new_boolean(apply_enabled));
	json_object_object_add(root, "ports", json_object_new_int64((int64_t)p->n_targets));
	json_object_object_add(root, "writes", writes);
	for (size_t i = 0; i < p->n_actions; i++) {
		json_object *a = action_json(&p->actions[i]);

		if (!a)
			return -ENOMEM;
		json_object_array_add(writes, a);
	}
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	return 0;
}
