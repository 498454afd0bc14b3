// SPDX-License-Identifier: GPL-2.0-or-later
/* A part's keys as a table (config.h, struct config_item): the generic parsers and printers. */

#include "core/string-table.h"
#include "run/config.h"

static void *field(const struct config_item *it, void *state)
{
	return (char *)state + it->offset;
}

static const void *field_const(const struct config_item *it, const void *state)
{
	return (const char *)state + it->offset;
}

static struct origin *field_at(const struct config_item *it, void *state)
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
		*(int *)field(it, state) = 0;
		*field_at(it, state) = (struct origin){};
		return 0;
	}
	i = string_table_lookup_case(e->names, e->n, value);
	if (i >= 0) {
		*(int *)field(it, state) = i;
		*field_at(it, state) = *at;
		return 0;
	}
	enum_choices(e, choices, sizeof(choices));
	return config_error_at(at, "%s=: invalid value '%s' (use %s)", it->key, value, choices);
}

const char *config_print_enum(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	const struct config_enum_names *e = it->ltype;

	return string_table_get(e->names, e->n, *(const int *)field_const(it, state), "?");
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

int config_item_line(const struct config_item *it, const void *state, const char *section,
		     config_line_fn fn, void *userdata)
{
	char buf[64];

	return fn(userdata, section, it->key, it->print(it, state, buf, sizeof(buf)),
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
