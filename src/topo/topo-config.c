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

/* List key: accumulates; an empty assignment resets to the built-in classification. */
static int assign_selectors(struct selector_entry **v, size_t *n, bool *set, const char *key,
			    const char *value, const struct origin *at)
{
	struct selector_words w = { .v = v, .n = n, .key = key, .at = at };

	if (value[0] == '\0') {
		config_selector_list_clear(v, n);
		*set = false;
		return 0;
	}
	*set = true;
	return config_for_each_word(value, selector_word, &w);
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

static int assign_expect(struct topo_config *tc, const char *value, const struct origin *at)
{
	struct expect_words w = { .tc = tc, .at = at };

	if (value[0] == '\0') {
		expect_reset(tc);
		return 0;
	}
	return config_for_each_word(value, expect_word, &w);
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct topo_config *tc = state;

	if (streq(key, "Accelerators"))
		return assign_selectors(&tc->accel, &tc->n_accel, &tc->accel_set, key, value, at);
	if (streq(key, "NICs"))
		return assign_selectors(&tc->nics, &tc->n_nics, &tc->nics_set, key, value, at);
	if (streq(key, "ExpectP2P"))
		return assign_expect(tc, value, at);
	return config_error_at(
		at,
		"unknown key '%s' in [Topology] section (expected Accelerators, NICs or "
		"ExpectP2P)",
		key);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* every key stands alone */
}

static size_t list_lines(size_t n)
{
	return n ? n : 1;
}

static size_t part_n_lines(const void *state)
{
	const struct topo_config *tc = state;

	if (!tc)
		return 0;
	return list_lines(tc->n_accel) + list_lines(tc->n_nics) + list_lines(tc->n_expect);
}

/* A list dumps as its values; an empty one as one empty assignment (reads back the same). */
static int selector_lines(const struct topo_config *tc, const char *key,
			  const struct selector_entry *v, size_t n, config_line_fn fn, void *ud)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = fn(ud, "Topology", key, v[i].text, &v[i].at, true);
	if (n == 0)
		r = fn(ud, "Topology", key, "", &(struct origin){}, true);
	return r;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct topo_config *tc = state;
	int r;

	if (!tc)
		return 0;
	r = selector_lines(tc, "Accelerators", tc->accel, tc->n_accel, fn, ud);
	if (r >= 0)
		r = selector_lines(tc, "NICs", tc->nics, tc->n_nics, fn, ud);
	for (size_t i = 0; r >= 0 && i < tc->n_expect; i++)
		r = fn(ud, "Topology", "ExpectP2P", tc->expect[i].text, &tc->expect[i].at, true);
	if (r >= 0 && tc->n_expect == 0)
		r = fn(ud, "Topology", "ExpectP2P", "", &(struct origin){}, true);
	return r;
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
