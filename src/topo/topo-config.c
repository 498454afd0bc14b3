// SPDX-License-Identifier: GPL-2.0-or-later
/* [Topology]: the config part (keys in topo.h). */

#include "core/log.h"
#include "topo/topo.h"

static bool is_section(const char *name)
{
	return streq(name, "Topology");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct topo_config, "Topology", at, file_no);

	return r < 0 ? r : 0;
}

static void expect_reset(struct topo_config *tc)
{
	for (size_t i = 0; i < tc->n_expect; i++)
		free(tc->expect[i].text);
	free(tc->expect);
	tc->expect = NULL;
	tc->n_expect = 0;
}

/* One endpoint selector: the [ACS:*] syntax, but a set of devices, never a path. */
/* Topology keys name GPUs and NICs; the path between them is what is measured. */
static int parse_endpoint_selector(const char *key, const char *word, struct selector *ret,
				   const struct origin *at)
{
	return config_parse_endpoint_selector(key, word, ret, at,
					      "upstream: selects bridges on a path, not endpoints "
					      "(name the devices themselves)");
}

struct selector_words {
	struct selector_entry **v;
	size_t *n;
	const char *key;
	const struct origin *at;
};

static int selector_word(void *ctx, const char *word)
{
	struct selector_words *w = ctx;
	struct selector sel;
	int r;

	r = parse_endpoint_selector(w->key, word, &sel, w->at);
	if (r < 0)
		return r;
	return config_selector_list_add(w->v, w->n, TOPO_MAX_SELECTORS, w->key, &sel, word, w->at);
}

/* Where a selector list's count and "given" flag are (an item's ltype). */
struct selector_list {
	size_t n_offset, set_offset;
};

static size_t *list_n(const struct config_item *it, const void *state)
{
	return (size_t *)((char *)state + ((const struct selector_list *)it->ltype)->n_offset);
}

/* List key: accumulates; an empty assignment resets to the built-in classification. */
static int parse_selectors(const struct config_item *it, void *state, const char *value,
			   const struct origin *at)
{
	const struct selector_list *l = it->ltype;
	struct selector_entry **v = config_item_field(it, state);
	size_t *n = list_n(it, state);
	bool *set = (bool *)((char *)state + l->set_offset);
	struct selector_words w = { .v = v, .n = n, .key = it->key, .at = at };

	if (value[0] == '\0') {
		config_selector_list_clear(v, n);
		*set = false;
		return 0;
	}
	*set = true;
	return config_for_each_word(value, selector_word, &w);
}

static size_t selectors_n_lines(const struct config_item *it, const void *state)
{
	size_t n = *list_n(it, state);

	return n ? n : 1;
}

/* A list dumps as its values; an empty one as one empty assignment (reads back the same). */
static int selectors_lines(const struct config_item *it, const void *state, const char *section,
			   config_line_fn fn, void *ud)
{
	const struct selector_entry *v =
		*(struct selector_entry *const *)config_item_field_const(it, state);
	size_t n = *list_n(it, state);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = fn(ud, section, it->key, v[i].text, &v[i].at, true);
	if (n == 0)
		r = fn(ud, section, it->key, "", &(struct origin){}, true);
	return r;
}

static int parse_expect(const char *word, struct topo_expect *e, const struct origin *at)
{
	_cleanup_(freep) char *copy = NULL;
	char *tilde;
	int r;

	if (streq(word, "gpu:nic-nearest")) {
		e->kind = TOPO_EXPECT_GPU_NIC_NEAREST;
		return 0;
	}
	if (streq(word, "gpu:gpu")) {
		e->kind = TOPO_EXPECT_GPU_GPU;
		return 0;
	}
	tilde = strchr(word, '~');
	if (!tilde)
		return config_error_at(at,
				       "ExpectP2P=: invalid pair '%s' (gpu:nic-nearest, gpu:gpu or "
				       "SELECTOR~SELECTOR)",
				       word);
	copy = strndup(word, (size_t)(tilde - word));
	if (!copy)
		return -ENOMEM;
	e->kind = TOPO_EXPECT_PAIR;
	r = parse_endpoint_selector("ExpectP2P", copy, &e->a, at);
	if (r >= 0)
		r = parse_endpoint_selector("ExpectP2P", tilde + 1, &e->b, at);
	return r;
}

struct expect_words {
	struct topo_config *tc;
	const struct origin *at;
};

static int expect_word(void *ctx, const char *word)
{
	struct expect_words *w = ctx;
	struct topo_config *tc = w->tc;
	struct topo_expect e = { .at = *w->at }, *grown;
	int r;

	r = parse_expect(word, &e, w->at);
	if (r < 0)
		return r;
	if (tc->n_expect >= TOPO_MAX_EXPECT) {
		config_error_at(w->at, "ExpectP2P=: too many pairs (at most %d)", TOPO_MAX_EXPECT);
		return -E2BIG;
	}
	e.text = strdup(word);
	grown = e.text ? reallocarray(tc->expect, tc->n_expect + 1, sizeof(*grown)) : NULL;
	if (!grown) {
		free(e.text);
		return -ENOMEM;
	}
	tc->expect = grown;
	tc->expect[tc->n_expect++] = e;
	return 0;
}

static int parse_expect_list(const struct config_item *it, void *state, const char *value,
			     const struct origin *at)
{
	struct topo_config *tc = state;
	struct expect_words w = { .tc = tc, .at = at };

	if (value[0] == '\0') {
		expect_reset(tc);
		return 0;
	}
	return config_for_each_word(value, expect_word, &w);
}

static size_t expect_n_lines(const struct config_item *it, const void *state)
{
	size_t n = ((const struct topo_config *)state)->n_expect;

	return n ? n : 1;
}

static int expect_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct topo_config *tc = state;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < tc->n_expect; i++)
		r = fn(ud, section, it->key, tc->expect[i].text, &tc->expect[i].at, true);
	if (r >= 0 && tc->n_expect == 0)
		r = fn(ud, section, it->key, "", &(struct origin){}, true);
	return r;
}

static const struct config_item_list selectors_dump = { selectors_n_lines, selectors_lines };
static const struct config_item_list expect_dump = { expect_n_lines, expect_lines };
static const struct selector_list accel_list = { offsetof(struct topo_config, n_accel),
						 offsetof(struct topo_config, accel_set) };
static const struct selector_list nics_list = { offsetof(struct topo_config, n_nics),
						offsetof(struct topo_config, nics_set) };

/* In dump order; a new section is empty (the built-in classification, nothing expected). */
static const struct config_item topo_items[] = {
	CONFIG_ITEM_LIST("Accelerators", parse_selectors, &selectors_dump, &accel_list,
			 struct topo_config, accel),
	CONFIG_ITEM_LIST("NICs", parse_selectors, &selectors_dump, &nics_list, struct topo_config,
			 nics),
	CONFIG_ITEM_LIST("ExpectP2P", parse_expect_list, &expect_dump, NULL, struct topo_config,
			 expect),
};

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(topo_items, ARRAY_SIZE(topo_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_items_unknown(topo_items, ARRAY_SIZE(topo_items), "Topology", key,
					    at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* every key stands alone */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(topo_items, ARRAY_SIZE(topo_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(topo_items, ARRAY_SIZE(topo_items), state, "Topology", fn, ud);
}

static void part_free(void *state)
{
	struct topo_config *tc = state;

	if (!tc)
		return;
	config_selector_list_clear(&tc->accel, &tc->n_accel);
	config_selector_list_clear(&tc->nics, &tc->n_nics);
	expect_reset(tc);
	free(tc);
}

const struct config_part topo_config_part = CONFIG_PART("[Topology]", is_section);
