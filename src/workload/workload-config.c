// SPDX-License-Identifier: GPL-2.0-or-later
/* [Workload]: the config part (see workload.h for the keys). */

#include "core/log.h"
#include "workload/workload.h"

static const char *const default_units[] = {
	"containerd.service",
	"docker.service",
	"crio.service",
	"kubelet.service",
};

static bool is_section(const char *name)
{
	return streq(name, "Workload");
}

static void units_reset(struct workload_config *wc)
{
	for (size_t i = 0; i < wc->n_units; i++)
		free(wc->units[i].name);
	free(wc->units);
	wc->units = NULL;
	wc->n_units = 0;
}

static int unit_add(struct workload_config *wc, const char *name, const struct origin *at)
{
	struct workload_unit *grown;
	char *copy;

	for (size_t i = 0; i < wc->n_units; i++)
		if (streq(wc->units[i].name, name))
			return 0; /* listed twice: one check is enough */
	if (wc->n_units >= WORKLOAD_MAX_UNITS) {
		config_error_at(at, "MemlockUnits=: too many units (at most %d)",
				WORKLOAD_MAX_UNITS);
		return -E2BIG;
	}
	copy = strdup(name);
	grown = copy ? reallocarray(wc->units, wc->n_units + 1, sizeof(*grown)) : NULL;
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	wc->units = grown;
	wc->units[wc->n_units++] = (struct workload_unit){ .name = copy, .at = *at };
	return 0;
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct workload_config, "Workload", at, file_no);

	if (r <= 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(default_units); i++) /* created: the defaults */
		if (unit_add(*state, default_units[i], &(struct origin){}) < 0)
			return -ENOMEM;
	return 0;
}

struct unit_words {
	struct workload_config *wc;
	const struct origin *at;
};

static int unit_word(void *ctx, const char *word)
{
	struct unit_words *w = ctx;

	if (!workload_unit_name_valid(word))
		return config_error_at(w->at,
				       "MemlockUnits=: invalid unit name '%s' (a service unit, "
				       "like containerd.service)",
				       word);
	return unit_add(w->wc, word, w->at);
}

/* List key: whitespace-separated; the first assignment replaces the default list. */
static int parse_units(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	struct workload_config *wc = state;
	struct unit_words w = { .wc = wc, .at = at };

	if (!wc->units_set || value[0] == '\0')
		units_reset(wc);
	wc->units_set = true;
	return config_for_each_word(value, unit_word, &w);
}

static size_t units_n_lines(const struct config_item *it, const void *state)
{
	const struct workload_config *wc = state;

	return wc->n_units ? wc->n_units : 1;
}

static int units_lines(const struct config_item *it, const void *state, const char *section,
		       config_line_fn fn, void *ud)
{
	const struct workload_config *wc = state;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < wc->n_units; i++)
		r = fn(ud, section, it->key, wc->units[i].name, &wc->units[i].at, true);
	/* An emptied list must dump as one, or it would read back as the default list. */
	if (wc->n_units == 0)
		r = fn(ud, section, it->key, "", &wc->head.at, true);
	return r;
}

static int parse_min(const struct config_item *it, void *state, const char *value,
		     const struct origin *at)
{
	struct workload_config *wc = state;
	uint64_t v;
	int r;

	if (value[0] == '\0') {
		wc->min_set = false;
		wc->min_at = (struct origin){};
		return 0;
	}
	r = workload_parse_size(value, &v);
	if (r == -ERANGE)
		return config_error_at(at, "MinMemlock=: '%s' is out of range", value);
	if (r < 0)
		return config_error_at(at,
				       "MinMemlock=: invalid size '%s' (infinity, or bytes with an "
				       "optional K, M, G or T suffix, base 1024, like 64M)",
				       value);
	wc->min_set = true;
	wc->min_memlock = v;
	wc->min_at = *at;
	return 0;
}

/* Unset: empty, which reads back as unset. */
static const char *print_min(const struct config_item *it, const void *state, char *buf,
			     size_t size)
{
	const struct workload_config *wc = state;

	if (!wc->min_set)
		return "";
	return workload_format_size(wc->min_memlock, buf, size);
}

static const struct config_item_list units_list = { units_n_lines, units_lines };

/* In dump order. A new section is zeroed but for the default units (part_section()). */
static const struct config_item workload_items[] = {
	CONFIG_ITEM_LIST("MemlockUnits", parse_units, &units_list, NULL, struct workload_config,
			 units),
	CONFIG_ITEM_AT("MinMemlock", parse_min, print_min, NULL, 0, struct workload_config,
		       min_memlock, min_at),
	CONFIG_ITEM_BOOL("DeviceNodes", struct workload_config, devices, false),
	CONFIG_ITEM("NetnsMode", config_parse_enum, config_print_enum, &netns_expect_names,
		    struct workload_config, netns),
};

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(workload_items, ARRAY_SIZE(workload_items), state, key, value,
				    at);

	if (r == -ENOKEY)
		return config_items_unknown(workload_items, ARRAY_SIZE(workload_items), "Workload",
					    key, at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* every key stands alone: nothing can contradict across files */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(workload_items, ARRAY_SIZE(workload_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(workload_items, ARRAY_SIZE(workload_items), state, "Workload", fn,
				  ud);
}

static void part_free(void *state)
{
	struct workload_config *wc = state;

	if (!wc)
		return;
	units_reset(wc);
	free(wc);
}

const struct config_part workload_config_part = CONFIG_PART("[Workload]", is_section);
