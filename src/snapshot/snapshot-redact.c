// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The secrets a snapshot must not carry, cut out of the files it keeps (snapshot.h).
 *
 * Two readers find them, each as GRUB or the kernel would read the text, never by the look
 * of a line:
 *   - GRUB script (grub.cfg, /etc/default/grub, /etc/grub.d, BLS entries): the lexer of
 *     grub-core/script/yylex.l, enough of it to know which word is a command: words with
 *     '...', "..." and \ escapes, "\<newline>" joining lines, and the separators (newline
 *     ; | & < > { }) and keywords (if then else elif do while until) after which a command
 *     starts; a '#' comment is read as script too (a commented-out password line still
 *     holds the hash), up to its newline: a quote in it ("# Don't") opens nothing. The
 *     arguments after the user name of a `password` or `password_pbkdf2` command are
 *     secrets wherever the command stands (after ';', inside if/then, across
 *     continuations); so is the value assigned to a variable such an argument names ($pw)
 *     and to any variable whose name says PASSWORD or PASSWD (GRUB2_PASSWORD of RHEL's
 *     user.cfg).
 *   - Kernel parameters (/proc/cmdline, the kernel lines of the boot files, modprobe.d
 *     options, dracut.conf's kernel_cmdline=; in a shell or GRUB script inside its "..." or
 *     '...' strings, whose closing quote is never cut): the credential forms
 *     dracut.cmdline(7) documents, as dracut's own rdsosreport.sh filters them out:
 *     netroot=/root=iscsi:USER:PASSWORD[:RUSER:RPASSWORD]@...
 *     (everything after the user name up to the last '@'), SCHEME://USER:PASSWORD@HOST
 *     (cifs://, and the http/ftp URLs of root=live: and inst.ks=), cifspass=, and any
 *     parameter whose last dotted part says password, passwd or passphrase
 *     (rd.iscsi.password=, rd.iscsi.in.password=, their old iscsi_password= forms,
 *     inst.vncpassword=, MODULE.password=; snapshot_secret_key()); and
 *     systemd.set_credential[_binary]=ID:VALUE
 *     (kernel-command-line(7)), the value after the id. ip= and NFS roots carry no
 *     credential and are kept.
 *
 * A secret is replaced by the word REDACTED; every other byte is kept as it was, and so are
 * the newlines inside a secret (as "\<newline>"), so line numbers do not move. Each
 * redaction is a manifest line "redacted FILE:LINE: what", never the secret itself.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmdline.h"
#include "snapshot/snapshot.h"

#define REDACTED "REDACTED"

struct span {
	size_t start, end;
	char what[112];
};

struct spans {
	struct span *v;
	size_t n;
	bool oom;
};

_printf_(4, 5) static void span_add(struct spans *sp, size_t start, size_t end, const char *fmt,
				    ...)
{
	struct span *v;
	va_list ap;

	if (start >= end || sp->oom)
		return;
	v = reallocarray(sp->v, sp->n + 1, sizeof(*v));
	if (!v) {
		sp->oom = true;
		return;
	}
	sp->v = v;
	v += sp->n++;
	v->start = start;
	v->end = end;
	va_start(ap, fmt);
	vsnprintf(v->what, sizeof(v->what), fmt, ap);
	va_end(ap);
}

/* ---- kernel parameters ------------------------------------------------ */

static bool is_quote(char c)
{
	return c == '"' || c == '\'';
}

/*
 * The end of a parameter's word: the kernel's white space, a quote (GRUB's, the shell's),
 * or a NUL (an edited boot file may hold one: what follows is read as a new word).
 */
static bool ends_word(char c)
{
	return cmdline_isspace(c) || is_quote(c) || c == '\0';
}

/*
 * The script's string w stands in on its line: '"' or '\'' (shell: a shell or GRUB script,
 * where '...' holds every byte but '\'' as it is and a '#' that starts a word starts a
 * comment, outside any string), or 0. Elsewhere only the kernel's "..." count: an odd
 * number of unescaped '"' before w.
 */
static char in_string(const char *in, size_t w, bool shell)
{
	size_t i = w;
	char open = 0;

	while (i > 0 && in[i - 1] != '\n')
		i--;
	for (size_t start = i; i < w; i++) {
		if (open != '\'' && in[i] == '\\' && i + 1 < w) {
			i++; /* an escaped byte: no quote */
		} else if (open && in[i] == open) {
			open = 0;
		} else if (!open && (in[i] == '"' || (shell && in[i] == '\''))) {
			open = in[i];
		} else if (!open && shell && in[i] == '#' &&
			   (i == start || cmdline_isspace(in[i - 1]))) {
			return 0; /* a comment: no string runs on in it */
		}
	}
	return open;
}

/*
 * Where the value that starts at v ends, as the kernel splits its command line
 * (next_arg(): a '"' anywhere in a word toggles quoting, only unquoted white space ends it;
 * a '\'' is an ordinary byte): "pw=ab"C D"" is one value. outer: the word stands inside a
 * "..." string, the kernel's own quoting ("pw=A B" in /proc/cmdline is one value): its
 * closing '"' ends the value, and \" are quotes too. The end of a line ends it.
 */
static size_t value_end_kernel(const char *in, size_t n, size_t v, bool outer)
{
	bool quoted = outer;

	for (; v < n && in[v] != '\n'; v++) {
		if (in[v] == '\\' && v + 1 < n && in[v + 1] == '"') {
			quoted = !quoted;
			v++;
		} else if (in[v] == '"') {
			if (outer && quoted)
				break;
			quoted = !quoted;
		} else if (cmdline_isspace(in[v]) && !quoted) {
			break;
		}
	}
	return v;
}

/*
 * The same in a shell or GRUB script, where the word stands in the script's string outer
 * ('"', '\'' or 0: GRUB_CMDLINE_LINUX="a pw=S b", ='a pw=S b'): the kernel gets the string's
 * words apart. The quote that closes outer ends the value and is never part of it (the
 * script would no longer parse); a string the value opens itself is cut whole. The kernel's
 * quotes are \" (outside '...') and a '"' inside '...'.
 */
static size_t value_end_shell(const char *in, size_t n, size_t v, char outer)
{
	bool quoted = false;
	char open = outer;

	for (; v < n && in[v] != '\n'; v++) {
		if (open != '\'' && in[v] == '\\' && v + 1 < n && in[v + 1] != '\n') {
			quoted ^= in[++v] == '"';
		} else if (open && in[v] == open) {
			if (open == outer)
				break;
			open = 0;
		} else if (!open && is_quote(in[v])) {
			open = in[v];
		} else if (open == '\'' && in[v] == '"') {
			quoted = !quoted;
		} else if (cmdline_isspace(in[v]) && !quoted && open == outer) {
			break;
		}
	}
	return v;
}

static size_t value_end(const char *in, size_t n, size_t v, size_t w, bool shell)
{
	char outer = in_string(in, w, shell);

	return shell ? value_end_shell(in, n, v, outer) : value_end_kernel(in, n, v, outer);
}

/*
 * The key, lower case; of a longer one its last size - 1 bytes: the last dotted part says
 * whether it is a secret (snapshot_secret_key()), however long the module's name.
 */
static void key_lower(const char *k, size_t len, char *buf, size_t size)
{
	size_t i;

	if (len >= size) {
		k += len - (size - 1);
		len = size - 1;
	}
	for (i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)k[i]);
	buf[i] = '\0';
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && strneq(s + len - n, suffix, n);
}

/*
 * The last dotted part of the name, cut at '_' and '-': a piece that ends in password,
 * passwd or passphrase (rd.iscsi.in.password, inst.vncpassword, GRUB2_PASSWORD,
 * GRUB_PASSWORD_HASH; not passwordless_menu), or dracut's cifspass.
 */
bool snapshot_secret_key(const char *key)
{
	char low[64];
	const char *p;

	key_lower(key, strlen(key), low, sizeof(low));
	if (streq(low, "cifspass"))
		return true;
	p = strrchr(low, '.');
	for (p = p ? p + 1 : low; *p; p += strspn(p, "_-")) {
		size_t len = strcspn(p, "_-");

		if (ends_with(p, len, "password") || ends_with(p, len, "passwd") ||
		    ends_with(p, len, "passphrase"))
			return true;
		p += len;
	}
	return false;
}

static const char *last_at(const char *in, size_t a, size_t b)
{
	for (size_t i = b; i > a; i--)
		if (in[i - 1] == '@')
			return in + i - 1;
	return NULL;
}

/* iscsi:USER:SECRETS@TARGET: all after the user name up to the last '@' */
static void form_iscsi(const char *in, size_t a, size_t b, const char *key, struct spans *sp)
{
	const char *at, *colon;

	if (b - a < 6 || !strneq(in + a, "iscsi:", 6))
		return;
	a += 6;
	at = last_at(in, a, b);
	if (!at)
		return;
	colon = memchr(in + a, ':', (size_t)(at - in) - a);
	span_add(sp, colon ? (size_t)(colon - in) + 1 : a, (size_t)(at - in),
		 "the iSCSI CHAP secrets of %s=iscsi:", key);
}

static const char *find_scheme(const char *in, size_t a, size_t b)
{
	for (size_t i = a; i + 3 <= b; i++)
		if (strneq(in + i, "://", 3))
			return in + i;
	return NULL;
}

/* SCHEME://USER:PASSWORD@HOST: the password, up to the URL's last '@' (before the next URL) */
static void form_url(const char *in, size_t a, size_t b, const char *key, struct spans *sp)
{
	const char *p, *next, *at, *colon;

	for (p = find_scheme(in, a, b); p; p = next) {
		size_t u = (size_t)(p - in) + 3;

		next = find_scheme(in, u, b);
		at = last_at(in, u, next ? (size_t)(next - in) : b);
		colon = at ? memchr(in + u, ':', (size_t)(at - in) - u) : NULL;
		if (colon)
			span_add(sp, (size_t)(colon - in) + 1, (size_t)(at - in),
				 "the password of a URL%s%s%s", *key ? " (" : "", key,
				 *key ? "=)" : "");
	}
}

static void forms(const char *in, size_t a, size_t b, const char *key, struct spans *sp)
{
	if (b > a && is_quote(in[a])) {
		a++;
		if (b > a && in[b - 1] == in[a - 1])
			b--;
	}
	form_iscsi(in, a, b, key, sp);
	form_url(in, a, b, key, sp);
}

/* One word that starts at w: KEY=VALUE or a bare word (shell: of a shell or GRUB script). */
static void cmdline_word(const char *in, size_t n, size_t w, bool shell, struct spans *sp)
{
	size_t e = w, v, ve;
	char key[64];

	while (e < n && !ends_word(in[e]) && in[e] != '=')
		e++;
	if (e >= n || in[e] != '=')
		return forms(in, w, e, "", sp);
	key_lower(in + w, e - w, key, sizeof(key));
	v = e + 1;
	ve = value_end(in, n, v, w, shell);
	if (snapshot_secret_key(key))
		return span_add(sp, v, ve, "the value of %s=", key);
	if (strneq(key, "systemd.set_credential", 22)) {
		const char *colon = memchr(in + v, ':', ve - v);

		return span_add(sp, colon ? (size_t)(colon - in) + 1 : v, ve,
				"the credential of %s=", key);
	}
	/* a script's VAR=param=value (GRUB_CMDLINE_LINUX unquoted): the value is a word too */
	if (shell && memchr(in + v, '=', ve - v))
		return cmdline_word(in, n, v, shell, sp);
	forms(in, v, ve, key, sp);
}

static void scan_cmdline(const char *in, size_t n, bool shell, struct spans *sp)
{
	for (size_t i = 0; i < n; i++)
		if ((i == 0 || ends_word(in[i - 1])) && !ends_word(in[i]))
			cmdline_word(in, n, i, shell, sp);
}

/* ---- GRUB script --------------------------------------------------------- */

struct gword {
	size_t start, end; /* the raw text */
	char val[64];	   /* what GRUB makes of it (quotes and escapes removed), cut */
	size_t len;
};

static void gval_add(struct gword *w, char c)
{
	if (w->len + 1 < sizeof(w->val))
		w->val[w->len++] = c;
	w->val[w->len] = '\0';
}

static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

/* GRUB's CHAR excludes these: each ends a word. */
static bool g_stop(char c)
{
	return in_set(c, "{}|&;<> \t\r\n");
}

static size_t g_squote(const char *in, size_t n, size_t i, struct gword *w)
{
	for (; i < n && in[i] != '\''; i++)
		gval_add(w, in[i]);
	return i + 1;
}

static size_t g_dquote(const char *in, size_t n, size_t i, struct gword *w)
{
	while (i < n && in[i] != '"') {
		if (in[i] == '\\' && i + 1 < n && in_set(in[i + 1], "$\\\"\n")) {
			if (in[i + 1] != '\n')
				gval_add(w, in[i + 1]);
			i += 2;
			continue;
		}
		gval_add(w, in[i++]);
	}
	return i + 1;
}

static size_t g_braced(const char *in, size_t n, size_t i, struct gword *w)
{
	for (; i < n && in[i] != '}' && in[i] != '\n'; i++)
		gval_add(w, in[i]);
	if (i < n && in[i] == '}')
		gval_add(w, in[i++]);
	return i;
}

static void g_word(const char *in, size_t n, size_t i, struct gword *w)
{
	*w = (struct gword){ .start = i };
	while (i < n && !g_stop(in[i])) {
		if (in[i] == '\\') {
			if (i + 1 < n && in[i + 1] != '\n')
				gval_add(w, in[i + 1]);
			i += 2;
		} else if (in[i] == '\'') {
			i = g_squote(in, n, i + 1, w);
		} else if (in[i] == '"') {
			i = g_dquote(in, n, i + 1, w);
		} else if (in[i] == '$' && i + 1 < n && in[i + 1] == '{') {
			i = g_braced(in, n, i, w); /* ${NAME}: its braces do not end the word */
		} else {
			gval_add(w, in[i++]);
		}
	}
	w->end = i < n ? i : n;
}

/*
 * The next token from *pos, up to n: 1 a word in *w, 0 a separator, 2 a comment's '#' (a
 * separator whose text runs to its newline), -1 the end.
 */
static int g_token(const char *in, size_t n, size_t *pos, struct gword *w)
{
	size_t i = *pos;

	for (;;) {
		while (i < n && (in[i] == ' ' || in[i] == '\t' || in[i] == '\r'))
			i++;
		if (i + 1 < n && in[i] == '\\' && in[i + 1] == '\n')
			i += 2;
		else
			break;
	}
	if (i >= n)
		return -1;
	if (g_stop(in[i]) || in[i] == '#') {
		*pos = i + 1;
		return in[i] == '#' ? 2 : 0;
	}
	g_word(in, n, i, w);
	*pos = w->end;
	return 1;
}

enum g_state { G_COMMAND, G_ARGS, G_SET, G_PASSWORD };

struct grub_scan {
	const char *in;
	size_t n;
	struct spans *sp;
	bool collect;	   /* the first pass: which variables password commands name */
	char vars[16][64]; /* those names */
	size_t n_vars;
	enum g_state state;
	unsigned argn;
	const char *command;
};

static bool g_keyword(const char *v)
{
	static const char *const kw[] = { "if",	  "then",  "else",  "elif", "fi", "do",
					  "done", "while", "until", "esac", "!" };

	for (size_t i = 0; i < ARRAY_SIZE(kw); i++)
		if (streq(v, kw[i]))
			return true;
	return false;
}

static bool g_var_named(const struct grub_scan *g, const char *name)
{
	for (size_t i = 0; i < g->n_vars; i++)
		if (streq(g->vars[i], name))
			return true;
	return false;
}

/* $NAME or ${NAME} as (the start of) a secret argument: its assignments are secrets too */
static void g_note_var(struct grub_scan *g, const char *v)
{
	size_t len;

	if (v[0] != '$' || g->n_vars >= ARRAY_SIZE(g->vars))
		return;
	v += v[1] == '{' ? 2 : 1;
	len = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	if (len == 0 || len >= sizeof(g->vars[0]))
		return;
	memcpy(g->vars[g->n_vars], v, len);
	g->vars[g->n_vars][len] = '\0';
	if (!g_var_named(g, g->vars[g->n_vars]))
		g->n_vars++;
}

/* NAME=VALUE: the value, when the name is a password's */
static void g_assignment(struct grub_scan *g, const struct gword *w)
{
	const char *eq = strchr(w->val, '='), *raw;
	char name[64];

	if (!eq || eq == w->val || g->collect)
		return;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - w->val), w->val);
	if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
	    strlen(name))
		return;
	if (!snapshot_secret_key(name) && !g_var_named(g, name))
		return;
	raw = memchr(g->in + w->start, '=', w->end - w->start);
	if (raw)
		span_add(g->sp, (size_t)(raw - g->in) + 1, w->end,
			 "the value of %s (a password variable)", name);
}

static void g_command(struct grub_scan *g, const struct gword *w)
{
	if (g_keyword(w->val))
		return;
	if (streq(w->val, "password") || streq(w->val, "password_pbkdf2")) {
		g->state = G_PASSWORD;
		g->argn = 0;
		g->command = streq(w->val, "password") ? "password" : "password_pbkdf2";
		return;
	}
	g->state = streq(w->val, "set") || streq(w->val, "export") ? G_SET : G_ARGS;
	if (g->state == G_ARGS)
		g_assignment(g, w);
}

static void g_word_at(struct grub_scan *g, const struct gword *w)
{
	switch (g->state) {
	case G_COMMAND:
		return g_command(g, w);
	case G_SET:
		return g_assignment(g, w);
	case G_PASSWORD:
		if (++g->argn < 2)
			return; /* the user name */
		if (g->collect)
			return g_note_var(g, w->val);
		return span_add(g->sp, w->start, w->end, "the %s of a %s command",
				streq(g->command, "password") ? "password" : "hash", g->command);
	case G_ARGS:
		return;
	}
}

static size_t line_end(const char *in, size_t n, size_t i)
{
	const char *nl = memchr(in + i, '\n', n - i);

	return nl ? (size_t)(nl - in) : n;
}

/*
 * A comment is read as script too ("# password_pbkdf2 root HASH" is still a secret), but
 * only up to its newline, as GRUB ends it: its tokens are read with that newline as the
 * end of the text, so a quote in it ("# Don't ...") or a '\' at its end never runs on
 * into the lines after it.
 */
static void grub_pass(struct grub_scan *g)
{
	struct gword w;
	size_t pos = 0, end = g->n;
	int t;

	g->state = G_COMMAND;
	for (;;) {
		t = g_token(g->in, end, &pos, &w);
		if (t < 0 && end < g->n) {
			end = g->n; /* the comment's newline: a separator */
			t = 0;
		}
		if (t < 0)
			return;
		if (t == 2)
			end = line_end(g->in, g->n, pos);
		if (t == 1)
			g_word_at(g, &w);
		else
			g->state = G_COMMAND;
	}
}

static void scan_grub(const char *in, size_t n, struct spans *sp)
{
	struct grub_scan g = { .in = in, .n = n, .sp = sp, .collect = true };

	grub_pass(&g);
	g.collect = false;
	grub_pass(&g);
}

/* ---- the redacted text --------------------------------------------------- */

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static unsigned line_of(const char *in, size_t at)
{
	unsigned line = 1;

	for (size_t i = 0; i < at; i++)
		line += in[i] == '\n';
	return line;
}

/* The secret's bytes out, REDACTED in, its newlines kept as "\<newline>" (lines stay put). */
static void put_redacted(FILE *out, const char *in, const struct span *s)
{
	fputs(REDACTED, out);
	for (size_t i = s->start; i < s->end; i++)
		if (in[i] == '\n')
			fputs("\\\n", out);
}

static int write_redacted(const char *rel, const char *in, size_t n, struct spans *sp, FILE *out,
			  FILE *notes)
{
	size_t at = 0, count = 0;

	qsort(sp->v, sp->n, sizeof(*sp->v), span_cmp);
	for (size_t i = 0; i < sp->n; i++) {
		struct span s = sp->v[i];

		if (s.end <= at)
			continue; /* inside one already cut */
		if (s.start < at)
			s.start = at;
		fwrite(in + at, 1, s.start - at, out);
		put_redacted(out, in, &s);
		if (notes) {
			fputs("redacted ", notes);
			snapshot_escape(notes, rel);
			fprintf(notes, ":%u: ", line_of(in, s.start));
			snapshot_escape(notes, s.what);
			fputc('\n', notes);
		}
		at = s.end;
		count++;
	}
	fwrite(in + at, 1, n - at, out);
	return (int)count;
}

/* Which readers a kept file goes through, by its root-relative path. */
static const struct {
	const char *pattern;
	unsigned readers;
} redacted_files[] = {
	{ "proc/cmdline", SNAPSHOT_REDACT_CMDLINE },
	{ "etc/kernel/cmdline", SNAPSHOT_REDACT_CMDLINE },
	{ "boot/*", SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE },
	{ "efi/*", SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE }, /* the ESP at /efi */
	{ "etc/default/grub", SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE },
	{ "etc/default/grub.d/*", SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE },
	{ "etc/grub.d/*", SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE },
	{ "*modprobe.d/*", SNAPSHOT_REDACT_CMDLINE },
	/* bash: kernel_cmdline="..." holds kernel parameters (dracut.conf(5)) */
	{ "etc/dracut.conf", SNAPSHOT_REDACT_CMDLINE | SNAPSHOT_REDACT_SHELL },
	{ "*dracut.conf.d/*", SNAPSHOT_REDACT_CMDLINE | SNAPSHOT_REDACT_SHELL },
	{ "run/hostprep/*.json", SNAPSHOT_REDACT_CMDLINE },
};

/*
 * sys/module/MOD/parameters/NAME of a parameter named as a secret (MODULE.password= on the
 * command line is cut, the module shows the value it took there): the whole value.
 */
static bool secret_parameter(const char *rel)
{
	const char *name = strrchr(rel, '/');

	return name && snapshot_fnmatch("sys/module/*/parameters/*", rel, FNM_PATHNAME) &&
	       snapshot_secret_key(name + 1);
}

unsigned snapshot_redactors(const char *rel)
{
	unsigned r = secret_parameter(rel) ? SNAPSHOT_REDACT_VALUE : 0;

	for (size_t i = 0; i < ARRAY_SIZE(redacted_files); i++)
		if (snapshot_fnmatch(redacted_files[i].pattern, rel, 0))
			r |= redacted_files[i].readers;
	return r;
}

/* The value of a file that is one: all of it but its newline. */
static void scan_value(const char *in, size_t n, const char *rel, struct spans *sp)
{
	size_t end = n && in[n - 1] == '\n' ? n - 1 : n;

	span_add(sp, 0, end, "the value of module parameter %s", strrchr(rel, '/') + 1);
}

int snapshot_redact(unsigned readers, const char *rel, const char *in, size_t n, char **ret,
		    size_t *ret_size, FILE *notes)
{
	struct spans sp = {};
	FILE *out;
	int count;

	*ret = NULL;
	*ret_size = 0;
	if (readers & SNAPSHOT_REDACT_GRUB)
		scan_grub(in, n, &sp);
	if (readers & SNAPSHOT_REDACT_CMDLINE)
		scan_cmdline(in, n, readers & (SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_SHELL), &sp);
	if (readers & SNAPSHOT_REDACT_VALUE)
		scan_value(in, n, rel, &sp);
	if (sp.oom || sp.n == 0) {
		free(sp.v);
		return sp.oom ? -ENOMEM : 0;
	}
	out = open_memstream(ret, ret_size);
	if (!out) {
		free(sp.v);
		return -ENOMEM;
	}
	count = write_redacted(rel, in, n, &sp, out, notes);
	free(sp.v);
	if (fclose(out) != 0) {
		free(*ret);
		*ret = NULL;
		return -ENOMEM;
	}
	return count;
}
