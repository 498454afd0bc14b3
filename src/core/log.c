// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "core/log.h"

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

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes) and its code
 * point, or 0 when it is not one: overlong forms, surrogates and values past
 * U+10FFFF are invalid, as in the standard.
 */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *ret)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret = cp;
	return len;
}

/*
 * Code points a terminal acts on or that reorder what is shown: C1 controls
 * (U+009B is CSI), line/paragraph separators, bidirectional overrides.
 */
static bool cp_is_control(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static size_t escape_byte(unsigned char c, char *out)
{
	switch (c) {
	case '\n':
		return (size_t)sprintf(out, "\\n");
	case '\r':
		return (size_t)sprintf(out, "\\r");
	case '\t':
		return (size_t)sprintf(out, "\\t");
	case '\\':
		return (size_t)sprintf(out, "\\\\");
	}
	if (c < 0x20 || c >= 0x7f)
		return (size_t)sprintf(out, "\\x%02x", c);
	out[0] = (char)c;
	return 1;
}

char *log_escape(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf = malloc(n * 4 + 1), *o = buf;

	if (!buf)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = p[i] >= 0x80 ? utf8_decode(p + i, n - i, &cp) : 0;

		if (len && !cp_is_control(cp)) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else {
			o += escape_byte(p[i++], o);
		}
	}
	*o = '\0';
	return buf;
}

/*
 * Messages quote config files, paths and kernel strings: nothing of that
 * reaches the terminal raw (an ESC or CR in a config file could rewrite what
 * the operator sees), so the whole message is escaped.
 */
static void log_write(const char *msg)
{
	_cleanup_(freep) char *escaped = log_escape(msg, strlen(msg));

	fputs("hostprep: ", stderr);
	fputs(escaped ? escaped : "(message lost: out of memory)", stderr);
	fputc('\n', stderr);
}

int log_internal(int prio, int err, const char *fmt, ...)
{
	_cleanup_(freep) char *msg = NULL;
	int saved = errno, r;
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
	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	log_write(r < 0 ? "(message lost: out of memory)" : msg);
	if (r < 0)
		msg = NULL;
	errno = saved;
	return -err;
}
