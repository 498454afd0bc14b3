// SPDX-License-Identifier: GPL-2.0-or-later
/* A set of strings that remembers the order they came in (the snapshot's paths). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/macro.h"
#include "snapshot/snapshot.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t slot(char *const *v, size_t cap, const char *str)
{
	size_t i = hash(str) & (cap - 1);

	while (v[i] && !streq(v[i], str))
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct strset *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1024;
	char **v = calloc(cap, sizeof(*v));
	char **order = reallocarray(s->order, cap, sizeof(*order));

	if (!v || !order) {
		free(v);
		if (order)
			s->order = order;
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		v[slot(v, cap, order[i])] = order[i];
	free(s->v);
	s->v = v;
	s->order = order;
	s->cap = cap;
	return 0;
}

bool strset_has(const struct strset *s, const char *str)
{
	return s->cap && s->v[slot(s->v, s->cap, str)];
}

int strset_add(struct strset *s, const char *str)
{
	char *copy;
	size_t i;

	if (strset_has(s, str))
		return 0;
	if ((s->n + 1) * 2 > s->cap && grow(s) < 0)
		return -ENOMEM;
	copy = strdup(str);
	if (!copy)
		return -ENOMEM;
	i = slot(s->v, s->cap, str);
	s->v[i] = copy;
	s->order[s->n++] = copy;
	return 1;
}

void strset_done(struct strset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->order[i]);
	free(s->order);
	free(s->v);
	*s = (struct strset){};
}
