// SPDX-License-Identifier: GPL-2.0-or-later
#include <strings.h>

#include "kmod/kmod-config.h"
#include "core/log.h"
#include "core/string-table.h"

#define MODULE_PREFIX "Module:"

static const char *const kmod_reload_table[_KMOD_RELOAD_MAX] = {
	[KMOD_RELOAD_NEVER] = "never",
	[KMOD_RELOAD_UNUSED] = "unused",
};

static const char *const kmod_origin_table[_KMOD_ORIGIN_MAX] = {
	[KMOD_ORIGIN_ANY] = "any",
	[KMOD_ORIGIN_OFED] = "ofed",
	[KMOD_ORIGIN_INBOX] = "inbox",
};

static const char *const gpudirect_expect_table[_GPUDIRECT_MAX] = {
	[GPUDIRECT_ANY] = "any",
	[GPUDIRECT_PEERMEM] = "peermem",
	[GPUDIRECT_DMABUF] = "dmabuf",
	[GPUDIRECT_EITHER] = "either",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(kmod_reload, enum kmod_reload);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(kmod_origin, enum kmod_origin);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(gpudirect_expect, enum gpudirect_expect);

static int parse_min_version(const struct config_item *it, void *state, const char *value,
			     const struct origin *at)
{
	struct kmod_rule *rule = state;
	char *copy = NULL;

	if (value[0] && !ofed_version_valid(value))
		return config_error_at(
			at,
			"MinVersion=: invalid version '%s' (like 24.10-1.1.4: digits, "
			"letters, '.', '-', '_', at most %d characters)",
			value, KMOD_VERSION_MAX);
	if (value[0]) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(rule->min_version);
	rule->min_version = copy;
	rule->min_version_at = value[0] ? *at : (struct origin){};
	return 0;
}

static void params_reset(struct kmod_rule *rule)
{
	for (size_t i = 0; i < rule->n_params; i++)
		free(rule->params[i].value);
	free(rule->params);
	rule->params = NULL;
	rule->n_params = 0;
}

static struct kmod_param_want *param_find(struct kmod_rule *rule, const char *key)
{
	for (size_t i = 0; i < rule->n_params; i++)
		if (streq(rule->params[i].key, key))
			return &rule->params[i];
	return NULL;
}

static int param_add(struct kmod_rule *rule, const char *key, const char *value,
		     const struct origin *at)
{
	struct kmod_param_want *p = param_find(rule, key), *grown;

	if (p && streq(p->value, value))
		return 0; /* said twice, same meaning */
	if (p)
		return config_error_at(at, "Parameter=: %s=%s contradicts %s=%s (line %u of %s)",
				       key, value, key, p->value, p->at.line, p->at.file);
	if (rule->n_params >= KMOD_MAX_PARAMS)
		return config_error_at(at, "Parameter=: too many parameters (at most %d)",
				       KMOD_MAX_PARAMS);
	grown = reallocarray(rule->params, rule->n_params + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rule->params = grown;
	p = &rule->params[rule->n_params];
	*p = (struct kmod_param_want){ .at = *at, .value = strdup(value) };
	if (!p->value)
		return -ENOMEM;
	strcpy(p->key, key);
	rule->n_params++;
	return 0;
}

static int parse_param_word(struct kmod_rule *rule, const char *word, const struct origin *at)
{
	char key[KMOD_PARAM_MAX + 1], raw[KMOD_PARAM_MAX + 1];
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : 0;

	if (!eq || n == 0 || n > KMOD_PARAM_MAX)
		return config_error_at(at, "Parameter=: '%s' is not KEY=VALUE", word);
	memcpy(raw, word, n);
	raw[n] = '\0';
	if (kmod_param_name_normalize(raw, key) < 0)
		return config_error_at(
			at, "Parameter=: invalid parameter name '%s' (A-Z a-z 0-9 _)", raw);
	if (!kmod_param_value_valid(eq + 1))
		return config_error_at(
			at,
			"Parameter=: invalid value '%s' for %s (1-%d printable characters, "
			"no blanks, quotes or backslashes)",
			eq + 1, key, KMOD_VALUE_MAX);
	return param_add(rule, key, eq + 1, at);
}

/* Parameter=KEY=VALUE...: a list; an empty assignment forgets every parameter. */
static int parse_params(const struct config_item *it, void *state, const char *value,
			const struct origin *at)
{
	struct kmod_rule *rule = state;
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (value[0] == '\0') {
		params_reset(rule);
		return 0;
	}
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		int r = parse_param_word(rule, w, at);

		if (r == -ENOMEM)
			return r;
		if (r < 0)
			ret = r;
	}
	return ret;
}

static const char *print_min_version(const struct config_item *it, const void *state, char *buf,
				     size_t size)
{
	return strempty(((const struct kmod_rule *)state)->min_version);
}

static size_t params_n_lines(const struct config_item *it, const void *state)
{
	return ((const struct kmod_rule *)state)->n_params;
}

/* A line per parameter, none for none (the default). */
static int params_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct kmod_rule *r = state;
	int ret = 0;

	for (size_t i = 0; ret >= 0 && i < r->n_params; i++) {
		_cleanup_(freep) char *pv = NULL;

		if (asprintf(&pv, "%s=%s", r->params[i].key, r->params[i].value) < 0)
			return -ENOMEM;
		ret = fn(ud, section, it->key, pv, &r->params[i].at, true);
	}
	return ret;
}

static const struct config_item_list params_list = { params_n_lines, params_lines };

/* A [Module:NAME] rule's keys, in dump order; a new rule starts from their defaults. */
static const struct config_item module_items[] = {
	CONFIG_ITEM_BOOL_AT("Enabled", struct kmod_rule, enabled.on, enabled.at, true),
	CONFIG_ITEM_BOOL_AT("Require", struct kmod_rule, require.on, require.at, true),
	CONFIG_ITEM_BOOL_AT("Load", struct kmod_rule, load.on, load.at, false),
	CONFIG_ITEM_ENUM("Reload", struct kmod_rule, reload, kmod_reload_table),
	CONFIG_ITEM_BOOL_AT("Persist", struct kmod_rule, persist.on, persist.at, false),
	CONFIG_ITEM_ENUM("Origin", struct kmod_rule, origin, kmod_origin_table),
	CONFIG_ITEM("MinVersion", parse_min_version, print_min_version, NULL, struct kmod_rule,
		    min_version),
	CONFIG_ITEM_BOOL_AT("Devices", struct kmod_rule, devices.on, devices.at, false),
	CONFIG_ITEM_BOOL_AT("RdmaCM", struct kmod_rule, rdmacm.on, rdmacm.at, false),
	CONFIG_ITEM_LIST("Parameter", parse_params, &params_list, NULL, struct kmod_rule, params),
};

static const struct config_item gpudirect_items[] = {
	CONFIG_ITEM_ENUM("Expect", struct kmod_config, gpudirect, gpudirect_expect_table),
};

bool kmod_config_is_section(const char *name)
{
	return streq(name, "GPUDirect") || strneq(name, MODULE_PREFIX, strlen(MODULE_PREFIX));
}

static int enter_module(struct kmod_config *kc, const char *raw, const struct origin *at,
			unsigned file_no)
{
	struct kmod_rule t = { .at = *at };
	int r;

	if (kmod_name_normalize(raw, t.name) < 0)
		return config_error_at(
			at, "invalid module name '%s' (1-%d characters of A-Z a-z 0-9 _ -)", raw,
			KMOD_NAME_MAX);
	r = config_items_defaults(module_items, ARRAY_SIZE(module_items), &t);
	if (r < 0)
		return r;
	r = CONFIG_RULE_ENTER(&kc->rules, &kc->n_rules, KMOD_MAX_MODULES, &t, MODULE_PREFIX, "NAME",
			      at, file_no);
	if (r < 0)
		return r;
	kc->cur = r;
	kc->in_gpudirect = false;
	return 0;
}

int kmod_config_section(struct kmod_config **kc, const char *name, const struct origin *at,
			unsigned file_no)
{
	if (!*kc) {
		*kc = calloc(1, sizeof(**kc));
		if (!*kc)
			return -ENOMEM;
	}
	if (streq(name, "GPUDirect")) {
		(*kc)->in_gpudirect = true;
		return 0;
	}
	return enter_module(*kc, name + strlen(MODULE_PREFIX), at, file_no);
}

int kmod_config_assign(struct kmod_config *kc, const char *key, const char *value,
		       const struct origin *at)
{
	int r;

	if (!kc->in_gpudirect) {
		r = config_items_assign(module_items, ARRAY_SIZE(module_items), &kc->rules[kc->cur],
					key, value, at);
		if (r == -ENOKEY)
			return config_error_at(
				at, "unknown key '%s' in [" MODULE_PREFIX "*] section", key);
		return r;
	}
	r = config_items_assign(gpudirect_items, ARRAY_SIZE(gpudirect_items), kc, key, value, at);
	if (r == -ENOKEY)
		return config_error_at(at, "unknown key '%s' in [GPUDirect] section", key);
	return r;
}

/* The later of two settings is where the contradiction was made. */
static const struct origin *later(const struct origin *a, const struct origin *b,
				  const struct origin *fallback)
{
	if (!a->file)
		return b->file ? b : fallback;
	if (!b->file)
		return a;
	return a->line >= b->line && streq(a->file, b->file) ? a : b;
}

static int check_rule(const struct kmod_rule *r)
{
	int ret = 0;

	if (r->load.on && !r->require.on)
		ret = config_error_at(later(&r->load.at, &r->require.at, &r->at),
				      "[" MODULE_PREFIX "%s]: Load=yes contradicts Require=no",
				      r->name);
	if (r->reload == KMOD_RELOAD_UNUSED && r->n_params == 0)
		ret = config_error_at(&r->reload_at,
				      "[" MODULE_PREFIX
				      "%s]: Reload=unused needs Parameter= (a reload "
				      "only sets parameters)",
				      r->name);
	if (r->persist.on && r->n_params == 0)
		ret = config_error_at(&r->persist.at,
				      "[" MODULE_PREFIX
				      "%s]: Persist=yes needs Parameter= (nothing to "
				      "persist)",
				      r->name);
	if (r->origin == KMOD_ORIGIN_INBOX && r->min_version)
		ret = config_error_at(later(&r->origin_at, &r->min_version_at, &r->at),
				      "[" MODULE_PREFIX
				      "%s]: Origin=inbox contradicts MinVersion= (an "
				      "OFED version)",
				      r->name);
	return ret;
}

int kmod_config_finish(const struct kmod_config *kc)
{
	int ret = 0;

	for (size_t i = 0; kc && i < kc->n_rules; i++)
		if (check_rule(&kc->rules[i]) < 0)
			ret = -EINVAL;
	return ret;
}

void kmod_config_free(struct kmod_config *kc)
{
	if (!kc)
		return;
	for (size_t i = 0; i < kc->n_rules; i++) {
		params_reset(&kc->rules[i]);
		free(kc->rules[i].min_version);
	}
	free(kc->rules);
	free(kc);
}

size_t kmod_config_n_lines(const struct kmod_config *kc)
{
	size_t n;

	if (!kc)
		return 0;
	n = config_items_n_lines(gpudirect_items, ARRAY_SIZE(gpudirect_items), kc);
	for (size_t i = 0; i < kc->n_rules; i++)
		n += config_items_n_lines(module_items, ARRAY_SIZE(module_items), &kc->rules[i]);
	return n;
}

static int rule_lines(const struct kmod_rule *r, kmod_config_line_fn fn, void *ud)
{
	char section[sizeof(MODULE_PREFIX) + KMOD_NAME_MAX];

	snprintf(section, sizeof(section), MODULE_PREFIX "%s", r->name);
	return config_items_lines(module_items, ARRAY_SIZE(module_items), r, section, fn, ud);
}

int kmod_config_lines(const struct kmod_config *kc, kmod_config_line_fn fn, void *userdata)
{
	int r;

	if (!kc)
		return 0;
	for (size_t i = 0; i < kc->n_rules; i++) {
		r = rule_lines(&kc->rules[i], fn, userdata);
		if (r < 0)
			return r;
	}
	return config_items_lines(gpudirect_items, ARRAY_SIZE(gpudirect_items), kc, "GPUDirect", fn,
				  userdata);
}

char *kmod_rule_params_string(const struct kmod_rule *rule)
{
	size_t n = 1;
	char *s, *p;

	for (size_t i = 0; i < rule->n_params; i++)
		n += strlen(rule->params[i].key) + strlen(rule->params[i].value) + 2;
	s = p = malloc(n);
	if (!s)
		return NULL;
	*s = '\0';
	for (size_t i = 0; i < rule->n_params; i++)
		p += sprintf(p, "%s%s=%s", i ? " " : "", rule->params[i].key,
			     rule->params[i].value);
	return s;
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	struct kmod_config *kc = *state;
	int r = kmod_config_section(&kc, name, at, file_no);

	*state = kc;
	return r;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	return kmod_config_assign(state, key, value, at);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return kmod_config_finish(state);
}

static size_t part_n_lines(const void *state)
{
	return kmod_config_n_lines(state);
}

static int part_lines(const void *state, config_line_fn fn, void *userdata)
{
	return kmod_config_lines(state, fn, userdata);
}

static void part_free(void *state)
{
	kmod_config_free(state);
}

const struct config_part kmod_config_part =
	CONFIG_PART("[Module:NAME] or [GPUDirect]", kmod_config_is_section);
