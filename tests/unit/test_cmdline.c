// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel command line split like the kernel's next_arg(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/cmdline.h"

static void assert_param(const struct cmdline *c, size_t i, const char *key, const char *value)
{
	assert_true(i < c->n);
	assert_string_equal(c->params[i].key, key);
	if (value)
		assert_string_equal(c->params[i].value, value);
	else
		assert_null(c->params[i].value);
}

static void test_split_words(void **state)
{
	struct cmdline c = {};

	assert_int_equal(
		cmdline_parse("BOOT_IMAGE=/vmlinuz-6.12.0 root=UUID=ab-cd ro  quiet\tiommu=pt\n",
			      &c),
		0);
	assert_int_equal(c.n, 5);
	assert_param(&c, 0, "BOOT_IMAGE", "/vmlinuz-6.12.0");
	/* Only the first '=' splits. */
	assert_param(&c, 1, "root", "UUID=ab-cd");
	assert_param(&c, 2, "ro", NULL);
	assert_param(&c, 3, "quiet", NULL);
	assert_param(&c, 4, "iommu", "pt");
	cmdline_done(&c);
	assert_int_equal(c.n, 0);
	assert_null(c.params);
}

static void test_quoted_value(void **state)
{
	struct cmdline c = {};

	assert_int_equal(
		cmdline_parse(
			"ro pci=config_acs=\"xx000x0@0000:00:01.0;x0x00xx@0000:00:02.0\" quiet",
			&c),
		0);
	assert_int_equal(c.n, 3);
	assert_param(&c, 0, "ro", NULL);
	/* A quote that opens neither the word nor the value stays (next_arg()). */
	assert_param(&c, 1, "pci", "config_acs=\"xx000x0@0000:00:01.0;x0x00xx@0000:00:02.0\"");
	assert_param(&c, 2, "quiet", NULL);
	cmdline_done(&c);
}

static void test_quoted_value_with_spaces(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("dyndbg=\"file a.c +p\" ro", &c), 0);
	assert_int_equal(c.n, 2);
	assert_param(&c, 0, "dyndbg", "file a.c +p");
	assert_param(&c, 1, "ro", NULL);
	cmdline_done(&c);
}

static void test_quoted_whole_word(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("\"acpi_osi=Windows 2020\" \"nomodeset\" x", &c), 0);
	assert_int_equal(c.n, 3);
	assert_param(&c, 0, "acpi_osi", "Windows 2020");
	assert_param(&c, 1, "nomodeset", NULL);
	assert_param(&c, 2, "x", NULL);
	cmdline_done(&c);
}

static void test_bare_words_and_empty_value(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("ro nosmt iommu=", &c), 0);
	assert_int_equal(c.n, 3);
	assert_param(&c, 0, "ro", NULL);
	assert_param(&c, 1, "nosmt", NULL);
	/* "key=" is an empty value, not a bare word. */
	assert_param(&c, 2, "iommu", "");
	cmdline_done(&c);
}

static void test_double_dash_stops(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("ro iommu=pt -- iommu=off single", &c), 0);
	assert_int_equal(c.n, 2);
	assert_param(&c, 0, "ro", NULL);
	assert_param(&c, 1, "iommu", "pt");
	assert_null(cmdline_find_last(&c, "single"));
	assert_string_equal(cmdline_find_last(&c, "iommu")->value, "pt");
	cmdline_done(&c);

	/* "--x" and "a--" are ordinary words. */
	assert_int_equal(cmdline_parse("--x a-- b", &c), 0);
	assert_int_equal(c.n, 3);
	assert_param(&c, 0, "--x", NULL);
	assert_param(&c, 1, "a--", NULL);
	cmdline_done(&c);
}

static void test_find_last(void **state)
{
	struct cmdline c = {};
	const struct cmdline_param *p;

	assert_int_equal(
		cmdline_parse("iommu=pt intel_iommu=on iommu=nopt iommu.passthrough=1", &c), 0);
	p = cmdline_find_last(&c, "iommu");
	assert_non_null(p);
	assert_string_equal(p->value, "nopt");
	assert_ptr_equal(p, &c.params[2]);
	p = cmdline_find_last(&c, "intel_iommu");
	assert_non_null(p);
	assert_string_equal(p->value, "on");
	/* Keys are compared whole: no prefix match. */
	assert_null(cmdline_find_last(&c, "iommu.pass"));
	assert_null(cmdline_find_last(&c, "amd_iommu"));
	cmdline_done(&c);
}

/* "--" ends the kernel's words; the rest stays for libkmod, which reads on. */
static void test_dashdash(void **state)
{
	struct cmdline c;

	assert_int_equal(cmdline_parse("ro -- erdma.compat_mode=N modprobe.blacklist=x --", &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.n_all, 4);
	assert_null(cmdline_find_last(&c, "erdma.compat_mode"));
	assert_string_equal(c.params[1].key, "erdma.compat_mode");
	assert_string_equal(c.params[3].key, "--"); /* a second one is a word of init's */
	cmdline_done(&c);
	assert_int_equal(cmdline_parse("ro quiet", &c), 0);
	assert_true(c.n == 2 && c.n_all == 2);
	cmdline_done(&c);
}

static void test_empty(void **state)
{
	struct cmdline c = { .n = 42 };

	assert_int_equal(cmdline_parse("", &c), 0);
	assert_int_equal(c.n, 0);
	assert_null(cmdline_find_last(&c, "ro"));
	cmdline_done(&c);

	assert_int_equal(cmdline_parse("  \t\n ", &c), 0);
	assert_int_equal(c.n, 0);
	cmdline_done(&c);
}

/* next_arg(): which quotes go and which stay, word by word. */
static void test_next_arg_quote_rules(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("pci=\"config_acs=x0x00xx@00:01.0;x0x00xx@00:02.0\" "
				       "\"pci=config_acs=1@00:03.0;0@00:04.0\" "
				       "a\"b c\"d=e k=v\"w\" q=\" x=1",
				       &c),
			 0);
	assert_int_equal(c.n, 5);
	/* The value's opening quote goes, with the word's last quote. */
	assert_param(&c, 0, "pci", "config_acs=x0x00xx@00:01.0;x0x00xx@00:02.0");
	/* A quote that opens the word goes, with the word's last quote. */
	assert_param(&c, 1, "pci", "config_acs=1@00:03.0;0@00:04.0");
	/* Quotes inside the key group the space and stay. */
	assert_param(&c, 2, "a\"b c\"d", "e");
	/* A quote inside the value groups nothing away: it stays. */
	assert_param(&c, 3, "k", "v\"w\"");
	/* q=" : the quote opens a group that swallows the rest of the line. */
	assert_param(&c, 4, "q", " x=1");
	cmdline_done(&c);
	/* The word's last quote goes once: x="y"" keeps one. */
	assert_int_equal(cmdline_parse("x=\"y\"\"", &c), 0);
	assert_param(&c, 0, "x", "y\"");
	cmdline_done(&c);
	assert_int_equal(cmdline_parse("q=\"", &c), 0);
	assert_param(&c, 0, "q", "");
	cmdline_done(&c);
}

/* The kernel's white space includes \v, \f, \r and 0xa0; "--" counts after quote removal. */
static void test_kernel_white_space(void **state)
{
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("a\vb\fc\rd\xa0"
				       "e \"--\" f",
				       &c),
			 0);
	assert_int_equal(c.n, 5);
	assert_param(&c, 0, "a", NULL);
	assert_param(&c, 4, "e", NULL);
	cmdline_done(&c);
	/* An '=' that starts the word does not split it (equals == 0 in next_arg()). */
	assert_int_equal(cmdline_parse("=x a==b", &c), 0);
	assert_param(&c, 0, "=x", NULL);
	assert_param(&c, 1, "a", "=b");
	cmdline_done(&c);
	/* An unterminated quote runs to the end of the line. */
	assert_int_equal(cmdline_parse("x=\"a b c", &c), 0);
	assert_int_equal(c.n, 1);
	assert_param(&c, 0, "x", "a b c");
	cmdline_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_quoted_value),
		cmocka_unit_test(test_next_arg_quote_rules),
		cmocka_unit_test(test_kernel_white_space),
		cmocka_unit_test(test_quoted_value_with_spaces),
		cmocka_unit_test(test_quoted_whole_word),
		cmocka_unit_test(test_bare_words_and_empty_value),
		cmocka_unit_test(test_double_dash_stops),
		cmocka_unit_test(test_find_last),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_dashdash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
