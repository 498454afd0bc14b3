// SPDX-License-Identifier: GPL-2.0-or-later
/* [Xid]: the config part (see xid.h for the keys). */

#include <inttypes.h>
#include <stdlib.h>

#include "core/log.h"
#include "xid/xid.h"

static bool is_section(const char *name)
{
	return streq(name, "Xid");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct xid_config, "Xid", at, file_no);

	if (r == 1)
		((struct xid_config *)*state)->max_records = XID_RECORDS_DEFAULT;
	return r < 0 ? r : 0;
}

/* Decimal digits only, no sign, no leading zero, from 1 to max; -EINVAL. */
static int parse_number(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (s[0] < '1' || s[0] > '9')
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (max - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*ret = v;
	return 0;
}

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

	if (parse_number(word, XID_CODE_MAX, &code) < 0)
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

static int assign_ignore(struct xid_config *xc, bool sxid, const char *key, const char *value,
			 const struct origin *at)
{
	struct ignore_ctx c = {
		.v = sxid ? xc->ignore_sxid : xc->ignore,
		.n = sxid ? &xc->n_ignore_sxid : &xc->n_ignore,
		.key = key,
		.at = at,
	};

	if (value[0] == '\0') {
		*c.n = 0;
		return 0;
	}
	return config_for_each_word(value, ignore_word, &c);
}

static int assign_max_records(struct xid_config *xc, const char *value, const struct origin *at)
{
	uint64_t v;

	if (value[0] == '\0') {
		xc->max_records = XID_RECORDS_DEFAULT;
		xc->max_records_at = (struct origin){};
		return 0;
	}
	if (parse_number(value, XID_RECORDS_MAX, &v) < 0)
		return config_error_at(at, "MaxRecords=: invalid count '%s' (from 1 to %llu)",
				       value, XID_RECORDS_MAX);
	xc->max_records = v;
	xc->max_records_at = *at;
	return 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct xid_config *xc = state;

	if (streq(key, "Ignore"))
		return assign_ignore(xc, false, key, value, at);
	if (streq(key, "IgnoreSXid"))
		return assign_ignore(xc, true, key, value, at);
	if (streq(key, "MaxRecords"))
		return assign_max_records(xc, value, at);
	return config_error_at(at,
			       "unknown key '%s' in [Xid] section (expected Ignore, IgnoreSXid or "
			       "MaxRecords)",
			       key);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* independent keys */
}

static size_t part_n_lines(const void *state)
{
	const struct xid_config *xc = state;

	if (!xc)
		return 0;
	return 1 + (xc->n_ignore ? xc->n_ignore : 1) + (xc->n_ignore_sxid ? xc->n_ignore_sxid : 1);
}

/* A list as its lines; an empty list as one empty assignment, so that it reads back so. */
static int list_lines(const struct xid_ignore *v, size_t n, const char *key, config_line_fn fn,
		      void *ud)
{
	int r = 0;

	if (n == 0)
		return fn(ud, "Xid", key, "", &(struct origin){}, true);
	for (size_t i = 0; r >= 0 && i < n; i++) {
		char buf[16];

		snprintf(buf, sizeof(buf), "%u", v[i].code);
		r = fn(ud, "Xid", key, buf, &v[i].at, true);
	}
	return r;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct xid_config *xc = state;
	char buf[24];
	int r;

	if (!xc)
		return 0;
	r = list_lines(xc->ignore, xc->n_ignore, "Ignore", fn, ud);
	if (r >= 0)
		r = list_lines(xc->ignore_sxid, xc->n_ignore_sxid, "IgnoreSXid", fn, ud);
	snprintf(buf, sizeof(buf), "%" PRIu64, xc->max_records);
	if (r >= 0)
		r = fn(ud, "Xid", "MaxRecords", buf, &xc->max_records_at, false);
	return r;
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
