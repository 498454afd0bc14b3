// SPDX-License-Identifier: GPL-2.0-or-later
/* [IOMMU]: the config part (see iommu-config.h for the key). */

#include "core/log.h"
#include "iommu/iommu-config.h"
#include "core/string-table.h"

static const char *const iommu_expect_table[_IOMMU_EXPECT_MAX] = {
	[IOMMU_EXPECT_ANY] = "any",
	[IOMMU_EXPECT_OFF] = "off",
	[IOMMU_EXPECT_PASSTHROUGH] = "passthrough",
	[IOMMU_EXPECT_TRANSLATED] = "translated",
};

static const struct iommu_config iommu_defaults = { .expect = IOMMU_EXPECT_ANY };

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(iommu_expect, enum iommu_expect);

const struct iommu_config *iommu_config_get(const struct config *c)
{
	const struct iommu_config *ic = config_part_state(c, &iommu_config_part);

	return ic ? ic : &iommu_defaults;
}

static bool is_section(const char *name)
{
	return streq(name, "IOMMU");
}

/* No duplicate check: a second [IOMMU] in one file is as good as the first. */
static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	struct iommu_config *ic = *state;

	if (ic)
		return 0;
	ic = malloc(sizeof(*ic));
	if (!ic)
		return -ENOMEM;
	*ic = iommu_defaults;
	*state = ic;
	return 0;
}

static int parse_expect(struct iommu_config *ic, const char *value, const struct origin *at)
{
	if (value[0] == '\0') {
		*ic = iommu_defaults;
		return 0;
	}
	for (int e = 0; e < _IOMMU_EXPECT_MAX; e++)
		if (config_enum_eq(value, iommu_expect_table[e])) {
			ic->expect = e;
			ic->expect_at = *at;
			return 0;
		}
	return config_error_at(
		at, "Expect=: invalid value '%s' (use any, off, passthrough or translated)", value);
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	if (streq(key, "Expect"))
		return parse_expect(state, value, at);
	return config_error_at(at, "unknown key '%s' in [IOMMU] section", key);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0;
}

/* Expect= is always in the dump, "# default" when no file set it. */
static size_t part_n_lines(const void *state)
{
	return 1;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct iommu_config *ic = state ? state : &iommu_defaults;

	return fn(ud, "IOMMU", "Expect", iommu_expect_to_string(ic->expect), &ic->expect_at, false);
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part iommu_config_part = CONFIG_PART("[IOMMU]", is_section);
