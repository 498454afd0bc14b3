// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * systemd-boot's LoaderEntrySelected (efivarfs: the attribute word, then the entry id in
 * UTF-16LE, NUL-terminated) decoded strictly, and the entry file names an id names: what
 * acs.cmdline names as the entry booted when the command line has no BOOT_IMAGE=.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acs/acs-boot.h"

#define ATTR "\x06\x00\x00\x00"

/* a string literal's bytes, without the NUL C adds */
#define DECODE(lit, ret) loader_entry_decode(lit, sizeof(lit) - 1, ret)

static void expect_bad(const char *data, size_t size)
{
	char *id = (char *)1;

	assert_int_equal(loader_entry_decode(data, size, &id), -EBADMSG);
	assert_null(id);
}

static void test_decode_good(void **state)
{
	char *id = NULL;

	assert_int_equal(DECODE(ATTR "a\0b\0.\0c\0o\0n\0f\0\0\0", &id), 0);
	assert_string_equal(id, "ab.conf");
	free(id);
	/* one character: the shortest id */
	assert_int_equal(DECODE(ATTR "x\0\0\0", &id), 0);
	assert_string_equal(id, "x");
	free(id);
	/* the attribute word is not judged (non-volatile, other bits) */
	assert_int_equal(DECODE("\x07\x00\x00\x80" "~\0!\0\0\0", &id), 0);
	assert_string_equal(id, "~!");
	free(id);
}

static void test_decode_size(void **state)
{
	expect_bad("", 0);
	expect_bad(ATTR, 1);
	expect_bad(ATTR, 3);
	/* the attribute word only */
	expect_bad(ATTR, 4);
	/* an odd byte count: half a character */
	expect_bad(ATTR "x\0\0\0\0", 9);
	expect_bad(ATTR "x", 5);
	/* the NUL alone: an empty id */
	expect_bad(ATTR "\0\0", 6);
}

static void test_decode_nul(void **state)
{
	/* no NUL at the end */
	expect_bad(ATTR "a\0b\0", 8);
	/* half a NUL: its high byte set (U+0100) */
	expect_bad(ATTR "a\0\0\x01", 8);
	/* a NUL inside: two ids, or one and garbage */
	expect_bad(ATTR "a\0\0\0b\0\0\0", 12);
}

static void test_decode_chars(void **state)
{
	/* a UTF-16 surrogate pair (U+1F600), a lone high and a lone low surrogate */
	expect_bad(ATTR "a\0\x3d\xd8\x00\xde\0\0", 10);
	expect_bad(ATTR "\x00\xd8" "a\0\0\0", 8);
	expect_bad(ATTR "\x00\xdc" "a\0\0\0", 8);
	/* non-ASCII: Latin-1 (U+00E9), a high byte with an ASCII low byte (U+0161) */
	expect_bad(ATTR "\xe9\0\0\0", 8);
	expect_bad(ATTR "a\x01\0\0", 8);
	/* DEL and the ASCII edges around the printable range */
	expect_bad(ATTR "\x7f\0\0\0", 8);
	expect_bad(ATTR " \0\0\0", 8);
	expect_bad(ATTR "\t\0\0\0", 8);
	expect_bad(ATTR "\x1f\0\0\0", 8);
	/* no path: a slash or a backslash */
	expect_bad(ATTR "a\0/\0b\0\0\0", 12);
	expect_bad(ATTR "a\0\\\0b\0\0\0", 12);
}

static void test_id_names(void **state)
{
	assert_true(loader_entry_id_names("abc-6.1.conf", "abc-6.1.conf", ".conf"));
	assert_true(loader_entry_id_names("abc-6.1", "abc-6.1.conf", ".conf"));
	/* systemd-boot lowercases ids */
	assert_true(loader_entry_id_names("abc-6.1.conf", "ABC-6.1.Conf", ".conf"));
	/* the boot counter is not part of the id */
	assert_true(loader_entry_id_names("abc-6.1.conf", "abc-6.1+3.conf", ".conf"));
	assert_true(loader_entry_id_names("abc-6.1", "abc-6.1+3-1.conf", ".conf"));
	assert_true(loader_entry_id_names("abc-6.1.conf", "abc-6.1+0-12.conf", ".conf"));
	/* what only looks like a counter stays in the name */
	assert_false(loader_entry_id_names("abc-6.1", "abc-6.1+x.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1", "abc-6.1+.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1", "abc-6.1+3-.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1", "abc-6.1+3-1-2.conf", ".conf"));
	assert_true(loader_entry_id_names("abc-6.1+3-.conf", "abc-6.1+3-.conf", ".conf"));
	assert_false(loader_entry_id_names("", "+3.conf", ".conf"));
	/* another suffix is another entry: a UKI is no .conf entry, and the reverse */
	assert_false(loader_entry_id_names("abc-6.1.efi", "abc-6.1.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1.conf", "abc-6.1.efi", ".efi"));
	assert_true(loader_entry_id_names("abc-6.1.efi", "abc-6.1.efi", ".efi"));
	assert_true(loader_entry_id_names("abc-6.1", "abc-6.1+1-0.EFI", ".efi"));
	/* a prefix or a longer name is not the same entry */
	assert_false(loader_entry_id_names("abc-6.1", "abc-6.12.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.12", "abc-6.1.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1.con", "abc-6.1.conf", ".conf"));
	assert_false(loader_entry_id_names("abc-6.1.conf.conf", "abc-6.1.conf", ".conf"));
	/* a file of another suffix is none of these entries, whatever its stem */
	assert_false(loader_entry_id_names("abcd", "abcde.efi", ".conf"));
	assert_false(loader_entry_id_names("abcd.conf", "abcd.conf.efi", ".conf"));
	/* the suffix alone is no entry */
	assert_false(loader_entry_id_names(".conf", ".conf", ".conf"));
	assert_false(loader_entry_id_names("abc", "abc", ".conf"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_good),  cmocka_unit_test(test_decode_size),
		cmocka_unit_test(test_decode_nul),   cmocka_unit_test(test_decode_chars),
		cmocka_unit_test(test_id_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
