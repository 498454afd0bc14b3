// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A boot entry's kernel line as the kernel reads it: GRUB's word splitting of grub.cfg
 * text, the command line GRUB's linux command builds from the words, and which
 * pci=config_acs= / pci=disable_acs_redir= value the kernel keeps from it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acs/acs-grub.h"

static void expect_line(const char *text, size_t skip, const char *want)
{
	char *got = NULL;

	assert_int_equal(grub_kernel_cmdline(text, skip, &got), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_words(void **state)
{
	expect_line("linux /vmlinuz root=UUID=1 ro quiet", 2, "root=UUID=1 ro quiet");
	expect_line("linux\t/vmlinuz  a\t b", 2, "a b");
	expect_line("options a b", 1, "a b");
	expect_line("a b", 0, "a b");
	expect_line("linux /vmlinuz", 2, "");
	expect_line("", 0, "");
	/* "..." groups and goes; \ escapes only $ " \ and a newline inside */
	expect_line("k=\"a;b\"", 0, "k=a;b");
	expect_line("\"k=a\"\"b\"", 0, "k=ab");
	expect_line("k=\"\\$x\\\"\\\\\"", 0, "k=$x\\\"\\\\"); /* $ " \, then escaped for the kernel */
	expect_line("k=\"a\\qb\"", 0, "k=a\\\\qb");		/* another \ stays (and is escaped) */
	expect_line("k=\"a\\\nb\"", 0, "k=ab");		/* \ newline joins */
	expect_line("k=\"a\nb\"", 0, "k=a\nb");		/* a bare newline inside stays */
	/* '...' is literal: the \ inside stays */
	expect_line("k='a;\\b'", 0, "k=a;\\\\b");
	/* outside quotes \ escapes the next character */
	expect_line("k=a\\;b c", 0, "k=a;b c");
	expect_line("k=a\\ b c", 0, "\"k=a b\" c");
	/* unclosed quotes end with the text */
	expect_line("k=\"a b", 0, "\"k=a b\"");
	expect_line("k='a", 0, "k=a");
}

static void test_command_ends(void **state)
{
	/* an unquoted operator or newline ends the command: what follows is not passed */
	expect_line("a k=x;y b", 0, "a k=x");
	expect_line("a b&c", 0, "a b");
	expect_line("a b|c", 0, "a b");
	expect_line("a b<c", 0, "a b");
	expect_line("a b>c", 0, "a b");
	expect_line("a b(c", 0, "a b");
	expect_line("a b)c", 0, "a b");
	expect_line("a b\nc", 0, "a b");
	/* # starts a comment only at a word's start */
	expect_line("a b # c d", 0, "a b");
	expect_line("a #b", 0, "a");
	expect_line("a b#c", 0, "a b#c");
	expect_line("a \"#b\"", 0, "a #b");
}

static void test_loader_escapes(void **state)
{
	/* grub_create_loader_cmdline(): \ ' " escaped, a word with a space quoted */
	expect_line("'a\"b'", 0, "a\\\"b");
	expect_line("\"a'b\"", 0, "a\\'b");
	expect_line("'a\\b'", 0, "a\\\\b");
	expect_line("\"a b\" c", 0, "\"a b\" c");
	expect_line("\"a\tb\"", 0, "a\tb"); /* only a space makes GRUB quote it */
	/* $NAME stays as written: GRUB's value is not known here */
	expect_line("a $vt_handoff b", 0, "a $vt_handoff b");
}

static enum grub_line_state judge(const char *text, size_t skip, const char *arg,
				  const char *winner)
{
	struct grub_judgement j;
	enum grub_line_state s;

	assert_int_equal(grub_line_judge(text, skip, arg, &j), 0);
	if (winner)
		assert_string_equal(j.winner, winner);
	else
		assert_null(j.winner);
	s = j.state;
	grub_judgement_done(&j);
	return s;
}

#define OURS "pci=config_acs=\"x0x00xx@0000:15:01.0;x0x00xx@0000:37:01.0\""
#define OLD  "pci=config_acs=xx000x0@0000:15:01.0"

static void test_judge_states(void **state)
{
	assert_int_equal(judge("linux /v ro " OURS, 2, OURS, NULL), GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v ro " OLD " " OURS, 2, OURS, NULL), GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v ro " OURS " " OLD, 2, OURS, OLD), GRUB_LINE_SHADOWED);
	assert_int_equal(judge("linux /v ro " OURS " " OURS, 2, OURS, NULL), GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v ro " OURS " " OLD " " OURS, 2, OURS, NULL),
			 GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v ro", 2, OURS, NULL), GRUB_LINE_LACKS);
	assert_int_equal(judge("linux /v ro " OLD, 2, OURS, OLD), GRUB_LINE_LACKS);
	/* options of one pci= word are split on ',': a later option wins too */
	assert_int_equal(judge("linux /v " OURS " pci=noaer,config_acs=1@00:01.0", 2, OURS,
			       "pci=config_acs=1@00:01.0"),
			 GRUB_LINE_SHADOWED);
	assert_int_equal(judge("linux /v " OURS " pci=noaer", 2, OURS, NULL), GRUB_LINE_CARRIES);
	/* another parameter is no rival; the image word is not judged */
	assert_int_equal(judge("linux /v " OURS " pci=disable_acs_redir=00:01.0", 2, OURS, NULL),
			 GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux " OLD " " OURS, 2, OURS, NULL), GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v " OURS " x" OLD, 2, OURS, NULL), GRUB_LINE_CARRIES);
	/* unquoted, GRUB cuts ours at its ';': the kernel gets only the first entry */
	assert_int_equal(judge("linux /v pci=config_acs=x0x00xx@0000:15:01.0;x0x00xx@0000:37:01.0",
			       2, OURS, "pci=config_acs=x0x00xx@0000:15:01.0"),
			 GRUB_LINE_LACKS);
	/* after "--" the words are init's */
	assert_int_equal(judge("linux /v " OURS " -- " OLD, 2, OURS, NULL), GRUB_LINE_CARRIES);
}

static void test_judge_redir(void **state)
{
	const char *ours = "pci=disable_acs_redir=0000:15:01.0";

	assert_int_equal(judge("linux /v pci=disable_acs_redir=0000:15:01.0", 2, ours, NULL),
			 GRUB_LINE_CARRIES);
	assert_int_equal(judge("linux /v pci=disable_acs_redir=0000:15:01.0 "
			       "pci=disable_acs_redir=0000:37:01.0",
			       2, ours, "pci=disable_acs_redir=0000:37:01.0"),
			 GRUB_LINE_SHADOWED);
	/* config_acs= does not replace disable_acs_redir= */
	assert_int_equal(judge("linux /v pci=disable_acs_redir=0000:15:01.0 " OLD, 2, ours, NULL),
			 GRUB_LINE_CARRIES);
}

static void test_judge_bad_arg(void **state)
{
	struct grub_judgement j;

	assert_int_equal(grub_line_judge("linux /v ro", 2, "quiet", &j), -EINVAL);
	assert_null(j.winner);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),	      cmocka_unit_test(test_command_ends),
		cmocka_unit_test(test_loader_escapes), cmocka_unit_test(test_judge_states),
		cmocka_unit_test(test_judge_redir),   cmocka_unit_test(test_judge_bad_arg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
