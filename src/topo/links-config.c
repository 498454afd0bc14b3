// SPDX-License-Identifier: GPL-2.0-or-later
/* [Links]: the config part (see links-config.h for the keys). */

#include "core/log.h"
#include "topo/links-config.h"
#include "core/string-table.h"

static const char *const links_degraded_table[_LINKS_DEGRADED_MAX] = {
	[LINKS_DEGRADED_WARN] = "warn",
	[LINKS_DEGRADED_FAIL] = "fail",
	[LINKS_DEGRADED_IGNORE] = "ignore",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(links_degraded, enum links_degraded, "?");

bool links_config_selects(const struct links_config *lc, const struct pci_ident *id)
{
	for (size_t i = 0; i < lc->n_select; i++)
		if (selector_match_ident(&lc->select[i].sel, id))
			return true;
	return false;
}

static bool is_section(const char *name)
{
	return streq(name, "Links");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct links_config, "Links", at, file_no);

	return r < 0 ? r : 0;
}

struct select_words {
	struct links_config *lc;
	const struct origin *at;
};

static int select_word(void *ctx, const char *word)
{
	struct select_words *w = ctx;
	struct selector sel;
	int r;

	r = config_parse_endpoint_selector("Select", word, &sel, w->at,
					   "[Links] selects endpoints, every hop up to the root "
					   "port is checked anyway (drop upstream:)");
	if (r < 0)
		return r;
	return config_selector_list_add(&w->lc->select, &w->lc->n_select, LINKS_MAX_SELECTORS,
					"Select", &sel, word, w->at);
}

/* List: whitespace-separated, accumulates; an empty assignment goes back to the default. */
static int assign_select(struct links_config *lc, const char *value, const struct origin *at)
{
	struct select_words w = { .lc = lc, .at = at };

	if (value[0] == '\0') {
		config_selector_list_clear(&lc->select, &lc->n_select);
		return 0;
	}
	return config_for_each_word(value, select_word, &w);
}

static const struct config_item links_items[] = {
	CONFIG_ITEM_ENUM("Degraded", struct links_config, degraded, links_degraded_table),
};

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(links_items, ARRAY_SIZE(links_items), state, key, value, at);

	if (r != -ENOKEY)
		return r;
	if (streq(key, "Select"))
		return assign_select(state, value, at);
	return config_error_at(
		at, "unknown key '%s' in [Links] section (expected Degraded or Select)", key);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* two keys that cannot contradict each other */
}

static size_t part_n_lines(const void *state)
{
	const struct links_config *lc = state;

	return lc ? 1 + (lc->n_select ? lc->n_select : 1) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct links_config *lc = state;
	int r;

	if (!lc)
		return 0;
	r = config_items_lines(links_items, ARRAY_SIZE(links_items), lc, "Links", fn, ud);
	/* An empty list is the default selection; dump it as one so it reads back so. */
	if (r >= 0 && lc->n_select == 0)
		r = fn(ud, "Links", "Select", "", &(struct origin){}, true);
	for (size_t i = 0; r >= 0 && i < lc->n_select; i++)
		r = fn(ud, "Links", "Select", lc->select[i].text, &lc->select[i].at, true);
	return r;
}

static void part_free(void *state)
{
	struct links_config *lc = state;

	if (!lc)
		return;
	config_selector_list_clear(&lc->select, &lc->n_select);
	free(lc);
}

const struct config_part links_config_part = CONFIG_PART("[Links]", is_section);
