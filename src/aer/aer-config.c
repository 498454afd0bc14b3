// SPDX-License-Identifier: GPL-2.0-or-later
/* [AER]: the config part (see aer.h for the keys). */

#include <inttypes.h>

#include "aer/aer.h"
#include "core/log.h"

static const char *const exceeded_table[_AER_EXCEEDED_MAX] = {
	[AER_EXCEEDED_WARN] = "warn",
	[AER_EXCEEDED_FAIL] = "fail",
};

/* A threshold: a count or off (aer_parse_limit()); empty restores it->dflt. */
static int parse_limit(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	uint64_t *limit = config_item_field(it, state), v;

	if (value[0] == '\0') {
		*limit = it->dflt;
		*config_item_at(it, state) = (struct origin){};
		return 0;
	}
	if (aer_parse_limit(value, &v) < 0)
		return config_error_at(
			at, "%s=: invalid threshold '%s' (a count from 0 to %llu, or off)", it->key,
			value, AER_COUNT_MAX);
	*limit = v;
	*config_item_at(it, state) = *at;
	return 0;
}

static const char *print_limit(const struct config_item *it, const void *state, char *buf,
			       size_t size)
{
	uint64_t limit = *(const uint64_t *)config_item_field_const(it, state);

	if (limit == AER_OFF)
		return "off";
	snprintf(buf, size, "%" PRIu64, limit);
	return buf;
}

/* In dump order: the worst first. Fatal and non-fatal > 0 are flagged, correctable not. */
static const struct config_item aer_items[] = {
	CONFIG_ITEM_AT("Fatal", parse_limit, print_limit, NULL, 0, struct aer_config,
		       limit[AER_FATAL], limit_at[AER_FATAL]),
	CONFIG_ITEM_AT("NonFatal", parse_limit, print_limit, NULL, 0, struct aer_config,
		       limit[AER_NONFATAL], limit_at[AER_NONFATAL]),
	CONFIG_ITEM_AT("Correctable", parse_limit, print_limit, NULL, AER_OFF, struct aer_config,
		       limit[AER_COR], limit_at[AER_COR]),
	CONFIG_ITEM_ENUM("Exceeded", struct aer_config, exceeded, exceeded_table),
};

static bool is_section(const char *name)
{
	return streq(name, "AER");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct aer_config, "AER", at, file_no);

	if (r == 1)
		r = config_items_defaults(aer_items, ARRAY_SIZE(aer_items), *state);
	return r < 0 ? r : 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(aer_items, ARRAY_SIZE(aer_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_items_unknown(aer_items, ARRAY_SIZE(aer_items), "AER", key, at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* independent keys */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(aer_items, ARRAY_SIZE(aer_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(aer_items, ARRAY_SIZE(aer_items), state, "AER", fn, ud);
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part aer_config_part = CONFIG_PART("[AER]", is_section);
