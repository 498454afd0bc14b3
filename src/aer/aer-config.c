// SPDX-License-Identifier: GPL-2.0-or-later
/* [AER]: the config part (see aer.h for the keys). */

#include "aer/aer.h"
#include "core/log.h"

static const uint64_t limit_default[_AER_KIND_MAX] = {
	[AER_COR] = AER_OFF,
	[AER_NONFATAL] = 0,
	[AER_FATAL] = 0,
};

static bool is_section(const char *name)
{
	return streq(name, "AER");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct aer_config, "AER", at, file_no);

	if (r == 1)
		memcpy(((struct aer_config *)*state)->limit, limit_default, sizeof(limit_default));
	return r < 0 ? r : 0;
}

static int assign_limit(struct aer_config *ac, enum aer_kind k, const char *value,
			const struct origin *at)
{
	uint64_t v;

	if (value[0] == '\0') {
		ac->limit[k] = limit_default[k];
		ac->limit_at[k] = (struct origin){};
		return 0;
	}
	if (aer_parse_limit(value, &v) < 0)
		return config_error_at(
			at, "%s=: invalid threshold '%s' (a count from 0 to %llu, or off)",
			aer_kind_key(k), value, AER_COUNT_MAX);
	ac->limit[k] = v;
	ac->limit_at[k] = *at;
	return 0;
}

static int assign_exceeded(struct aer_config *ac, const char *value, const struct origin *at)
{
	if (value[0] == '\0' || config_enum_eq(value, "warn")) {
		ac->fail = false;
		ac->fail_at = value[0] ? *at : (struct origin){};
		return 0;
	}
	if (!config_enum_eq(value, "fail"))
		return config_error_at(at, "Exceeded=: invalid value '%s' (use warn or fail)",
				       value);
	ac->fail = true;
	ac->fail_at = *at;
	return 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct aer_config *ac = state;

	for (int k = 0; k < _AER_KIND_MAX; k++)
		if (streq(key, aer_kind_key(k)))
			return assign_limit(ac, k, value, at);
	if (streq(key, "Exceeded"))
		return assign_exceeded(ac, value, at);
	return config_error_at(at,
			       "unknown key '%s' in [AER] section (expected Fatal, NonFatal, "
			       "Correctable or Exceeded)",
			       key);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* independent keys */
}

static size_t part_n_lines(const void *state)
{
	return state ? _AER_KIND_MAX + 1 : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct aer_config *ac = state;
	int r = 0;

	if (!ac)
		return 0;
	/* dump order: the worst first */
	for (int k = _AER_KIND_MAX - 1; r >= 0 && k >= 0; k--) {
		char buf[24] = "off";

		if (ac->limit[k] != AER_OFF)
			snprintf(buf, sizeof(buf), "%" PRIu64, ac->limit[k]);
		r = fn(ud, "AER", aer_kind_key(k), buf, &ac->limit_at[k], false);
	}
	if (r >= 0)
		r = fn(ud, "AER", "Exceeded", ac->fail ? "fail" : "warn", &ac->fail_at, false);
	return r;
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part aer_config_part = CONFIG_PART("[AER]", is_section);
