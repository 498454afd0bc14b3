// SPDX-License-Identifier: GPL-2.0-or-later
/* A part's keys as a table (config.h, struct config_item): the generic parsers and printers. */

#include <inttypes.h>

#include "core/string-table.h"
#include "run/config.h"

void *config_item_field(const struct config_item *it, void *state)
{
	return (char *)state + it->offset;
}

const void *config_item_field_const(const struct config_item *it, const void *state)
{
	return (const char *)state + it->offset;
}

struct origin *config_item_at(const struct config_item *it, void *state)
{
	return (struct origin *)((char *)state + it->at_offset);
}

/* "a, b or c": an enum's names as the error message lists them. */
static void enum_choices(const struct config_enum_names *e, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < e->n && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s",
				i ? (i == e->n - 1 ? " or " : ", ") : "", e->names[i]);
}

int config_parse_enum(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	const struct config_enum_names *e = it->ltype;
	char choices[128];
	int i;

	if (value[0] == '\0') {
		*(int *)config_item_field(it, state) = (int)it->dflt;
		*config_item_at(it, state) = (struct origin){};
		return 0;
	}
	i = string_table_lookup_case(e->names, e->n, value);
	if (i >= 0) {
		*(int *)config_item_field(it, state) = i;
		*config_item_at(it, state) = *at;
		return 0;
	}
	enum_choices(e, choices, sizeof(choices));
	return config_error_at(at, "%s=: invalid value '%s' (use %s)", it->key, value, choices);
}

const char *config_print_enum(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	const struct config_enum_names *e = it->ltype;

	return string_table_get(e->names, e->n, *(const int *)config_item_field_const(it, state),
				"?");
}

int config_parse_bool(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	int b;

	if (value[0] == '\0') {
		*(bool *)config_item_field(it, state) = it->dflt;
		*config_item_at(it, state) = (struct origin){};
		return 0;
	}
	b = config_parse_boolean(value);
	if (b < 0)
		return config_error_at(at, "%s=: invalid boolean '%s' (use yes or no)", it->key,
				       value);
	*(bool *)config_item_field(it, state) = b;
	*config_item_at(it, state) = *at;
	return 0;
}

const char *config_print_bool(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	return *(const bool *)config_item_field_const(it, state) ? "yes" : "no";
}

int config_parse_decimal(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (max - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*ret = v;
	return 0;
}

int config_parse_uint64(const struct config_item *it, void *state, const char *value,
			const struct origin *at)
{
	const struct config_uint_range *u = it->ltype;
	char range[96];
	uint64_t v;

	if (value[0] == '\0') {
		*(uint64_t *)config_item_field(it, state) = it->dflt;
		*config_item_at(it, state) = (struct origin){};
		return 0;
	}
	if (config_parse_decimal(value, u->max, &v) == 0 && v >= u->min) {
		*(uint64_t *)config_item_field(it, state) = v;
		*config_item_at(it, state) = *at;
		return 0;
	}
	snprintf(range, sizeof(range), u->range, (unsigned long long)u->min,
		 (unsigned long long)u->max);
	return config_error_at(at, "%s=: invalid %s '%s' (%s)", it->key, u->what, value, range);
}

const char *config_print_uint64(const struct config_item *it, const void *state, char *buf,
				size_t size)
{
	snprintf(buf, size, "%" PRIu64, *(const uint64_t *)config_item_field_const(it, state));
	return buf;
}

const struct config_item *config_item_find(const struct config_item *items, size_t n,
					   const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (streq(items[i].key, key))
			return &items[i];
	return NULL;
}

int config_items_assign(const struct config_item *items, size_t n, void *state, const char *key,
			const char *value, const struct origin *at)
{
	const struct config_item *it = config_item_find(items, n, key);

	return it ? it->parse(it, state, value, at) : -ENOKEY;
}

int config_items_defaults(const struct config_item *items, size_t n, void *state)
{
	for (size_t i = 0; i < n; i++) {
		int r = items[i].parse(&items[i], state, "", &(struct origin){});

		if (r < 0)
			return r;
	}
	return 0;
}

int config_items_unknown(const struct config_item *items, size_t n, const char *section,
			 const char *key, const struct origin *at)
{
	char expected[256];
	size_t len = 0;

	expected[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(expected); i++)
		len += snprintf(expected + len, sizeof(expected) - len, "%s%s",
				i ? (i == n - 1 ? " or " : ", ") : "", items[i].key);
	return config_error_at(at, "unknown key '%s' in [%s] section (expected %s)", key, section,
			       expected);
}

size_t config_items_n_lines(const struct config_item *items, size_t n, const void *state)
{
	size_t lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += items[i].list ? items[i].list->n_lines(&items[i], state) : 1;
	return lines;
}

int config_item_line(const struct config_item *it, const void *state, const char *section,
		     config_line_fn fn, void *userdata)
{
	char buf[CONFIG_ITEM_PRINT_MAX];
	const char *value;

	if (it->list)
		return it->list->lines(it, state, section, fn, userdata);
	value = it->print(it, state, buf, sizeof(buf));
	if (!value)
		return -ENOMEM;
	return fn(userdata, section, it->key, value,
		  (const struct origin *)((const char *)state + it->at_offset), false);
}

int config_items_lines(const struct config_item *items, size_t n, const void *state,
		       const char *section, config_line_fn fn, void *userdata)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = config_item_line(&items[i], state, section, fn, userdata);
	return r;
}
