// SPDX-License-Identifier: GPL-2.0-or-later

#include "bond/bond-config.h"
#include "core/log.h"

#define BOND_PREFIX "Bond:"

bool bond_mode_lag_capable(int mode)
{
	return mode == BOND_MODE_ACTIVEBACKUP || mode == BOND_MODE_XOR || mode == BOND_MODE_8023AD;
}

static int parse_mode(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	struct bond_rule *rule = state;
	int m;

	if (value[0] == '\0') {
		rule->mode = BOND_MODE_ANY;
		rule->mode_at = (struct origin){};
		return 0;
	}
	for (m = 0; m < _BOND_MODE_MAX; m++)
		if (bond_mode_to_string(m) && config_enum_eq(value, bond_mode_to_string(m)))
			break;
	if (m == _BOND_MODE_MAX)
		return config_error_at(
			at,
			"Mode=: unknown bonding mode '%s' (use balance-rr, active-backup, "
			"balance-xor, broadcast, 802.3ad, balance-tlb or balance-alb)",
			value);
	rule->mode = m;
	rule->mode_at = *at;
	return 0;
}

static int parse_min_slaves(const struct config_item *it, void *state, const char *value,
			    const struct origin *at)
{
	struct bond_rule *rule = state;
	unsigned n;

	if (value[0] == '\0') {
		rule->min_slaves_up = 0;
		rule->min_at = (struct origin){};
		return 0;
	}
	if (bond_parse_uint(value, &n) < 0 || n == 0 || n > BOND_SLAVES_MAX)
		return config_error_at(
			at,
			"MinSlavesUp=: invalid value '%s' (a number of slaves, 1-%d; "
			"leave unset for every slave)",
			value, BOND_SLAVES_MAX);
	rule->min_slaves_up = n;
	rule->min_at = *at;
	return 0;
}

static int parse_rdma(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	struct bond_rule *rule = state;
	char *copy = NULL;

	if (value[0] && !bond_rdma_name_valid(value))
		return config_error_at(
			at,
			"RDMA=: invalid RDMA device name '%s' (1-63 characters of A-Z a-z "
			"0-9 _ . -, e.g. mlx5_bond_0)",
			value);
	if (value[0]) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(rule->rdma);
	rule->rdma = copy;
	rule->rdma_at = value[0] ? *at : (struct origin){};
	return 0;
}

/* Unset (any mode): empty. */
static const char *print_mode(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	const struct bond_rule *r = state;

	return r->mode == BOND_MODE_ANY ? "" : bond_mode_to_string(r->mode);
}

/* Unset (every slave): empty. */
static const char *print_min_slaves(const struct config_item *it, const void *state, char *buf,
				    size_t size)
{
	const struct bond_rule *r = state;

	if (!r->min_slaves_up)
		return "";
	snprintf(buf, size, "%u", r->min_slaves_up);
	return buf;
}

static const char *print_rdma(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	return strempty(((const struct bond_rule *)state)->rdma);
}

/* A rule's keys, in dump order; a new rule starts from their defaults. */
static const struct config_item bond_items[] = {
	CONFIG_ITEM("Mode", parse_mode, print_mode, NULL, struct bond_rule, mode),
	CONFIG_ITEM_AT("MinSlavesUp", parse_min_slaves, print_min_slaves, NULL, 0, struct bond_rule,
		       min_slaves_up, min_at),
	CONFIG_ITEM_BOOL("Miimon", struct bond_rule, miimon, true),
	CONFIG_ITEM("RDMA", parse_rdma, print_rdma, NULL, struct bond_rule, rdma),
};

static bool is_section(const char *name)
{
	return strneq(name, BOND_PREFIX, strlen(BOND_PREFIX));
}

static int enter_bond(struct bond_config *bc, const char *name, const struct origin *at,
		      unsigned file_no)
{
	struct bond_rule t = { .at = *at };
	int r;

	if (!bond_ifname_valid(name))
		return config_error_at(at,
				       "invalid interface name '%s' in [" BOND_PREFIX
				       "IFNAME] (1-%d "
				       "bytes, no '/', ':' or whitespace, not '.' or '..')",
				       name, BOND_IFNAME_MAX);
	strcpy(t.name, name);
	r = config_items_defaults(bond_items, ARRAY_SIZE(bond_items), &t);
	if (r < 0)
		return r;
	r = CONFIG_RULE_ENTER(&bc->rules, &bc->n_rules, BOND_MAX_RULES, &t, BOND_PREFIX, "IFNAME",
			      at, file_no);
	if (r < 0)
		return r;
	bc->cur = r;
	return 0;
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	struct bond_config *bc = *state;
	int r;

	if (!bc) {
		bc = calloc(1, sizeof(*bc));
		if (!bc)
			return -ENOMEM;
		*state = bc;
	}
	r = enter_bond(bc, name + strlen(BOND_PREFIX), at, file_no);
	if (r < 0)
		bc->cur = SIZE_MAX; /* the section's keys are not checked against a bad header */
	return r;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct bond_config *bc = state;
	int r;

	if (bc->cur >= bc->n_rules)
		return 0; /* under a header already reported as bad */
	r = config_items_assign(bond_items, ARRAY_SIZE(bond_items), &bc->rules[bc->cur], key, value,
				at);
	if (r == -ENOKEY)
		return config_error_at(at, "unknown key '%s' in [" BOND_PREFIX "*] section", key);
	return r;
}

/* The later of two settings is where the contradiction was made. */
static const struct origin *later(const struct origin *a, const struct origin *b)
{
	if (!a->file)
		return b;
	if (!b->file)
		return a;
	return a->line >= b->line && streq(a->file, b->file) ? a : b;
}

static int check_rule(const struct bond_rule *r)
{
	if (r->rdma && r->mode != BOND_MODE_ANY && !bond_mode_lag_capable(r->mode))
		return config_error_at(
			later(&r->rdma_at, &r->mode_at),
			"[" BOND_PREFIX "%s]: RDMA=%s cannot be satisfied with Mode=%s "
			"(mlx5 RoCE LAG needs active-backup, balance-xor or 802.3ad)",
			r->name, r->rdma, bond_mode_to_string(r->mode));
	return 0;
}

static int part_finish(void *state, const struct config_finish *f)
{
	const struct bond_config *bc = state;
	int ret = 0;

	for (size_t i = 0; bc && i < bc->n_rules; i++)
		if (check_rule(&bc->rules[i]) < 0)
			ret = -EINVAL;
	return ret;
}

static size_t part_n_lines(const void *state)
{
	const struct bond_config *bc = state;
	size_t n = 0;

	for (size_t i = 0; bc && i < bc->n_rules; i++)
		n += config_items_n_lines(bond_items, ARRAY_SIZE(bond_items), &bc->rules[i]);
	return n;
}

static int rule_lines(const struct bond_rule *r, config_line_fn fn, void *ud)
{
	char section[sizeof(BOND_PREFIX) + BOND_IFNAME_MAX];

	snprintf(section, sizeof(section), BOND_PREFIX "%s", r->name);
	return config_items_lines(bond_items, ARRAY_SIZE(bond_items), r, section, fn, ud);
}

static int part_lines(const void *state, config_line_fn fn, void *userdata)
{
	const struct bond_config *bc = state;
	int r = 0;

	for (size_t i = 0; bc && r >= 0 && i < bc->n_rules; i++)
		r = rule_lines(&bc->rules[i], fn, userdata);
	return r;
}

static void part_free(void *state)
{
	struct bond_config *bc = state;

	if (!bc)
		return;
	for (size_t i = 0; i < bc->n_rules; i++)
		free(bc->rules[i].rdma);
	free(bc->rules);
	free(bc);
}

const struct config_part bond_config_part = CONFIG_PART("[" BOND_PREFIX "IFNAME]", is_section);
