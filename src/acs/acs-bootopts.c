// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text edits of `acs cmdline --install` on BLS and kernel-install hosts, with grubby's
 * --update-kernel=ALL --args= semantics: the option is replaced, never added twice. The
 * option here is the kernel's, not grubby's key: pci= holds several options split on ','
 * (pci=noaer,config_acs=...), and only config_acs= and disable_acs_redir= are hostprep's,
 * so those are removed from every pci= word (a word left empty goes) and the argument is
 * appended last, where the kernel, which keeps the last, reads it. Pure functions on text.
 */
#include <stdio.h>

#include "acs/acs-boot.h"

static const char *const acs_opts[] = { "config_acs=", "disable_acs_redir=" };

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The end of the word at s: blanks end it outside quotes; \ escapes the next character. */
static const char *word_end(const char *s, const char *end)
{
	char q = 0;

	for (; s < end; s++) {
		if (*s == '\\' && s + 1 < end && q != '\'')
			s++;
		else if (q && *s == q)
			q = 0;
		else if (!q && (*s == '"' || *s == '\''))
			q = *s;
		else if (!q && is_blank(*s))
			break;
	}
	return s;
}

static bool is_acs_opt(const char *o, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(acs_opts); i++)
		if (n >= strlen(acs_opts[i]) && strneq(o, acs_opts[i], strlen(acs_opts[i])))
			return true;
	return false;
}

/*
 * The word w..end as it stays: a pci= word (perhaps quoted whole: "pci=...") without
 * hostprep's options; the others unchanged. Appended to f, "" when nothing stays.
 */
static void word_keep(FILE *f, const char *w, const char *end)
{
	char q = (*w == '"' || *w == '\'') && end - w > 1 && end[-1] == *w ? *w : 0;
	const char *o, *body = w + !!q, *stop = end - !!q;
	bool any = false;

	if (stop - body < 4 || !strneq(body, "pci=", 4)) {
		fwrite(w, 1, end - w, f);
		return;
	}
	for (o = body + 4; o <= stop;) {
		const char *c = memchr(o, ',', stop - o);
		size_t n = (c ? c : stop) - o;

		if (!is_acs_opt(o, n)) {
			if (!any && q)
				fputc(q, f);
			fprintf(f, "%s%.*s", any ? "," : "pci=", (int)n, o);
			any = true;
		}
		o += n + 1;
	}
	if (any && q)
		fputc(q, f);
}

int bootopts_edit(const char *text, size_t len, const char *arg, char **ret)
{
	const char *end = text + len, *s = text;
	size_t size = 0;
	FILE *f = open_memstream(ret, &size);

	if (!f)
		return -ENOMEM;
	while (s < end) {
		const char *gap = s, *w, *e;
		long at;

		while (s < end && is_blank(*s))
			s++;
		w = s;
		e = word_end(w, end);
		at = ftell(f);
		/* no blanks before the first word kept, nor at the end before arg */
		if (at == 0 || (e == w && arg))
			gap = w;
		fwrite(gap, 1, w - gap, f);
		if (e > w) {
			long before = ftell(f);

			word_keep(f, w, e);
			if (ftell(f) == before) /* the word went: its blanks before it too */
				fseek(f, at, SEEK_SET);
		}
		s = e;
	}
	if (arg)
		fprintf(f, "%s%s", ftell(f) > 0 ? " " : "", arg);
	if (fclose(f) != 0 || !*ret)
		return -ENOMEM;
	(*ret)[size] = '\0';
	return 0;
}

/* The line at s (without its newline) and where the next one starts. */
static const char *line_end(const char *s, const char *end, const char **next)
{
	const char *nl = memchr(s, '\n', end - s);

	*next = nl ? nl + 1 : end;
	return nl ? nl : end;
}

/* The arguments of a BLS "options" line (after its blanks), or NULL for another line. */
static const char *options_of(const char *l, const char *e)
{
	while (l < e && is_blank(*l))
		l++;
	if (e - l < 7 || !strneq(l, "options", 7) || (l + 7 < e && !is_blank(l[7])))
		return NULL;
	for (l += 7; l < e && is_blank(*l);)
		l++;
	return l;
}

static bool uses_kernelopts(const char *o, const char *e)
{
	while (o < e) {
		const char *w = word_end(o, e);

		if ((w - o == 11 && strneq(o, "$kernelopts", 11)) ||
		    (w - o == 13 && strneq(o, "${kernelopts}", 13)))
			return true;
		for (o = w; o < e && is_blank(*o);)
			o++;
	}
	return false;
}

/* The last options line's start, NULL when none; *ko: one of them uses $kernelopts. */
static const char *last_options(const char *data, const char *end, bool *ko)
{
	const char *last = NULL, *next;

	*ko = false;
	for (const char *l = data; l < end; l = next) {
		const char *e = line_end(l, end, &next), *o = options_of(l, e);

		if (!o)
			continue;
		last = l;
		*ko |= uses_kernelopts(o, e);
	}
	return last;
}

static int edit_line(FILE *f, const char *l, const char *o, const char *e, const char *arg)
{
	_cleanup_(freep) char *opts = NULL;
	int r = bootopts_edit(o, e - o, arg, &opts);

	if (r < 0)
		return r;
	fwrite(l, 1, o - l, f);
	if (o == e && *opts) /* "options" alone: a blank before what comes */
		fputc(' ', f);
	fputs(opts, f);
	return 0;
}

int bls_entry_edit(const char *data, size_t size, const char *arg, char **ret, size_t *ret_size,
		   bool *kernelopts)
{
	const char *end = data + size, *next, *last = last_options(data, end, kernelopts);
	FILE *f = open_memstream(ret, ret_size);
	int r = 0;

	if (!f)
		return -ENOMEM;
	for (const char *l = data; l < end && r >= 0; l = next) {
		const char *e = line_end(l, end, &next), *o = options_of(l, e);

		if (!o) {
			fwrite(l, 1, next - l, f);
			continue;
		}
		/* with $kernelopts, grubenv holds the argument: the entry only loses old ones */
		r = edit_line(f, l, o, e, l == last && !*kernelopts ? arg : NULL);
		fwrite(e, 1, next - e, f);
	}
	if (!last && arg)
		fprintf(f, "%soptions %s\n", size && end[-1] != '\n' ? "\n" : "", arg);
	if (fclose(f) != 0 || !*ret)
		return -ENOMEM;
	return r;
}

#define GRUBENV_HEADER "# GRUB Environment Block\n"

/* The end of grubenv's variables: the first line that starts with '#' after the header. */
static const char *grubenv_vars_end(const char *vars, const char *end)
{
	const char *next;

	for (const char *l = vars; l < end; l = next) {
		if (*l == '#')
			return l;
		line_end(l, end, &next);
	}
	return end;
}

static int grubenv_vars(FILE *f, const char *vars, const char *end, const char *arg)
{
	const char *next;
	bool seen = false;
	int r = 0;

	for (const char *l = vars; l < end && r >= 0; l = next) {
		const char *e = line_end(l, end, &next);

		if (e - l < 11 || !strneq(l, "kernelopts=", 11)) {
			fwrite(l, 1, next - l, f);
			continue;
		}
		r = edit_line(f, l, l + 11, e, seen ? NULL : arg);
		fputc('\n', f);
		seen = true;
	}
	if (!seen)
		fprintf(f, "kernelopts=%s\n", arg);
	return r;
}

int grubenv_edit(const char *data, size_t size, const char *arg, char **ret)
{
	const char *vars = data + strlen(GRUBENV_HEADER), *end;
	_cleanup_(freep) char *out = NULL;
	size_t n = 0;
	FILE *f;
	int r;

	/* grub-editenv escapes \ and newlines in values: no such text is edited here */
	if (size < strlen(GRUBENV_HEADER) ||
	    !strneq(data, GRUBENV_HEADER, strlen(GRUBENV_HEADER)) || memchr(data, '\\', size) ||
	    memchr(data, '\0', size) || strchr(arg, '\\'))
		return -EINVAL;
	end = grubenv_vars_end(vars, data + size);
	f = open_memstream(&out, &n);
	if (!f)
		return -ENOMEM;
	fputs(GRUBENV_HEADER, f);
	r = grubenv_vars(f, vars, end, arg);
	if (fclose(f) != 0 || !out)
		return -ENOMEM;
	if (r < 0)
		return r;
	if (n > size) /* GRUB reads a block of the file's size, 1024 bytes: it must not grow */
		return -E2BIG;
	*ret = malloc(size + 1);
	if (!*ret)
		return -ENOMEM;
	memcpy(*ret, out, n);
	memset(*ret + n, '#', size - n);
	(*ret)[size] = '\0';
	return 0;
}

/* GRUB_CMDLINE_LINUX= of an assignment line (after "export "), or NULL. */
static const char *cmdline_linux_value(const char *l, const char *e)
{
	static const char key[] = "GRUB_CMDLINE_LINUX=";

	while (l < e && is_blank(*l))
		l++;
	if (e - l > 7 && strneq(l, "export", 6) && is_blank(l[6]))
		for (l += 6; l < e && is_blank(*l);)
			l++;
	if ((size_t)(e - l) < strlen(key) || !strneq(l, key, strlen(key)))
		return NULL;
	return l + strlen(key);
}

static bool has_any(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (strchr(set, s[i]))
			return true;
	return false;
}

/* The quote that closes the one at v (\ escapes inside "..." only), or NULL. */
static const char *quote_close(const char *v, const char *e)
{
	for (const char *s = v + 1; s < e; s++) {
		if (*v == '"' && *s == '\\')
			s++;
		else if (*s == *v)
			return s;
	}
	return NULL;
}

/* The value's quoted text v..*close (quote excluded); -EINVAL: more than one word or quote. */
static int value_span(const char *v, const char *e, const char **close)
{
	const char *c = word_end(v, e), *rest = c;

	while (rest < e && is_blank(*rest))
		rest++;
	if (rest < e && *rest != '#')
		return -EINVAL; /* "A=1 B=2", a command after it: not a plain assignment */
	if (*v != '"' && *v != '\'') {
		*close = c;
		return has_any(v, c - v, "\\$`\"'") ? -EINVAL : 0;
	}
	*close = quote_close(v, c);
	return *close == c - 1 ? 0 : -EINVAL; /* 'a'"b": not one quoted string */
}

/* The argument inside the shell's double quotes: only " $ ` \ keep a meaning there. */
static void shell_dq(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\"$`\\", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static int edit_assignment(FILE *f, const char *l, const char *v, const char *e, const char *arg)
{
	_cleanup_(freep) char *opts = NULL, *quoted = NULL;
	const char *close, *in = *v == '"' || *v == '\'' ? v + 1 : v;
	size_t n = 0;
	FILE *q;
	int r = value_span(v, e, &close);

	if (r < 0)
		return r;
	q = open_memstream(&quoted, &n);
	if (!q)
		return -ENOMEM;
	if (arg && *v == '\'')
		fputs(arg, q); /* nothing is special in '...'; the argument holds no ' */
	else if (arg)
		shell_dq(q, arg);
	if (fclose(q) != 0 || !quoted)
		return -ENOMEM;
	r = bootopts_edit(in, close - in, arg ? quoted : NULL, &opts);
	if (r < 0)
		return r;
	fwrite(l, 1, v - l, f);
	fprintf(f, "%c%s%c", *v == '\'' ? '\'' : '"', opts, *v == '\'' ? '\'' : '"');
	fwrite(close + (in != v), 1, e - close - (in != v), f);
	return 0;
}

int default_grub_edit(const char *data, size_t size, const char *arg, char **ret, size_t *ret_size)
{
	const char *end = data + size, *next, *last = NULL;
	FILE *f;
	int r = 0;

	if (strchr(arg, '\''))
		return -EINVAL;
	for (const char *l = data; l < end; l = next)
		if (cmdline_linux_value(l, line_end(l, end, &next)))
			last = l;
	f = open_memstream(ret, ret_size);
	if (!f)
		return -ENOMEM;
	for (const char *l = data; l < end && r >= 0; l = next) {
		const char *e = line_end(l, end, &next), *v = cmdline_linux_value(l, e);

		if (!v) {
			fwrite(l, 1, next - l, f);
			continue;
		}
		r = edit_assignment(f, l, v, e, l == last ? arg : NULL);
		fwrite(e, 1, next - e, f);
	}
	if (!last) {
		fprintf(f, "%sGRUB_CMDLINE_LINUX=\"", size && end[-1] != '\n' ? "\n" : "");
		shell_dq(f, arg);
		fputs("\"\n", f);
	}
	if (fclose(f) != 0 || !*ret)
		return -ENOMEM;
	return r;
}
