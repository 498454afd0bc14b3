// SPDX-License-Identifier: GPL-2.0-or-later
/* [Sysctl]: the config part (see sysctl.h for the key). */

#include "core/log.h"
#include "sysctl/sysctl.h"

static bool is_section(const char *name)
{
	return streq(name, "Sysctl");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct sysctl_config, "Sysctl", at, file_no);

	return r < 0 ? r : 0;
}

static void expect_reset(struct sysctl_config *sc)
{
	for (size_t i = 0; i < sc->n_expect; i++) {
		free(sc->expect[i].name);
		free(sc->expect[i].value);
	}
	free(sc->expect);
	sc->expect = NULL;
	sc->n_expect = 0;
}

/* The same name again replaces its value: a drop-in changes one setting. */
static int expect_set(struct sysctl_config *sc, char *name, char *value, const struct origin *at)
{
	struct sysctl_expect *grown;

	for (size_t i = 0; i < sc->n_expect; i++)
		if (streq(sc->expect[i].name, name)) {
			free(name);
			free(sc->expect[i].value);
			sc->expect[i].value = value;
			sc->expect[i].at = *at;
			return 0;
		}
	if (sc->n_expect >= SYSCTL_MAX_EXPECT) {
		free(name);
		free(value);
		return config_error_at(at, "Expect=: too many settings (at most %d)",
				       SYSCTL_MAX_EXPECT);
	}
	grown = reallocarray(sc->expect, sc->n_expect + 1, sizeof(*grown));
	if (!grown) {
		free(name);
		free(value);
		return -ENOMEM;
	}
	grown[sc->n_expect++] = (struct sysctl_expect){ .name = name, .value = value, .at = *at };
	sc->expect = grown;
	return 0;
}

/* Expect=NAME=VALUE: a list; an empty assignment forgets every setting. */
static int parse_expect(const struct config_item *it, void *state, const char *value,
			const struct origin *at)
{
	struct sysctl_config *sc = state;
	char *name = NULL, *v = NULL;
	const char *reason = NULL;
	int r;

	if (value[0] == '\0') {
		expect_reset(sc);
		return 0;
	}
	r = sysctl_parse_expect(value, &name, &v, &reason);
	if (r == -EINVAL)
		return config_error_at(at, "Expect=: '%s': %s", value, reason);
	if (r < 0)
		return r;
	return expect_set(sc, name, v, at);
}

static size_t expect_n_lines(const struct config_item *it, const void *state)
{
	const struct sysctl_config *sc = state;

	return sc->n_expect ? sc->n_expect : 1;
}

static int expect_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct sysctl_config *sc = state;
	int r = 0;

	if (sc->n_expect == 0) /* keep the section (and its emptiness) in the dump */
		return fn(ud, section, it->key, "", &sc->head.at, true);
	for (size_t i = 0; r >= 0 && i < sc->n_expect; i++) {
		_cleanup_(freep) char *line = NULL;

		if (asprintf(&line, "%s=%s", sc->expect[i].name, sc->expect[i].value) < 0)
			return -ENOMEM;
		r = fn(ud, section, it->key, line, &sc->expect[i].at, true);
	}
	return r;
}

static const struct config_item sysctl_items[] = {
	CONFIG_ITEM_LIST("Expect", parse_expect,
			 (&(const struct config_item_list){ expect_n_lines, expect_lines }), NULL,
			 struct sysctl_config, expect),
};

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(sysctl_items, ARRAY_SIZE(sysctl_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_items_unknown(sysctl_items, ARRAY_SIZE(sysctl_items), "Sysctl", key,
					    at);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* settings are independent */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(sysctl_items, ARRAY_SIZE(sysctl_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(sysctl_items, ARRAY_SIZE(sysctl_items), state, "Sysctl", fn, ud);
}

static void part_free(void *state)
{
	struct sysctl_config *sc = state;

	if (!sc)
		return;
	expect_reset(sc);
	free(sc);
}

const struct config_part sysctl_config_part = CONFIG_PART("[Sysctl]", is_section);
