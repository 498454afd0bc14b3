/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <strings.h>

#include "core/macro.h"

/*
 * Enum <-> name tables, written once as data (systemd's string-table.h):
 *
 *   static const char *const bond_mii_table[_BOND_MII_MAX] = {
 *           [BOND_MII_UP] = "up",
 *           ...
 *   };
 *   DEFINE_STRING_TABLE_LOOKUP_TO_STRING(bond_mii, enum bond_mii);
 *
 * defines const char *bond_mii_to_string(enum bond_mii) over name##_table, with
 * designated initialisers so that the order of the enum cannot drift from the names.
 * to_string of a value outside the table (or of a hole in it) is NULL, or the fallback of
 * the _FALLBACK variants ("?", "invalid": what a printer shows rather than crash on).
 * from_string is int (the value, or -EINVAL for a name not in the table and for NULL) and
 * matches exactly; the _STATIC variants are for a table private to one file.
 */

/* The index of key in table (n entries, holes skipped), -EINVAL for none or NULL. */
static inline int string_table_lookup(const char *const *table, size_t n, const char *key)
{
	if (!key)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (table[i] && streq(table[i], key))
			return (int)i;
	return -EINVAL;
}

/* The same, in any case (config values: LinkLayer=infiniband is LinkLayer=InfiniBand). */
static inline int string_table_lookup_case(const char *const *table, size_t n, const char *key)
{
	if (!key)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (table[i] && strcasecmp(table[i], key) == 0)
			return (int)i;
	return -EINVAL;
}

/* table[i], or fallback for an index outside it or a hole (the cast folds in negatives). */
static inline const char *string_table_get(const char *const *table, size_t n, long long i,
					   const char *fallback)
{
	if (i < 0 || (unsigned long long)i >= n || !table[i])
		return fallback;
	return table[i];
}

#define _DEFINE_STRING_TABLE_TO_STRING(name, type, fallback, scope)                           \
	scope const char *name##_to_string(type i)                                            \
	{                                                                                     \
		return string_table_get(name##_table, ARRAY_SIZE(name##_table), (long long)i, \
					(fallback));                                          \
	}

#define _DEFINE_STRING_TABLE_FROM_STRING(name, scope)                                  \
	scope int name##_from_string(const char *s)                                    \
	{                                                                              \
		return string_table_lookup(name##_table, ARRAY_SIZE(name##_table), s); \
	}

#define DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type) \
	_DEFINE_STRING_TABLE_TO_STRING(name, type, NULL, )
#define DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(name, type, fallback) \
	_DEFINE_STRING_TABLE_TO_STRING(name, type, fallback, )
#define DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name) _DEFINE_STRING_TABLE_FROM_STRING(name, )

#define DEFINE_STRING_TABLE_LOOKUP(name, type)           \
	DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type) \
	DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name)
#define DEFINE_STRING_TABLE_LOOKUP_FALLBACK(name, type, fallback)           \
	DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(name, type, fallback) \
	DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name)

#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP_TO_STRING(name, type) \
	_DEFINE_STRING_TABLE_TO_STRING(name, type, NULL, static)
#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING(name) \
	_DEFINE_STRING_TABLE_FROM_STRING(name, static)
