// SPDX-License-Identifier: GPL-2.0-or-later
/* [GPU]: the config part (see gpu.h for the keys). */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "core/log.h"
#include "gpu/gpu.h"

static bool is_section(const char *name)
{
	return streq(name, "GPU");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct gpu_config, "GPU", at, file_no);

	if (r == 1) {
		((struct gpu_config *)*state)->persistence = true;
		((struct gpu_config *)*state)->nvlinks = GPU_NVLINKS_ALL;
	}
	return r < 0 ? r : 0;
}

static int assign_version(const char *key, const char *value, int base, char *buf,
			  struct origin *buf_at, const struct origin *at)
{
	if (value[0] && (!gpu_version_valid(value, base) || strlen(value) >= GPU_VERSION_MAX))
		return config_error_at(at,
				       "%s=: invalid version '%s' (%s fields separated by dots)",
				       key, value, base == 16 ? "hexadecimal" : "numeric");
	snprintf(buf, GPU_VERSION_MAX, "%s", value);
	*buf_at = value[0] ? *at : (struct origin){};
	return 0;
}

static int assign_mig(struct gpu_config *gc, const char *value, const struct origin *at)
{
	static const char *const names[] = {
		[GPU_ANY] = "any", [GPU_ON] = "on", [GPU_OFF] = "off"
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (value[0] == '\0' || config_enum_eq(value, names[i])) {
			gc->mig = value[0] ? (enum gpu_tristate)i : GPU_ANY;
			gc->mig_at = value[0] ? *at : (struct origin){};
			return 0;
		}
	return config_error_at(at, "MIG=: invalid value '%s' (use on, off or any)", value);
}

static int assign_persistence(struct gpu_config *gc, const char *value, const struct origin *at)
{
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

static int assign_nvlinks(struct gpu_config *gc, const char *value, const struct origin *at)
{
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

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct gpu_config *gc = state;

	if (streq(key, "MinDriver"))
		return assign_version(key, value, 10, gc->min_driver, &gc->min_driver_at, at);
	if (streq(key, "Driver"))
		return assign_version(key, value, 10, gc->driver, &gc->driver_at, at);
	if (streq(key, "MinVBIOS"))
		return assign_version(key, value, 16, gc->min_vbios, &gc->min_vbios_at, at);
	if (streq(key, "Persistence"))
		return assign_persistence(gc, value, at);
	if (streq(key, "MIG"))
		return assign_mig(gc, value, at);
	if (streq(key, "NVLinks"))
		return assign_nvlinks(gc, value, at);
	return config_error_at(at,
			       "unknown key '%s' in [GPU] section (expected MinDriver, Driver, "
			       "Persistence, MIG, MinVBIOS or NVLinks)",
			       key);
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
	return state ? 6 : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	static const char *const mig[] = { [GPU_ANY] = "any", [GPU_ON] = "on", [GPU_OFF] = "off" };
	const struct gpu_config *gc = state;
	char buf[16];
	int r;

	if (!gc)
		return 0;
	r = fn(ud, "GPU", "MinDriver", gc->min_driver, &gc->min_driver_at, false);
	if (r >= 0)
		r = fn(ud, "GPU", "Driver", gc->driver, &gc->driver_at, false);
	if (r >= 0)
		r = fn(ud, "GPU", "Persistence", gc->persistence ? "yes" : "any",
		       &gc->persistence_at, false);
	if (r >= 0)
		r = fn(ud, "GPU", "MIG", mig[gc->mig], &gc->mig_at, false);
	if (r >= 0)
		r = fn(ud, "GPU", "MinVBIOS", gc->min_vbios, &gc->min_vbios_at, false);
	if (r >= 0)
		r = fn(ud, "GPU", "NVLinks", gpu_nvlinks_text(gc->nvlinks, buf, sizeof(buf)),
		       &gc->nvlinks_at, false);
	return r;
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
