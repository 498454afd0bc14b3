// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/cmdline.h"

bool cmdline_isspace(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

static char *skip_spaces(char *s)
{
	while (cmdline_isspace(*s))
		s++;
	return s;
}

/*
 * Cut one word off the (mutable) line the way next_arg() does, in place:
 * *key and *value point into the line, NUL-terminated. Returns where the
 * next word starts. The quote rules are the kernel's, bugs included: only
 * a quote opening the word or opening the value is removed, each together
 * with a quote that ends the word.
 */
static char *cut_word(char *w, char **key, char **value)
{
	bool grouping = false, opened = false;
	size_t len, eq = 0; /* an '=' at offset 0 is no separator, as in the kernel */

	if (*w == '"') {
		w++;
		grouping = opened = true;
	}
	for (len = 0; w[len]; len++) {
		if (cmdline_isspace(w[len]) && !grouping)
			break;
		if (eq == 0 && w[len] == '=')
			eq = len;
		if (w[len] == '"')
			grouping = !grouping;
	}
	*key = w;
	*value = NULL;
	if (eq) {
		w[eq] = '\0';
		*value = w + eq + 1;
		if (**value == '"') {
			(*value)++;
			if (w[len - 1] == '"')
				w[len - 1] = '\0';
		}
	}
	if (opened && len > 0 && w[len - 1] == '"')
		w[len - 1] = '\0';
	if (!w[len])
		return w + len;
	w[len] = '\0';
	return skip_spaces(w + len + 1);
}

static int add_param(struct cmdline *c, const char *key, const char *value)
{
	struct cmdline_param *p = reallocarray(c->params, c->n_all + 1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	c->params = p;
	p = &c->params[c->n_all];
	p->key = strdup(key);
	p->value = value ? strdup(value) : NULL;
	if (!p->key || (value && !p->value)) {
		free(p->key);
		free(p->value);
		return -ENOMEM;
	}
	c->n_all++;
	return 0;
}

int cmdline_parse(const char *s, struct cmdline *ret)
{
	_cleanup_(freep) char *line = strdup(s);
	struct cmdline c = {};
	bool kernel = true;
	char *w;

	if (!line)
		return -ENOMEM;
	for (w = skip_spaces(line); *w;) {
		char *key, *value;
		int r;

		w = cut_word(w, &key, &value);
		/* parse_args() stops at "--": the rest is for init (and libkmod, which reads on) */
		if (kernel && !value && streq(key, "--")) {
			kernel = false;
			continue;
		}
		r = add_param(&c, key, value);
		if (r < 0) {
			cmdline_done(&c);
			return r;
		}
		if (kernel)
			c.n = c.n_all;
	}
	*ret = c;
	return 0;
}

void cmdline_done(struct cmdline *c)
{
	for (size_t i = 0; i < c->n_all; i++) {
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
