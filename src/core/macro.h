/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))
#define _cleanup_(f)   __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))

#define streq(a, b)	(strcmp((a), (b)) == 0)
#define strneq(a, b, n) (strncmp((a), (b), (n)) == 0)

static inline const char *strempty(const char *s)
{
	return s ? s : "";
}

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

/* Hand ownership of a pointer to the caller and disarm its cleanup. */
#define TAKE_PTR(p)                      \
	({                               \
		__typeof__(p) _p_ = (p); \
		(p) = NULL;              \
		_p_;                     \
	})

#define TAKE_FD(fd)              \
	({                       \
		int _fd_ = (fd); \
		(fd) = -1;       \
		_fd_;            \
	})

/* Free a NULL-terminated string vector. */
static inline void strv_free(char **v)
{
	if (!v)
		return;
	for (char **s = v; *s; s++)
		free(*s);
	free(v);
}

static inline void strv_freep(char ***v)
{
	strv_free(*v);
}
