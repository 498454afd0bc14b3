// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text edits of `acs cmdline --install` on BLS and kernel-install hosts: grubby's
 * --args/--remove-args semantics on the kernel's own options (config_acs= and
 * disable_acs_redir= inside pci= words), an entry's options lines and $kernelopts,
 * grubenv's fixed-size block, GRUB_CMDLINE_LINUX in /etc/default/grub.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acs/acs-boot.h"

#define ARG "pci=config_acs=\"1x0x00xx@pci:0:1.0\""

static void expect_opts(const char *text, const char *arg, const char *want)
{
	char *got = NULL;

	assert_int_equal(bootopts_edit(text, strlen(text), arg, &got), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_opts_replace(void **state)
{
	expect_opts("root=UUID=1 ro quiet", ARG, "root=UUID=1 ro quiet " ARG);
	expect_opts("", ARG, ARG);
	/* replaced, not duplicated: once ours, twice the same bytes */
	expect_opts("ro " ARG, ARG, "ro " ARG);
	expect_opts("ro " ARG " quiet", ARG, "ro quiet " ARG);
	/* an older value, quoted or not, and the pre-6.11 option go */
	expect_opts("pci=config_acs=xx000x0@0000:15:01.0 ro", ARG, "ro " ARG);
	expect_opts("ro pci=disable_acs_redir=0000:15:01.0", ARG, "ro " ARG);
	expect_opts("\"pci=config_acs=1@a;b\" ro", ARG, "ro " ARG);
	/* other pci= options stay, in their word */
	expect_opts("pci=noaer,config_acs=1@a,realloc ro", ARG, "pci=noaer,realloc ro " ARG);
	expect_opts("pci=config_acs=1@a,noaer", ARG, "pci=noaer " ARG);
	expect_opts("\"pci=noaer,config_acs=1@a\"", ARG, "\"pci=noaer\" " ARG);
	expect_opts("pci=noaer", ARG, "pci=noaer " ARG);
	/* not ours: a word that only looks alike, a quoted blank inside a word */
	expect_opts("xpci=config_acs=1 a=\"b pci=config_acs=1\"", ARG,
		    "xpci=config_acs=1 a=\"b pci=config_acs=1\" " ARG);
	/* shell text: \" is no quote */
	expect_opts("ro pci=config_acs=\\\"1@a;b\\\" quiet", NULL, "ro quiet");
}

static void test_opts_remove(void **state)
{
	expect_opts("ro " ARG, NULL, "ro");
	expect_opts(ARG " ro", NULL, "ro");
	expect_opts(ARG, NULL, "");
	expect_opts("ro\tquiet", NULL, "ro\tquiet");
	expect_opts("ro  " ARG "  quiet", NULL, "ro  quiet");
}

static void expect_entry(const char *data, const char *want, bool want_ko)
{
	char *got = NULL;
	size_t n = 0;
	bool ko = !want_ko;

	assert_int_equal(bls_entry_edit(data, strlen(data), ARG, &got, &n, &ko), 0);
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));
	assert_int_equal(ko, want_ko);
	free(got);
}

static void test_entry(void **state)
{
	expect_entry("title RHEL\nlinux /vmlinuz\noptions root=/dev/sda1 ro\n",
		     "title RHEL\nlinux /vmlinuz\noptions root=/dev/sda1 ro " ARG "\n", false);
	/* several options lines: old values go from all, ours on the last */
	expect_entry("options a pci=config_acs=1@x\n# options " ARG "\noptions b\n",
		     "options a\n# options " ARG "\noptions b " ARG "\n", false);
	/* no options line: one added */
	expect_entry("title T\nlinux /v", "title T\nlinux /v\noptions " ARG "\n", false);
	expect_entry("options\n", "options " ARG "\n", false);
	/* $kernelopts: grubenv holds ours; the entry only loses a leftover after it */
	expect_entry("options $kernelopts pci=config_acs=1@x\n", "options $kernelopts\n", true);
	expect_entry("options ${kernelopts} $tuned_params\n", "options ${kernelopts} $tuned_params\n",
		     true);
	/* "optionsx" is another key */
	expect_entry("optionsx a\n", "optionsx a\noptions " ARG "\n", false);
}

static char *env_block(const char *vars)
{
	char *b = malloc(1025);

	assert_non_null(b);
	memset(b, '#', 1024);
	b[1024] = '\0';
	memcpy(b, "# GRUB Environment Block\n", 25);
	memcpy(b + 25, vars, strlen(vars));
	return b;
}

static void test_grubenv(void **state)
{
	_cleanup_(freep) char *in = env_block("saved_entry=x\nkernelopts=root=/dev/sda1 ro \n");
	_cleanup_(freep) char *want = env_block("saved_entry=x\nkernelopts=root=/dev/sda1 ro " ARG
						"\n");
	_cleanup_(freep) char *none = env_block("saved_entry=x\n");
	_cleanup_(freep) char *added = env_block("saved_entry=x\nkernelopts=" ARG "\n");
	_cleanup_(freep) char *big = malloc(1024);
	char *got = NULL;

	assert_int_equal(grubenv_edit(in, 1024, ARG, &got), 0);
	assert_memory_equal(got, want, 1024);
	free(got);
	assert_int_equal(grubenv_edit(none, 1024, ARG, &got), 0);
	assert_memory_equal(got, added, 1024);
	free(got);
	/* no room left in the block, not a grubenv, escapes */
	assert_non_null(big);
	memcpy(big, in, 1024);
	memset(big + 60, 'a', 1024 - 61);
	big[1023] = '\n';
	assert_int_equal(grubenv_edit(big, 1024, ARG, &got), -E2BIG);
	assert_int_equal(grubenv_edit("kernelopts=ro\n", 14, ARG, &got), -EINVAL);
	in[40] = '\\';
	assert_int_equal(grubenv_edit(in, 1024, ARG, &got), -EINVAL);
}

static void expect_default(const char *data, const char *want, int rc)
{
	char *got = NULL;
	size_t n = 0;

	assert_int_equal(default_grub_edit(data, strlen(data), ARG, &got, &n), rc);
	if (rc == 0)
		assert_string_equal(got, want);
	free(got);
}

#define SH_ARG "pci=config_acs=\\\"1x0x00xx@pci:0:1.0\\\""

static void test_default_grub(void **state)
{
	expect_default("GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX=\"crashkernel=auto rhgb quiet\"\n",
		       "GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX=\"crashkernel=auto rhgb quiet " SH_ARG
		       "\"\n",
		       0);
	/* installed twice: the same bytes */
	expect_default("GRUB_CMDLINE_LINUX=\"quiet " SH_ARG "\"\n",
		       "GRUB_CMDLINE_LINUX=\"quiet " SH_ARG "\"\n", 0);
	/* an older one in an earlier assignment goes; ours on the last; comments kept */
	expect_default("GRUB_CMDLINE_LINUX=\"pci=config_acs=1@a quiet\"\n"
		       "#GRUB_CMDLINE_LINUX=\"x\"\n"
		       "export GRUB_CMDLINE_LINUX='$GRUB_CMDLINE_LINUX rhgb' # why\n",
		       "GRUB_CMDLINE_LINUX=\"quiet\"\n#GRUB_CMDLINE_LINUX=\"x\"\n"
		       "export GRUB_CMDLINE_LINUX='$GRUB_CMDLINE_LINUX rhgb " ARG "' # why\n",
		       0);
	/* a bare word is quoted; none: one added */
	expect_default("GRUB_CMDLINE_LINUX=quiet\n", "GRUB_CMDLINE_LINUX=\"quiet " SH_ARG "\"\n",
		       0);
	expect_default("GRUB_CMDLINE_LINUX=\n", "GRUB_CMDLINE_LINUX=\"" SH_ARG "\"\n", 0);
	expect_default("GRUB_TIMEOUT=5", "GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX=\"" SH_ARG "\"\n", 0);
	/* GRUB_CMDLINE_LINUX_DEFAULT is another variable */
	expect_default("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n",
		       "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"" SH_ARG "\"\n",
		       0);
	/* what only a shell can tell: refused */
	expect_default("GRUB_CMDLINE_LINUX=\"a\"\"b\"\n", NULL, -EINVAL);
	expect_default("GRUB_CMDLINE_LINUX=\"a\" B=1\n", NULL, -EINVAL);
	expect_default("GRUB_CMDLINE_LINUX=$X\n", NULL, -EINVAL);
	expect_default("GRUB_CMDLINE_LINUX=\"a\n", NULL, -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_replace), cmocka_unit_test(test_opts_remove),
		cmocka_unit_test(test_entry),	     cmocka_unit_test(test_grubenv),
		cmocka_unit_test(test_default_grub),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
