// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names from the host (netdev, RDMA device: any byte but '/' and whitespace) in JSON:
 * valid UTF-8 passes as is, anything else is escaped as docs/CONTRACT.md says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/result.h"

static void test_utf8(void **state)
{
	static const struct {
		const char *s;
		bool ok;
	} t[] = {
		{ "", true },
		{ "mlx5_0", true },
		{ "caf\xc3\xa9", true },       /* é */
		{ "\xe2\x82\xac", true },      /* € */
		{ "\xf0\x9f\x98\x80", true },  /* U+1F600 */
		{ "\xff", false },	       /* never in UTF-8 */
		{ "mlx5_\xc3", false },	       /* lead byte alone at the end */
		{ "\xc3(", false },	       /* lead byte, no continuation */
		{ "\x80", false },	       /* continuation alone */
		{ "\xc0\xaf", false },	       /* overlong '/' */
		{ "\xe0\x80\xaf", false },     /* overlong, 3 bytes */
		{ "\xed\xa0\x80", false },     /* surrogate U+D800 */
		{ "\xf4\x90\x80\x80", false }, /* past U+10FFFF */
		{ "\xf5\x80\x80\x80", false },
		{ "a\x01"
		  "b",
		  true }, /* control: valid UTF-8, JSON escapes it */
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		print_message("%zu\n", i);
		assert_int_equal(text_is_utf8(t[i].s), t[i].ok);
	}
}

static void test_json_safe(void **state)
{
	char *buf = NULL;

	assert_string_equal(text_json_safe("mlx5_0", &buf), "mlx5_0");
	assert_null(buf);
	assert_null(text_json_safe(NULL, &buf));
	assert_string_equal(text_json_safe("eth\xff", &buf), "eth\\xff");
	assert_true(text_is_utf8(buf));
	free(buf);
	assert_string_equal(text_json_safe("a\\\xc3\x01\n", &buf), "a\\\\\\xc3\\x01\\n");
	free(buf);
	assert_string_equal(text_json_safe("caf\xc3\xa9\xff", &buf), "caf\xc3\xa9\\xff");
	free(buf);
}

/* A table cell: escaped as a whole when it holds a control or invalid UTF-8, else as is. */
static void test_terminal_safe(void **state)
{
	char *buf = NULL;

	assert_string_equal(text_terminal_safe("caf\xc3\xa9 \xe2\x80\x94 a\\b", &buf),
			    "caf\xc3\xa9 \xe2\x80\x94 a\\b");
	assert_null(buf);
	/* what the report's JSON holds for a name with 0xff reads back the same */
	assert_string_equal(text_terminal_safe("mlx5_6\\xff", &buf), "mlx5_6\\xff");
	assert_null(buf);
	assert_string_equal(text_terminal_safe("mlx5_6\xff", &buf), "mlx5_6\\xff");
	free(buf);
	assert_string_equal(text_terminal_safe("a\033[2J\\", &buf), "a\\x1b[2J\\\\");
	free(buf);
	assert_string_equal(text_terminal_safe("\xc2\x9b"
					       "1m",
					       &buf),
			    "\\xc2\\x9b1m"); /* CSI */
	free(buf);
	assert_string_equal(text_terminal_safe("a\xe2\x80\xae"
					       "b",
					       &buf),
			    "a\\xe2\\x80\\xaeb"); /* RLO */
	free(buf);
	assert_string_equal(text_terminal_safe("x\x7f", &buf), "x\\x7f");
	free(buf);
}

/* text_cut: whole units only, "…" room when cut; cols counts columns, not bytes. */
static void test_cut(void **state)
{
	char s[200];
	bool cut;

	/* exactly the width: all of it, no cut; one more column: cut, room for the "…" */
	memset(s, 'a', 120);
	s[120] = '\0';
	assert_int_equal(text_cut(s, 120, &cut), 120);
	assert_false(cut);
	s[120] = 'b';
	s[121] = '\0';
	assert_int_equal(text_cut(s, 120, &cut), 119);
	assert_true(cut);
	assert_int_equal(text_cut("", 0, &cut), 0);
	assert_false(cut);
	assert_int_equal(text_cut("ab", 1, &cut), 0);
	assert_true(cut);

	/* multibyte: "é" (2 bytes), "€" (3), U+1F600 (4) take one column each */
	assert_int_equal(text_cut("caf\xc3\xa9", 4, &cut), 5);
	assert_false(cut);
	/* the cut lands on é: kept whole (3 columns + …) or not at all */
	assert_int_equal(text_cut("caf\xc3\xa9s!", 5, &cut), 5);
	assert_true(cut);
	assert_int_equal(text_cut("caf\xc3\xa9s!", 4, &cut), 3);
	assert_true(cut);
	assert_int_equal(text_cut("x\xe2\x82\xac\xf0\x9f\x98\x80yz", 4, &cut), 8);
	assert_true(cut);
	assert_int_equal(text_cut("x\xe2\x82\xac\xf0\x9f\x98\x80yz", 3, &cut), 4);
	assert_true(cut);

	/* an escape \xNN is 4 columns and never split: the cut falls before it */
	for (size_t cols = 2; cols <= 5; cols++) {
		assert_int_equal(text_cut("a\\xffbc", cols, &cut), 1);
		assert_true(cut);
	}
	assert_int_equal(text_cut("a\\xffbc", 6, &cut), 5);
	assert_true(cut);
	assert_int_equal(text_cut("a\\xffbc", 7, &cut), 7);
	assert_false(cut);
	/* \\ and \n likewise (2 columns each) */
	assert_int_equal(text_cut("a\\\\b\\nc", 3, &cut), 1);
	assert_true(cut);
	assert_int_equal(text_cut("a\\\\b\\nc", 5, &cut), 4);
	assert_true(cut);
	/* a backslash without an escape after it ends the text alone */
	assert_int_equal(text_cut("ab\\", 3, &cut), 3);
	assert_false(cut);
	/* "\x" without two hex digits is a backslash and an x */
	assert_int_equal(text_cut("a\\xg12", 4, &cut), 3);
	assert_true(cut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_json_safe),
		cmocka_unit_test(test_terminal_safe),
		cmocka_unit_test(test_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
