// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The enum <-> name table macros (src/core/string-table.h): every value, the edges of the
 * range (negative, the end, a hole), the fallback, and names that are not there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/result.h"
#include "core/string-table.h"

enum colour {
	COLOUR_RED,
	COLOUR_GREEN,
	COLOUR_HOLE, /* no name: to_string says so, from_string never gives it */
	COLOUR_BLUE,
	_COLOUR_MAX,
};

static const char *const colour_table[_COLOUR_MAX] = {
	[COLOUR_RED] = "red",
	[COLOUR_GREEN] = "green",
	[COLOUR_BLUE] = "blue",
};

const char *colour_to_string(enum colour c);
int colour_from_string(const char *s);
DEFINE_STRING_TABLE_LOOKUP(colour, enum colour);

/* The same table behind a fallback, under another name. */
static const char *const shade_table[_COLOUR_MAX] = {
	[COLOUR_RED] = "red",
	[COLOUR_GREEN] = "green",
	[COLOUR_BLUE] = "blue",
};
const char *shade_to_string(int c);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(shade, int, "?");

static const char *const gen_table[] = { "unknown", "one" };
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_TO_STRING(gen, int);
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING(gen);

static void test_to_string(void **state)
{
	assert_string_equal(colour_to_string(COLOUR_RED), "red");
	assert_string_equal(colour_to_string(COLOUR_GREEN), "green");
	assert_string_equal(colour_to_string(COLOUR_BLUE), "blue");
	assert_null(colour_to_string(COLOUR_HOLE));
	assert_null(colour_to_string(_COLOUR_MAX));
	assert_null(colour_to_string((enum colour)-1));
	assert_null(colour_to_string((enum colour)0x7fffffff));
	assert_string_equal(gen_to_string(0), "unknown");
	assert_string_equal(gen_to_string(1), "one");
	assert_null(gen_to_string(2));
	assert_null(gen_to_string(-1));
}

static void test_fallback(void **state)
{
	assert_string_equal(shade_to_string(COLOUR_RED), "red");
	assert_string_equal(shade_to_string(COLOUR_BLUE), "blue");
	assert_string_equal(shade_to_string(COLOUR_HOLE), "?");
	assert_string_equal(shade_to_string(_COLOUR_MAX), "?");
	assert_string_equal(shade_to_string(-1), "?");
	assert_string_equal(shade_to_string(-2147483647 - 1), "?");
}

static void test_from_string(void **state)
{
	assert_int_equal(colour_from_string("red"), COLOUR_RED);
	assert_int_equal(colour_from_string("green"), COLOUR_GREEN);
	assert_int_equal(colour_from_string("blue"), COLOUR_BLUE);
	assert_int_equal(colour_from_string("Red"), -EINVAL); /* exact */
	assert_int_equal(colour_from_string("re"), -EINVAL);
	assert_int_equal(colour_from_string("redd"), -EINVAL);
	assert_int_equal(colour_from_string(""), -EINVAL);
	assert_int_equal(colour_from_string(NULL), -EINVAL);
	assert_int_equal(gen_from_string("one"), 1);
	assert_int_equal(gen_from_string("two"), -EINVAL);
}

/* The bounds themselves, where what lies past n is a name (a macro's table has no such). */
static void test_bounds(void **state)
{
	static const char *const three[] = { "a", "b", "c" };

	assert_string_equal(string_table_get(three, 2, 1, "?"), "b");
	assert_string_equal(string_table_get(three, 2, 2, "?"), "?");
	assert_string_equal(string_table_get(three, 2, -1, "?"), "?");
	assert_int_equal(string_table_lookup(three, 2, "b"), 1);
	assert_int_equal(string_table_lookup(three, 2, "c"), -EINVAL);
	assert_int_equal(string_table_lookup_case(three, 2, "C"), -EINVAL);
}

static void test_lookup_case(void **state)
{
	assert_int_equal(string_table_lookup_case(colour_table, _COLOUR_MAX, "BLUE"), COLOUR_BLUE);
	assert_int_equal(string_table_lookup_case(colour_table, _COLOUR_MAX, "gReen"),
			 COLOUR_GREEN);
	assert_int_equal(string_table_lookup_case(colour_table, _COLOUR_MAX, "blu"), -EINVAL);
	assert_int_equal(string_table_lookup_case(colour_table, _COLOUR_MAX, NULL), -EINVAL);
}

/* The tables that print in every report: each value both ways, and the fallback. */
static void test_result_tables(void **state)
{
	for (int v = 0; v < _VERDICT_MAX; v++)
		assert_int_equal(verdict_from_string(verdict_to_string(v)), v);
	for (int a = 0; a < _ACTION_MAX; a++)
		assert_int_equal(action_from_string(action_to_string(a)), a);
	for (int s = 0; s < _SEVERITY_MAX; s++)
		assert_int_equal(severity_from_string(severity_to_string(s)), s);
	assert_string_equal(verdict_to_string(VERDICT_UNKNOWN), "unknown");
	assert_string_equal(action_to_string(ACTION_RESTART_APP), "restart-app");
	assert_string_equal(severity_to_string(SEVERITY_CRITICAL), "critical");
	assert_string_equal(verdict_to_string(_VERDICT_MAX), "invalid");
	assert_string_equal(action_to_string(-1), "invalid");
	assert_string_equal(severity_to_string(_SEVERITY_MAX), "invalid");
	assert_int_equal(verdict_from_string("invalid"), -EINVAL);
	assert_int_equal(action_from_string(NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_string),   cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_from_string), cmocka_unit_test(test_lookup_case),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_result_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
