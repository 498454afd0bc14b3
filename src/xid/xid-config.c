// SPDX-License-Identifier: GPL-2.0-or-later
/* [Xid]: the config part (see xid.h for the keys). */

#include <inttypes.h>
#include <stdlib.h>

#include "core/log.h"
#include "xid/xid.h"

struct ignore_ctx {
	struct xid_ignore *v;
	size_t *n;
	const char *key;
	const struct origin *at;
};

static int ignore_word(void *ctx, const char *word)
{
	struct ignore_ctx *c = ctx;
	uint64_t code;

	if (config_parse_decimal(word, XID_CODE_MAX, &code) < 0 || code == 0)
		return config_error_at(c->at, "%s=: invalid code '%s' (a number from 1 to %u)",
				       c->key, word, XID_CODE_MAX);
	for (size_t i = 0; i < *c->n; i++)
		if (c->v[i].code == code)
			return 0; /* named twice: once is enough */
	if (*c->n >= XID_IGNORE_MAX) {
		config_error_at(c->at, "%s=: too many codes (at most %d)", c->key, XID_IGNORE_MAX);
		return -E2BIG;
	}
	c->v[(*c->n)++] = (struct xid_ignore){ .code = (unsigned)code, .at = *c->at };
	return 0;
}

/* A list of codes: the item's field is the array, its ltype where its count is. */
static size_t *ignore_count(const struct config_item *it, const void *state)
{
	return (size_t *)((char *)state + *(const size_t *)it->ltype);
}

static int parse_ignore(const struct config_item *it, void *state, const char *value,
			const struct origin *at)
{
	struct ignore_ctx c = {
		.v = config_item_field(it, state),
		.n = ignore_count(it, state),
		.key = it->key,
		.at = at,
	};

	if (value[0] == '\0') {
		*c.n = 0;
		return 0;
	}
	return config_for_each_word(value, ignore_word, &c);
}

static size_t ignore_n_lines(const struct config_item *it, const void *state)
{
	size_t n = *ignore_count(it, state);

	return n ? n : 1;
}

/* An empty list as one empty assignment, so that it reads back so. */
static int ignore_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct xid_ignore *v = config_item_field_const(it, state);
	size_t n = *ignore_count(it, state);
	int r = 0;

	if (n == 0)
		return fn(ud, section, it->key, "", &(struct origin){}, true);
	for (size_t i = 0; r >= 0 && i < n; i++) {
		char buf[16];

		snprintf(buf, sizeof(buf), "%u", v[i].code);
		r = fn(ud, section, it->key, buf, &v[i].at, true);
	}
	return r;
}

static const struct config_item_list ignore_list = { ignore_n_lines, ignore_lines };
static const size_t n_ignore_offset = offsetof(struct xid_config, n_ignore);
static const size_t n_ignore_sxid_offset = offsetof(struct xid_config, n_ignore_sxid);
static const struct config_uint_range max_records_range = { 1, XID_RECORDS_MAX, "count",
							    "from %llu to %llu" };

static const struct config_item xid_items[] = {
	CONFIG_ITEM_LIST("Ignore", parse_ignore, &ignore_list, &n_ignore_offset, struct xid_config,
			 ignore),
	CONFIG_ITEM_LIST("IgnoreSXid", parse_ignore, &ignore_list, &n_ignore_sxid_offset,
			 struct xid_config, ignore_sxid),
	CONFIG_ITEM_UINT64("MaxRecords", struct xid_config, max_records, &max_records_range,
			   XID_RECORDS_DEFAULT),
};

static bool is_section(const char *name)
{
	return streq(name, "Xid");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct xid_config, "Xid", at, file_no);

	if (r == 1)
		r = config_items_defaults(xid_items, ARRAY_SIZE(xid_items), *state);
	return r < 0 ? r : 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(xid_items, ARRAY_SIZE(xid_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_items_unknown(xid_items, ARRAY_SIZE(xid_items), "Xid", key, at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* independent keys */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(xid_items, ARRAY_SIZE(xid_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(xid_items, ARRAY_SIZE(xid_items), state, "Xid", fn, ud);
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part xid_config_part = CONFIG_PART("[Xid]", is_section);

const struct xid_ignore *xid_ignored(const struct xid_config *xc, bool sxid, unsigned code)
{
	const struct xid_ignore *v = sxid ? xc->ignore_sxid : xc->ignore;
	size_t n = sxid ? xc->n_ignore_sxid : xc->n_ignore;

	for (size_t i = 0; i < n; i++)
		if (v[i].code == code)
			return &v[i];
	return NULL;
}
