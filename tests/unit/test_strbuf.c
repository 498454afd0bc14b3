// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The string builder: NULL until the first append, the text grows, a bound cuts it as
 * snprintf() into a fixed array did.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/strbuf.h"

static void test_grow(void **state)
{
	struct strbuf b = {};
	char *s = NULL;

	assert_null(b.s);
	assert_int_equal(strbuf_take(&b, &s), -ENOMEM); /* nothing appended: no text */
	strbuf_printf(&b, "%s", "");
	assert_non_null(b.s); /* an empty first part still counts as one */
	for (int i = 0; i < 100; i++)
		strbuf_printf(&b, "%s%d", i ? "," : "", i);
	assert_int_equal(b.len, strlen(b.s));
	assert_true(strneq(b.s, "0,1,2,3,", 8));
	assert_true(streq(b.s + b.len - 6, ",98,99"));
	assert_int_equal(strbuf_take(&b, &s), 0);
	assert_null(b.s);
	assert_int_equal(strlen(s), 289);
	free(s);
}

static void test_max(void **state)
{
	char fixed[8];
	struct strbuf b = { .max = sizeof(fixed) - 1 };
	size_t n = 0;

	/* the accumulator it replaces */
	for (int i = 0; i < 5 && n < sizeof(fixed); i++)
		n += snprintf(fixed + n, sizeof(fixed) - n, "%s%d", i ? ", " : "", i * 11);
	for (int i = 0; i < 5; i++)
		strbuf_printf(&b, "%s%d", i ? ", " : "", i * 11);
	assert_string_equal(b.s, fixed);
	assert_string_equal(b.s, "0, 11, ");
	assert_int_equal(b.len, 7);
	assert_false(b.oom);
	strbuf_done(&b);
	assert_null(b.s);
	assert_int_equal(b.max, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
