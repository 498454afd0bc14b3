// SPDX-License-Identifier: GPL-2.0-or-later
/* [ACS:NAME]: the config part (see acs-config.h for the keys). */

#include <ctype.h>

#include "acs/acs-config.h"
#include "core/log.h"

static const struct acs_config acs_none;

const struct acs_config *acs_config_get(const struct config *c)
{
	const struct acs_config *ac = config_part_state(c, &acs_config_part);

	return ac ? ac : &acs_none;
}

static bool is_section(const char *name)
{
	return strneq(name, ACS_PREFIX, strlen(ACS_PREFIX));
}

static bool rule_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > ACS_RULE_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_.-", name[i]))
			return false;
	return true;
}

static int parse_mask(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	struct acs_rule *rule = state;

	if (value[0] == '\0') {
		acs_mask_parse(ACS_MASK_DEFAULT, &rule->mask);
		rule->mask_at = (struct origin){};
		return 0;
	}
	if (acs_mask_parse(value, &rule->mask) < 0)
		return config_error_at(at,
				       "Mask=: invalid mask '%s' "
				       "(7 characters of 0, 1 or x, bit 6 first)",
				       value);
	rule->mask_at = *at;
	return 0;
}

struct acs_words {
	const char *key;
	const struct origin *at;
	struct selector_entry **list;
	size_t *n;
};

static int acs_word(void *ctx, const char *word)
{
	struct acs_words *w = ctx;
	struct selector sel;
	const char *reason;

	if (selector_parse_acs(word, &sel, &reason) < 0)
		return config_error_at(w->at, "%s=: invalid selector '%s': %s", w->key, word,
				       reason);
	return config_selector_list_add(w->list, w->n, CONFIG_MAX_SELECTORS, w->key, &sel, word,
					w->at);
}

static size_t *list_n(const struct config_item *it, const void *state)
{
	return (size_t *)((char *)state + *(const size_t *)it->ltype);
}

/*
 * Select=, Exclude=: values accumulate across assignments and files; an empty assignment
 * resets the list (and an empty Select= is remembered, for check_rule_select()).
 */
static int parse_selector_list(const struct config_item *it, void *state, const char *value,
			       const struct origin *at)
{
	struct acs_rule *rule = state;
	struct acs_words w = { .key = it->key,
			       .at = at,
			       .list = config_item_field(it, state),
			       .n = list_n(it, state) };

	if (value[0] == '\0') {
		if (w.list == &rule->select)
			rule->select_reset_at = *at;
		config_selector_list_clear(w.list, w.n);
		return 0;
	}
	return config_for_each_word(value, acs_word, &w);
}

static size_t list_n_lines(const struct config_item *it, const void *state)
{
	return *list_n(it, state);
}

/* A line per selector, none for none. */
static int list_lines(const struct config_item *it, const void *state, const char *section,
		      config_line_fn fn, void *ud)
{
	const struct selector_entry *list =
		*(struct selector_entry *const *)config_item_field_const(it, state);
	size_t n = *list_n(it, state);

	for (size_t i = 0; i < n; i++) {
		int r = fn(ud, section, it->key, list[i].text, &list[i].at, true);

		if (r < 0)
			return r;
	}
	return 0;
}

static const char *print_mask(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	acs_mask_format(&((const struct acs_rule *)state)->mask, buf);
	return buf;
}

static const struct config_item_list selectors_dump = { list_n_lines, list_lines };
static const size_t n_select_offset = offsetof(struct acs_rule, n_select);
static const size_t n_exclude_offset = offsetof(struct acs_rule, n_exclude);

/* A rule's keys, in dump order; a new rule starts from their defaults (rule_add()). */
static const struct config_item acs_items[] = {
	CONFIG_ITEM_BOOL("Enabled", struct acs_rule, enabled, true),
	CONFIG_ITEM("Mask", parse_mask, print_mask, NULL, struct acs_rule, mask),
	CONFIG_ITEM_BOOL("AllowNone", struct acs_rule, allow_none, false),
	CONFIG_ITEM_BOOL("AllowVFIO", struct acs_rule, allow_vfio, false),
	CONFIG_ITEM_LIST("Select", parse_selector_list, &selectors_dump, &n_select_offset,
			 struct acs_rule, select),
	CONFIG_ITEM_LIST("Exclude", parse_selector_list, &selectors_dump, &n_exclude_offset,
			 struct acs_rule, exclude),
};

static int rule_add(struct acs_config *ac, const char *name, const struct origin *at)
{
	struct acs_rule *grown;
	char *copy;

	if (ac->n_rules >= ACS_MAX_RULES)
		return config_error_at(at, "too many [" ACS_PREFIX "*] rules (at most %d)",
				       ACS_MAX_RULES);
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	grown = reallocarray(ac->rules, ac->n_rules + 1, sizeof(*ac->rules));
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	ac->rules = grown;
	ac->rules[ac->n_rules] = (struct acs_rule){ .name = copy, .at = *at };
	return config_items_defaults(acs_items, ARRAY_SIZE(acs_items), &ac->rules[ac->n_rules++]);
}

static int part_section(void **state, const char *section, const struct origin *at,
			unsigned file_no)
{
	const char *name = section + strlen(ACS_PREFIX);
	struct acs_config *ac = *state;
	size_t i;
	int r;

	if (!ac) {
		ac = calloc(1, sizeof(*ac));
		if (!ac)
			return -ENOMEM;
		*state = ac;
	}
	if (!rule_name_valid(name))
		return config_error_at(
			at, "invalid rule name '%s' (1-%d characters of A-Z a-z 0-9 _ . -)", name,
			ACS_RULE_NAME_MAX);
	for (i = 0; i < ac->n_rules; i++)
		if (streq(ac->rules[i].name, name))
			break;
	if (i == ac->n_rules) {
		r = rule_add(ac, name, at);
		if (r < 0)
			return r;
	}
	r = config_header_enter(&ac->rules[i].header, ACS_PREFIX, name, at, file_no);
	if (r < 0) {
		ac->rules[i].had_error = true; /* its keys are skipped: no "has no Select=" */
		return r;
	}
	ac->cur = i;
	return 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct acs_config *ac = state;
	int r = config_items_assign(acs_items, ARRAY_SIZE(acs_items), &ac->rules[ac->cur], key,
				    value, at);

	if (r == -ENOKEY)
		return config_error_at(at, "unknown key '%s' in [" ACS_PREFIX "*] section", key);
	return r;
}

/* An error on a line of the rule (its own or the lexer's) is the one to fix. */
static void part_section_error(void *state)
{
	struct acs_config *ac = state;

	ac->rules[ac->cur].had_error = true;
}

/*
 * An enabled rule without Select= after merging. The message points at the
 * line that caused it: an empty Select= that emptied the list (often a
 * drop-in resetting a vendor rule), else the rule's first header.
 */
static int check_rule_select(const struct acs_rule *rule)
{
	if (!rule->enabled || rule->n_select > 0 || rule->had_error)
		return 0; /* with an error inside the rule, that error is the one to fix */
	if (rule->select_reset_at.file)
		return config_error_at(&rule->select_reset_at,
				       "this empty Select= leaves [" ACS_PREFIX "%s] with no "
				       "selector; add Select= lines after it",
				       rule->name);
	return config_error_at(&rule->at,
			       "[" ACS_PREFIX "%s] is enabled but no file gives it a Select=; "
			       "add one (or, if this rule is not wanted, Enabled=no)",
			       rule->name);
}

static bool selectors_from_admin(const struct config_finish *f, const struct selector_entry *v,
				 size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (config_origin_is_admin(f, &v[i].at))
			return true;
	return false;
}

static bool rule_declared(const struct config_finish *f, const struct acs_rule *rule)
{
	return config_origin_is_admin(f, &rule->at) || config_origin_is_admin(f, &rule->mask_at) ||
	       config_origin_is_admin(f, &rule->enabled_at) ||
	       config_origin_is_admin(f, &rule->allow_none_at) ||
	       config_origin_is_admin(f, &rule->allow_vfio_at) ||
	       selectors_from_admin(f, rule->select, rule->n_select) ||
	       selectors_from_admin(f, rule->exclude, rule->n_exclude);
}

static int part_finish(void *state, const struct config_finish *f)
{
	struct acs_config *ac = state;
	int r = 0;

	for (size_t i = 0; ac && i < ac->n_rules; i++) {
		if (check_rule_select(&ac->rules[i]) < 0)
			r = -EINVAL;
		ac->rules[i].declared = rule_declared(f, &ac->rules[i]);
		/*
		 * Only the vendor's own selection may be idle: its p2p: rule selects nothing on
		 * a host without switches. An admin's Select= that matches nothing is a typo
		 * or the wrong host, and a silent no-op would leave the gate open.
		 */
		if (!ac->rules[i].allow_none_at.file)
			ac->rules[i].allow_none = !selectors_from_admin(f, ac->rules[i].select,
									ac->rules[i].n_select);
	}
	return r;
}

static size_t part_n_lines(const void *state)
{
	const struct acs_config *ac = state;
	size_t n = 0;

	for (size_t i = 0; ac && i < ac->n_rules; i++)
		n += config_items_n_lines(acs_items, ARRAY_SIZE(acs_items), &ac->rules[i]);
	return n;
}

static int rule_lines(const struct acs_rule *rule, config_line_fn fn, void *ud)
{
	char section[sizeof(ACS_PREFIX) + ACS_RULE_NAME_MAX];

	snprintf(section, sizeof(section), ACS_PREFIX "%s", rule->name);
	return config_items_lines(acs_items, ARRAY_SIZE(acs_items), rule, section, fn, ud);
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct acs_config *ac = state;
	int r = 0;

	for (size_t i = 0; ac && r >= 0 && i < ac->n_rules; i++)
		r = rule_lines(&ac->rules[i], fn, ud);
	return r;
}

static void part_free(void *state)
{
	struct acs_config *ac = state;

	if (!ac)
		return;
	for (size_t i = 0; i < ac->n_rules; i++) {
		free(ac->rules[i].name);
		config_selector_list_clear(&ac->rules[i].select, &ac->rules[i].n_select);
		config_selector_list_clear(&ac->rules[i].exclude, &ac->rules[i].n_exclude);
	}
	free(ac->rules);
	free(ac);
}

const struct config_part acs_config_part =
	CONFIG_PART("[" ACS_PREFIX "NAME]", is_section, .section_error = part_section_error);
