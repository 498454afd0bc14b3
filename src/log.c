// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "log.h"

static int max_level = LOG_NOTICE;

void log_set_max_level(int prio)
{
	max_level = prio;
}

int log_internal(int prio, int err, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (err < 0)
		err = -err;
	if (prio > max_level)
		return -err;

	errno = err; /* so that %m names err */
	fputs("hostprep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errno = saved;
	return -err;
}
