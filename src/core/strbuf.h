/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/macro.h"

/*
 * A string built by appends: remedies and problem lists assembled from parts that depend
 * on the host, the NCCL/UCX environment file. Zero-initialised it is empty, and s stays
 * NULL until the first append (even of ""), so "b.s ? ", " : """ tells the first part.
 *
 * On ENOMEM (or a format error) oom is set and every later append is a no-op: a builder
 * appends without checking and asks once at the end (strbuf_take(), or oom itself).
 *
 * max, when set before the first append, bounds the text: it is cut at max bytes, as
 * snprintf() into a char[max + 1] accumulator would cut it; the appends after the cut add
 * nothing. 0 is no bound.
 */
struct strbuf {
	char *s;
	size_t len; /* strlen(s) */
	size_t max;
	bool oom;
};

void strbuf_printf(struct strbuf *b, const char *fmt, ...) _printf_(2, 3);
/* Hand the text to the caller (*ret malloc'd): 0, or -ENOMEM after oom or with no text. */
int strbuf_take(struct strbuf *b, char **ret);
/* Free the text and reset b, keeping max. For _cleanup_. */
void strbuf_done(struct strbuf *b);
