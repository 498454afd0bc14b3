// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "core/strbuf.h"

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	size_t add;
	char *s;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	add = (size_t)n;
	if (b->max && add > b->max - b->len)
		add = b->max - b->len;
	s = realloc(b->s, b->len + add + 1);
	if (!s) {
		b->oom = true;
		return;
	}
	b->s = s;
	va_start(ap, fmt);
	vsnprintf(s + b->len, add + 1, fmt, ap);
	va_end(ap);
	b->len += add;
}

int strbuf_take(struct strbuf *b, char **ret)
{
	if (b->oom || !b->s) {
		strbuf_done(b);
		return -ENOMEM;
	}
	*ret = TAKE_PTR(b->s);
	b->len = 0;
	return 0;
}

void strbuf_done(struct strbuf *b)
{
	free(b->s);
	*b = (struct strbuf){ .max = b->max };
}
