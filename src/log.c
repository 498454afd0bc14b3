// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "log.h"

static int max_level = LOG_NOTICE;
static char *first_error;
static unsigned n_errors;

void log_set_max_level(int prio)
{
	max_level = prio;
}

const char *log_first_error(void)
{
	return first_error;
}

unsigned log_error_count(void)
{
	return n_errors;
}

static void remember_error(int err, const char *fmt, va_list ap)
{
	n_errors++;
	if (first_error)
		return;
	errno = err;
	if (vasprintf(&first_error, fmt, ap) < 0)
		first_error = NULL;
}

int log_internal(int prio, int err, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (err < 0)
		err = -err;
	if (prio <= LOG_ERR) {
		va_start(ap, fmt);
		remember_error(err, fmt, ap);
		va_end(ap);
	}
	if (prio > max_level) {
		errno = saved;
		return -err;
	}

	errno = err; /* so that %m names err */
	fputs("hostprep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errno = saved;
	return -err;
}
