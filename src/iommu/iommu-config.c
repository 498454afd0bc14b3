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

static const struct config_item iommu_items[] = {
	CONFIG_ITEM_ENUM("Expect", struct iommu_config, expect, iommu_expect_table),
};

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(iommu_items, ARRAY_SIZE(iommu_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_error_at(at, "unknown key '%s' in [IOMMU] section", key);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0;
}

/* Expect= is always in the dump, "# default" when no file set it. */
static size_t part_n_lines(const void *state)
{
	return ARRAY_SIZE(iommu_items);
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	return config_items_lines(iommu_items, ARRAY_SIZE(iommu_items),
				  state ? state : &iommu_defaults, "IOMMU", fn, ud);
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part iommu_config_part = CONFIG_PART("[IOMMU]", is_section);
