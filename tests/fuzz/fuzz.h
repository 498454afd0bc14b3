/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Shared by the libFuzzer targets (tests/fuzz/fuzz_*.c). Parsers that only take
 * a path get a file under a scratch root made once per process in $TMPDIR
 * (tests/fuzz/run.sh points it at a tmpfs dir it removes afterwards).
 */

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/log.h"
#include "core/macro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A finding: abort() so that libFuzzer saves the input, like a sanitizer report. */
#define fuzz_assert(cond)                                                                      \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			fprintf(stderr, "%s:%d: fuzz_assert(%s) failed\n", __FILE__, __LINE__, \
				#cond);                                                        \
			abort();                                                               \
		}                                                                              \
	} while (0)

/* data[0..size) as a NUL-terminated string (a NUL inside ends it early, as for C callers). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	fuzz_assert(s);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The scratch root, made on first use: "<TMPDIR>/hostprep-fuzz.XXXXXX". */
static inline const char *fuzz_root(void)
{
	static char *root;
	const char *tmp = getenv("TMPDIR");

	if (root)
		return root;
	fuzz_assert(asprintf(&root, "%s/hostprep-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp") > 0);
	fuzz_assert(mkdtemp(root));
	return root;
}

/* mkdir -p of the directory part of root/rel. */
static inline void fuzz_mkparents(const char *path)
{
	char *copy = strdup(path);

	fuzz_assert(copy);
	for (char *p = strchr(copy + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		fuzz_assert(mkdir(copy, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	free(copy);
}

/* Write root/rel with exactly these bytes; data NULL removes it. */
static inline void fuzz_put_file(const char *rel, const void *data, size_t size)
{
	char *path;
	int fd;

	fuzz_assert(asprintf(&path, "%s/%s", fuzz_root(), rel) > 0);
	if (!data) {
		fuzz_assert(unlink(path) == 0 || errno == ENOENT);
		free(path);
		return;
	}
	fuzz_mkparents(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fuzz_assert(fd >= 0);
	fuzz_assert(size == 0 || write(fd, data, size) == (ssize_t)size);
	close(fd);
	free(path);
}

/*
 * The next part of a multi-part input: parts are separated by the line "%%%"
 * ("\n%%%\n", in the dictionaries). Returns false when nothing is left.
 */
#define FUZZ_SEPARATOR "\n%%%\n"

static inline bool fuzz_next_part(const uint8_t **data, size_t *size, const uint8_t **ret,
				  size_t *ret_size)
{
	const size_t n = strlen(FUZZ_SEPARATOR);
	const uint8_t *sep;

	if (!*data)
		return false;
	*ret = *data;
	sep = memmem(*data, *size, FUZZ_SEPARATOR, n);
	if (!sep) {
		*ret_size = *size;
		*data = NULL;
		*size = 0;
		return true;
	}
	*ret_size = (size_t)(sep - *data);
	*size -= *ret_size + n;
	*data = sep + n;
	return true;
}
