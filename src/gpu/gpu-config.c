// SPDX-License-Identifier: GPL-2.0-or-later
/* [GPU]: the config part (see gpu.h for the keys). */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "core/log.h"
#include "gpu/gpu.h"

/* A dotted version in a char[GPU_VERSION_MAX]; ltype: the base of its fields (an int). */
static int parse_version(const struct config_item *it, void *state, const char *value,
			 const struct origin *at)
{
	int base = *(const int *)it->ltype;

	if (value[0] && (!gpu_version_valid(value, base) || strlen(value) >= GPU_VERSION_MAX))
		return config_error_at(at,
				       "%s=: invalid version '%s' (%s fields separated by dots)",
				       it->key, value, base == 16 ? "hexadecimal" : "numeric");
	snprintf(config_item_field(it, state), GPU_VERSION_MAX, "%s", value);
	*config_item_at(it, state) = value[0] ? *at : (struct origin){};
	return 0;
}

static const char *print_string(const struct config_item *it, const void *state, char *buf,
				size_t size)
{
	return config_item_field_const(it, state);
}

static const char *const mig_names[] = { [GPU_ANY] = "any", [GPU_ON] = "on", [GPU_OFF] = "off" };

static int parse_mig(const struct config_item *it, void *state, const char *value,
		     const struct origin *at)
{
	struct gpu_config *gc = state;

	for (size_t i = 0; i < ARRAY_SIZE(mig_names); i++)
		if (value[0] == '\0' || config_enum_eq(value, mig_names[i])) {
			gc->mig = value[0] ? (enum gpu_tristate)i : GPU_ANY;
			gc->mig_at = value[0] ? *at : (struct origin){};
			return 0;
		}
	return config_error_at(at, "MIG=: invalid value '%s' (use on, off or any)", value);
}

static const char *print_mig(const struct config_item *it, const void *state, char *buf,
			     size_t size)
{
	return mig_names[((const struct gpu_config *)state)->mig];
}

static int parse_persistence(const struct config_item *it, void *state, const char *value,
			     const struct origin *at)
{
	struct gpu_config *gc = state;

	if (value[0] == '\0' || config_enum_eq(value, "yes")) {
		gc->persistence = true;
		gc->persistence_at = value[0] ? *at : (struct origin){};
		return 0;
	}
	if (!config_enum_eq(value, "any"))
		return config_error_at(at, "Persistence=: invalid value '%s' (use yes or any)",
				       value);
	gc->persistence = false;
	gc->persistence_at = *at;
	return 0;
}

static const char *print_persistence(const struct config_item *it, const void *state, char *buf,
				     size_t size)
{
	return ((const struct gpu_config *)state)->persistence ? "yes" : "any";
}

static int parse_nvlinks(const struct config_item *it, void *state, const char *value,
			 const struct origin *at)
{
	struct gpu_config *gc = state;
	char *end;
	unsigned long n;

	gc->nvlinks_at = value[0] ? *at : (struct origin){};
	if (value[0] == '\0' || config_enum_eq(value, "all")) {
		gc->nvlinks = GPU_NVLINKS_ALL;
		return 0;
	}
	if (config_enum_eq(value, "any")) {
		gc->nvlinks = GPU_NVLINKS_ANY;
		return 0;
	}
	errno = 0;
	n = strtoul(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || *end || errno || n < 1 || n > GPU_NVLINKS_MAX)
		return config_error_at(at,
				       "NVLinks=: invalid value '%s' (use all, any or a number of "
				       "links from 1 to %d)",
				       value, GPU_NVLINKS_MAX);
	gc->nvlinks = (int)n;
	return 0;
}

static const char *print_nvlinks(const struct config_item *it, const void *state, char *buf,
				 size_t size)
{
	return gpu_nvlinks_text(((const struct gpu_config *)state)->nvlinks, buf, size);
}

static const int base10 = 10, base16 = 16;

/* In dump order. An empty value of each restores its default (a new section's). */
static const struct config_item gpu_items[] = {
	CONFIG_ITEM("MinDriver", parse_version, print_string, &base10, struct gpu_config,
		    min_driver),
	CONFIG_ITEM("Driver", parse_version, print_string, &base10, struct gpu_config, driver),
	CONFIG_ITEM("Persistence", parse_persistence, print_persistence, NULL, struct gpu_config,
		    persistence),
	CONFIG_ITEM("MIG", parse_mig, print_mig, NULL, struct gpu_config, mig),
	CONFIG_ITEM("MinVBIOS", parse_version, print_string, &base16, struct gpu_config, min_vbios),
	CONFIG_ITEM("NVLinks", parse_nvlinks, print_nvlinks, NULL, struct gpu_config, nvlinks),
};

static bool is_section(const char *name)
{
	return streq(name, "GPU");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct gpu_config, "GPU", at, file_no);

	if (r == 1)
		r = config_items_defaults(gpu_items, ARRAY_SIZE(gpu_items), *state);
	return r < 0 ? r : 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(gpu_items, ARRAY_SIZE(gpu_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_items_unknown(gpu_items, ARRAY_SIZE(gpu_items), "GPU", key, at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	const struct gpu_config *gc = state;

	if (gc && gc->driver[0] && gc->min_driver[0])
		return config_error_at(&gc->driver_at,
				       "Driver= and MinDriver= both set (MinDriver= at %s:%u): "
				       "keep one",
				       gc->min_driver_at.file, gc->min_driver_at.line);
	return 0;
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(gpu_items, ARRAY_SIZE(gpu_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(gpu_items, ARRAY_SIZE(gpu_items), state, "GPU", fn, ud);
}

const char *gpu_nvlinks_text(int nvlinks, char *buf, size_t size)
{
	if (nvlinks == GPU_NVLINKS_ALL)
		return "all";
	if (nvlinks == GPU_NVLINKS_ANY)
		return "any";
	snprintf(buf, size, "%d", nvlinks);
	return buf;
}

static void part_free(void *state)
{
	free(state);
}

const struct config_part gpu_config_part = CONFIG_PART("[GPU]", is_section);
