// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A set of strings that remembers the order they came in (the snapshot's paths), and how a
 * path that may hold any byte is written into the manifest.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/macro.h"
#include "snapshot/snapshot.h"

uint64_t strset_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	/*
	 * FNV's low bits, which the mask takes, are weak for paths that differ in one digit
	 * ("devices/0000:1a:00.0/..." vs ".1/..."): long probe runs (a tenth of a snapshot's
	 * CPU at 4096 functions). Fold the high bits in (MurmurHash3's fmix64).
	 */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static size_t slot(const struct strset *s, const char *str, uint64_t h)
{
	size_t i = h & (s->cap - 1);

	while (s->v[i].str && (s->v[i].hash != h || !streq(s->v[i].str, str)))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static int grow(struct strset *s)
{
	struct strset g = { .cap = s->cap ? s->cap * 2 : 1024 };
	char **order = reallocarray(s->order, g.cap, sizeof(*order));

	if (order)
		s->order = order;
	g.v = calloc(g.cap, sizeof(*g.v));
	if (!order || !g.v) {
		free(g.v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->cap; i++)
		if (s->v[i].str)
			g.v[slot(&g, s->v[i].str, s->v[i].hash)] = s->v[i];
	free(s->v);
	s->v = g.v;
	s->cap = g.cap;
	return 0;
}

bool strset_has_hashed(const struct strset *s, const char *str, uint64_t h)
{
	return s->cap && s->v[slot(s, str, h)].str;
}

bool strset_has(const struct strset *s, const char *str)
{
	return strset_has_hashed(s, str, strset_hash(str));
}

int strset_add(struct strset *s, const char *str)
{
	return strset_add_hashed(s, str, strset_hash(str));
}

int strset_add_hashed(struct strset *s, const char *str, uint64_t h)
{
	char *copy;
	size_t i;

	if (strset_has_hashed(s, str, h))
		return 0;
	if ((s->n + 1) * 2 > s->cap && grow(s) < 0)
		return -ENOMEM;
	copy = strdup(str);
	if (!copy)
		return -ENOMEM;
	i = slot(s, str, h);
	s->v[i] = (struct strset_slot){ .str = copy, .hash = h };
	s->order[s->n++] = copy;
	return 1;
}

static bool glob_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* The literal run at pat: its length (up to a glob character or the end). */
static size_t literal_run(const char *pat)
{
	size_t n = 0;

	while (pat[n] && !glob_char(pat[n]))
		n++;
	return n;
}

bool snapshot_fnmatch(const char *pat, const char *s, int flags)
{
	size_t head = 0;

	for (; pat[head] && !glob_char(pat[head]); head++)
		if (s[head] != pat[head])
			return false;
	if (!pat[head]) /* a literal: itself, or (FNM_LEADING_DIR) a path below it */
		return !s[head] || ((flags & FNM_LEADING_DIR) && s[head] == '/');
	if (head == 0 && pat[0] == '*') {
		size_t n = literal_run(pat + 1);

		if (n && !memmem(s, strlen(s), pat + 1, n))
			return false;
	}
	return fnmatch(pat, s, flags) == 0;
}

void strset_done(struct strset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->order[i]);
	free(s->order);
	free(s->v);
	*s = (struct strset){};
}

/* The length of the UTF-8 sequence a byte starts, 0 for one that starts none. */
static size_t utf8_lead(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c < 0xe0)
		return 2;
	if (c >= 0xe0 && c < 0xf0)
		return 3;
	return c >= 0xf0 && c < 0xf5 ? 4 : 0;
}

/* The length of the UTF-8 sequence at p (n bytes left), 0 when it is not one. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len = utf8_lead(p[0]);

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xf0 && p[1] < 0x90) ||
	    (p[0] == 0xed && p[1] >= 0xa0) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0; /* overlong, a surrogate, above U+10FFFF */
	return len;
}

bool snapshot_utf8(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0, len; i < n; i += len)
		if ((len = utf8_len((const unsigned char *)s + i, n - i)) == 0)
			return false;
	return true;
}

void snapshot_escape(FILE *f, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0, len; i < n; i += len) {
		unsigned char c = (unsigned char)s[i];

		len = utf8_len((const unsigned char *)s + i, n - i);
		if (c == '\\')
			fputs("\\\\", f);
		else if (len == 0 || c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fwrite(s + i, 1, len, f);
		len = len ? len : 1;
	}
}
