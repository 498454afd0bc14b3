// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmdline.h"

static int add_param(struct cmdline *c, const char *word, size_t len)
{
	_cleanup_(freep) char *w = strndup(word, len);
	struct cmdline_param *p;
	char *eq, *dst = w;

	if (!w)
		return -ENOMEM;
	for (char *src = w; *src; src++) /* drop the quotes, keep what they group */
		if (*src != '"')
			*dst++ = *src;
	*dst = '\0';
	p = reallocarray(c->params, c->n + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	c->params = p;
	eq = strchr(w, '=');
	p = &c->params[c->n];
	p->value = eq ? strdup(eq + 1) : NULL;
	if (eq)
		*eq = '\0';
	p->key = TAKE_PTR(w);
	if (eq && !p->value) {
		free(p->key);
		return -ENOMEM;
	}
	c->n++;
	return 0;
}

int cmdline_parse(const char *s, struct cmdline *ret)
{
	struct cmdline c = {};

	while (*s) {
		const char *start;
		bool quoted = false;
		int r;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		start = s;
		for (; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++)
			if (*s == '"')
				quoted = !quoted;
		if (s - start == 2 && strneq(start, "--", 2))
			break;
		r = add_param(&c, start, s - start);
		if (r < 0) {
			cmdline_done(&c);
			return r;
		}
	}
	*ret = c;
	return 0;
}

void cmdline_done(struct cmdline *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->params[i].key);
		free(c->params[i].value);
	}
	free(c->params);
	*c = (struct cmdline){};
}

const struct cmdline_param *cmdline_find_last(const struct cmdline *c, const char *key)
{
	for (size_t i = c->n; i > 0; i--)
		if (streq(c->params[i - 1].key, key))
			return &c->params[i - 1];
	return NULL;
}
