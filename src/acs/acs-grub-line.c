// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A boot entry's kernel line judged as the kernel will read it: GRUB's script parser makes
 * words of the grub.cfg text, GRUB's linux command joins them into the kernel command line
 * (escaping what it must), and that line goes through the parser acs.cmdline uses for
 * /proc/cmdline (core/cmdline.c, then pci_setup()'s split of every pci= word). The kernel
 * keeps the last pci=config_acs=: a line that carries hostprep's argument and an older one
 * after it boots with the older one.
 */
#include <stdio.h>

#include "acs/acs-cmdline.h"
#include "acs/acs-grub.h"

/* Outside quotes these end GRUB's command (or are operators it does not pass on). */
static bool grub_special(char c)
{
	return c != '\0' && strchr(";&|<>()\n", c);
}

static bool grub_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * One word from *p into f (NUL-terminated): '...' literal; "..." where \ escapes only
 * $ " \ and a newline; outside quotes \ escapes the next character. Returns false at the
 * end of the command (end of text, an unquoted operator, a comment).
 */
static bool grub_word(const char **p, FILE *f)
{
	const char *s = *p;

	while (grub_blank(*s))
		s++;
	if (*s == '\0' || grub_special(*s) || *s == '#')
		return false;
	while (*s && !grub_blank(*s) && !grub_special(*s)) {
		if (*s == '\'') {
			const char *end = strchrnul(s + 1, '\'');

			fwrite(s + 1, 1, end - s - 1, f);
			s = *end ? end + 1 : end;
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1] && strchr("$\"\\\n", s[1]) && *++s == '\n')
					continue; /* an escaped newline joins the lines */
				fputc(*s, f);
			}
			s += *s == '"';
		} else if (*s == '\\' && s[1]) {
			if (s[1] != '\n')
				fputc(s[1], f);
			s += 2;
		} else
			fputc(*s++, f);
	}
	fputc('\0', f);
	*p = s;
	return true;
}

/* grub_create_loader_cmdline(): \ ' " escaped, a word with a space in "...". */
static void loader_arg(const char *w, bool first, FILE *f)
{
	bool space = strchr(w, ' ') != NULL;

	if (!first)
		fputc(' ', f);
	if (space)
		fputc('"', f);
	for (; *w; w++) {
		if (strchr("\\'\"", *w))
			fputc('\\', f);
		fputc(*w, f);
	}
	if (space)
		fputc('"', f);
}

int grub_kernel_cmdline(const char *text, size_t skip, char **ret)
{
	_cleanup_(freep) char *word = NULL, *out = NULL;
	size_t word_size = 0, out_size = 0, n = 0;
	FILE *w, *o = open_memstream(&out, &out_size);
	const char *p = text;
	bool more = true;

	if (!o)
		return -ENOMEM;
	while (more) {
		w = open_memstream(&word, &word_size);
		if (!w)
			break;
		more = grub_word(&p, w);
		if (fclose(w) != 0 || !word)
			break;
		if (more && n++ >= skip)
			loader_arg(word, n == skip + 1, o);
		free(word);
		word = NULL;
	}
	if (fclose(o) != 0 || !out || more)
		return -ENOMEM;
	*ret = TAKE_PTR(out);
	return 0;
}

struct judge_walk {
	const char *key;  /* "config_acs=" or "disable_acs_redir=" */
	const char *ours; /* its value in hostprep's argument */
	bool seen;
	char *last; /* a copy: the option lives as long as the call */
};

static int judge_opt(void *ud, const char *opt)
{
	struct judge_walk *w = ud;

	if (!strneq(opt, w->key, strlen(w->key)))
		return 0;
	free(w->last);
	w->last = strdup(opt + strlen(w->key));
	if (!w->last)
		return -ENOMEM;
	w->seen |= streq(w->last, w->ours);
	return 0;
}

/* hostprep's argument as the kernel would read it: which option, and its value. */
static int ours_of(const char *arg, const char **key, char **value)
{
	_cleanup_(cmdline_done) struct cmdline cmd = {};
	_cleanup_(kacs_params_done) struct kacs_params k = {};
	_cleanup_(freep) char *line = NULL;
	int r = grub_kernel_cmdline(arg, 0, &line);

	if (r >= 0)
		r = cmdline_parse(line, &cmd);
	if (r >= 0)
		r = kacs_params_get(&cmd, &k);
	if (r < 0)
		return r;
	if (!k.config_acs && !k.disable_acs_redir)
		return -EINVAL;
	*key = k.config_acs ? "config_acs=" : "disable_acs_redir=";
	*value = k.config_acs ? TAKE_PTR(k.config_acs) : TAKE_PTR(k.disable_acs_redir);
	return 0;
}

int kernel_line_judge(const char *line, const char *arg, struct grub_judgement *ret)
{
	_cleanup_(cmdline_done) struct cmdline cmd = {};
	_cleanup_(freep) char *ours = NULL;
	struct judge_walk w = {};
	int r;

	*ret = (struct grub_judgement){};
	r = ours_of(arg, &w.key, &ours);
	if (r < 0)
		return r;
	w.ours = ours;
	r = cmdline_parse(line, &cmd);
	if (r >= 0)
		r = kacs_params_each(&cmd, judge_opt, &w);
	if (r < 0) {
		free(w.last);
		return r;
	}
	ret->state = w.last && streq(w.last, ours) ? GRUB_LINE_CARRIES
		     : w.seen			   ? GRUB_LINE_SHADOWED
						   : GRUB_LINE_LACKS;
	if (w.last && ret->state != GRUB_LINE_CARRIES &&
	    asprintf(&ret->winner, "pci=%s%s", w.key, w.last) < 0)
		r = -ENOMEM;
	free(w.last);
	return r < 0 ? r : 0;
}

int grub_line_judge(const char *text, size_t skip, const char *arg, struct grub_judgement *ret)
{
	_cleanup_(freep) char *line = NULL;
	int r = grub_kernel_cmdline(text, skip, &line);

	*ret = (struct grub_judgement){};
	if (r < 0)
		return r;
	return kernel_line_judge(line, arg, ret);
}

void grub_judgement_done(struct grub_judgement *j)
{
	free(j->winner);
	*j = (struct grub_judgement){};
}
