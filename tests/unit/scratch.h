/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files in a unit test's scratch directory, by path: the test's own setup and checks.
 * The product writes and reads only through a root (src/core/sysroot.h); these are not
 * it. Include after <cmocka.h>.
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p */
static inline void scratch_mkdir_p(const char *path)
{
	char *p = strdup(path);

	assert_non_null(p);
	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = c;
		if (!c)
			break;
	}
	free(p);
}

static inline void scratch_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
}

/* The file whole, NUL-terminated (malloc'd); NULL when it cannot be read. */
static inline char *scratch_read(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	assert_non_null(buf);
	size = fread(buf, 1, (1 << 20) - 1, f);
	buf[size] = '\0';
	fclose(f);
	return buf;
}
