// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <unistd.h>

#include "core/fileio.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-parse.h"

#define MODPROBE_MAX_FILES 1024
#define MODPROBE_MAX_LINE  (64 * 1024)
#define MODPROBE_MAX_FILE  (1024 * 1024)

static const enum sysroot_top dir_tops[MODPROBE_DIRS_N] = {
	SYSROOT_ETC, SYSROOT_RUN, SYSROOT_USR_LOCAL_LIB, SYSROOT_USR_LIB, SYSROOT_LIB,
};

const char *const modprobe_dir_shown[MODPROBE_DIRS_N] = {
	"/etc/modprobe.d",     "/run/modprobe.d", "/usr/local/lib/modprobe.d",
	"/usr/lib/modprobe.d", "/lib/modprobe.d",
};

int modprobe_dirs(const struct sysroot *root, char *ret[MODPROBE_DIRS_N])
{
	size_t n = 0;

	for (size_t i = 0; i < MODPROBE_DIRS_N; i++) {
		int r = sysroot_lib_path(root, dir_tops[i], &ret[n], "modprobe.d");

		if (r == -ENOMEM) {
			while (n > 0)
				free(ret[--n]);
			return r;
		}
		n += r >= 0; /* a dangling link: libkmod reads nothing there, as dir_read() */
	}
	for (; n < MODPROBE_DIRS_N; n++)
		ret[n] = NULL;
	return 0;
}

/* ---- the files, in libkmod's order ------------------------------------- */

bool modprobe_name_wanted(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && len >= 6 &&
	       (streq(n + len - 5, ".conf") || streq(n + len - 6, ".alias"));
}

static struct modprobe_file *files_find(const struct modprobe_files *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (streq(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

static void file_done(struct modprobe_file *m)
{
	free(m->name);
	free(m->text);
	*m = (struct modprobe_file){};
}

int modprobe_files_add(struct modprobe_files *f, size_t dir, const char *name, char *text, int err)
{
	_cleanup_(freep) char *owned = text;
	struct modprobe_file *m = files_find(f, name), *grown;

	if (m && m->dir <= dir)
		return 0; /* masked by the same name in an earlier directory */
	if (m)
		file_done(m);
	else {
		if (f->n >= MODPROBE_MAX_FILES)
			return -E2BIG;
		grown = reallocarray(f->v, f->n + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		f->v = grown;
		m = &f->v[f->n++];
	}
	*m = (struct modprobe_file){ .name = strdup(name), .dir = dir, .err = err };
	m->text = TAKE_PTR(owned);
	return m->name ? 0 : -ENOMEM;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct modprobe_file *)a)->name,
		      ((const struct modprobe_file *)b)->name);
}

void modprobe_files_sort(struct modprobe_files *f)
{
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), file_cmp);
}

void modprobe_files_done(struct modprobe_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		file_done(&f->v[i]);
	free(f->v);
	*f = (struct modprobe_files){};
}

/*
 * One entry as libkmod takes it: a directory is left out (conf_files_filter_out), a
 * dangling link or a device (/dev/null, the masking convention) reads as nothing and masks
 * the name all the same. Opened below the root, links resolved there (Debian's
 * alternatives point into /etc/alternatives); O_NONBLOCK: a FIFO never blocks.
 */
static int file_read(const struct sysroot *root, struct modprobe_files *f, size_t d,
		     const char *name)
{
	_cleanup_(closep) int fd = -1;
	char *text = NULL;
	int r;

	fd = sysroot_openat(root, dir_tops[d], O_RDONLY | O_NONBLOCK, "modprobe.d/%s", name);
	r = fd < 0 ? fd : read_full_fd(fd, MODPROBE_MAX_FILE, &text, NULL);
	if (r == -ENOMEM || r == -EISDIR)
		return r == -ENOMEM ? r : 0;
	if (r == -ENOENT || r == -EBADFD) {
		text = strdup("");
		r = text ? 0 : -ENOMEM;
		if (r < 0)
			return r;
	}
	return modprobe_files_add(f, d, name, r < 0 ? NULL : text, r < 0 ? r : 0);
}

static int dir_read(const struct sysroot *root, struct modprobe_files *f, size_t d)
{
	_cleanup_(closedirp) DIR *dir = NULL;
	struct dirent *de;
	int fd, r = 0;

	fd = sysroot_openat(root, dir_tops[d], O_RDONLY | O_DIRECTORY, "modprobe.d");
	if (fd == -ENOENT || fd == -ENOTDIR)
		return 0;
	if (fd < 0)
		return modprobe_files_add(f, d, "", NULL, fd); /* the whole directory unread */
	dir = fdopendir(fd);
	if (!dir) {
		r = -errno;
		close(fd);
		return r;
	}
	while (r >= 0 && (de = readdir(dir)))
		if (modprobe_name_wanted(de->d_name))
			r = file_read(root, f, d, de->d_name);
	return r;
}

int modprobe_files_read(const struct sysroot *root, struct modprobe_files *ret)
{
	int r = 0;

	*ret = (struct modprobe_files){};
	for (size_t d = 0; r >= 0 && d < MODPROBE_DIRS_N; d++)
		r = dir_read(root, ret, d);
	if (r < 0)
		modprobe_files_done(ret);
	else
		modprobe_files_sort(ret);
	return r;
}

/* ---- one file ---------------------------------------------------------- */

/* libkmod's freadline_wrapped: "\\\n" joins lines, a backslash before anything else is dropped. */
static char *read_wrapped(FILE *f, unsigned *lineno, unsigned *first)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m;
	int c, lines = 0;

	c = getc(f);
	if (c == EOF)
		return NULL;
	m = open_memstream(&buf, &size);
	if (!m)
		return NULL;
	*first = *lineno + 1;
	for (; c != EOF && c != '\n'; c = getc(f)) {
		if (c == '\\') {
			c = getc(f);
			if (c == '\n') {
				lines++;
				continue;
			}
			if (c == EOF)
				break;
		}
		if (size < MODPROBE_MAX_LINE)
			fputc(c, m);
	}
	*lineno += lines + 1;
	fclose(m);
	return buf;
}

static void name_underscores(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* The kernel's next_arg(), simplified: blanks separate words, double quotes group them. */
static const char *next_word(const char *p, char **ret)
{
	bool quoted = false;
	const char *start;

	p += strspn(p, " \t\n");
	start = p;
	for (; *p && (quoted || !strchr(" \t\n", *p)); p++)
		if (*p == '"')
			quoted = !quoted;
	*ret = p > start ? strndup(start, p - start) : NULL;
	return p;
}

/* "key=value" → key (normalised) and value (one pair of quotes removed). */
static int word_split(char *word, char **key, char **value)
{
	char *eq = strchr(word, '=');
	size_t n;

	*value = NULL;
	if (eq) {
		*eq = '\0';
		n = strlen(eq + 1);
		if (n >= 2 && eq[1] == '"' && eq[n] == '"')
			*value = strndup(eq + 2, n - 2);
		else
			*value = strdup(eq + 1);
		if (!*value)
			return -ENOMEM;
	}
	name_underscores(word);
	*key = strdup(word);
	if (!*key) {
		free(*value);
		return -ENOMEM;
	}
	return 0;
}

static int opts_add(struct modprobe_eval *e, const char *text, const char *where, const char *line)
{
	for (const char *p = text;;) {
		_cleanup_(freep) char *word = NULL;
		struct modprobe_opt *o, *grown;
		int r;

		p = next_word(p, &word);
		if (!word)
			return *p ? -ENOMEM : 0;
		grown = reallocarray(e->opts, e->n_opts + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		e->opts = grown;
		o = &e->opts[e->n_opts];
		*o = (struct modprobe_opt){ .where = strdup(where), .line = strdup(line) };
		r = word_split(word, &o->key, &o->value);
		e->n_opts++; /* counted even half-filled, so that it is freed */
		if (r < 0 || !o->where || !o->line)
			return -ENOMEM;
	}
}

static int append(char **s, const char *text)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s", strempty(*s), *s && **s ? " " : "", text) < 0)
		return -ENOMEM;
	free(*s);
	*s = n;
	return 0;
}

struct line_ctx {
	struct modprobe_eval *e;
	const char *name;
	char where[PATH_MAX + 16];
};

static int take_options(struct line_ctx *c, char *modname, char *rest, const char *shown)
{
	_cleanup_(freep) char *line = NULL;

	name_underscores(modname);
	if (!streq(modname, c->name) || !rest || !*rest)
		return 0;
	for (char *t = rest; *t; t++)
		if (*t == '\t')
			*t = ' ';
	if (asprintf(&line, "options %s %s", modname, rest) < 0)
		return -ENOMEM;
	if (append(&c->e->files_options, rest) < 0)
		return -ENOMEM;
	return opts_add(c->e, rest, shown, line);
}

static int take_install(struct line_ctx *c, char *modname, char *rest, const char *shown)
{
	name_underscores(modname);
	if (c->e->install_where || !rest || !*rest || fnmatch(modname, c->name, 0) != 0)
		return 0;
	c->e->install_where = strdup(shown);
	if (!c->e->install_where ||
	    asprintf(&c->e->install_line, "install %s %s", modname, rest) < 0)
		return -ENOMEM;
	return 0;
}

/* One line, tokenised like libkmod's kmod_config_parse(). */
static int take_line(struct line_ctx *c, char *line)
{
	char *save = NULL, *cmd, *modname, *rest;

	if (!line[0] || line[0] == '#')
		return 0;
	cmd = strtok_r(line, "\t ", &save);
	if (!cmd || (!streq(cmd, "options") && !streq(cmd, "install")))
		return 0;
	modname = strtok_r(NULL, "\t ", &save);
	if (!modname)
		return 0;
	rest = save && *save ? save : NULL;
	if (streq(cmd, "options"))
		return take_options(c, modname, rest, c->where);
	return take_install(c, modname, rest, c->where);
}

static int file_eval(struct modprobe_eval *e, const struct modprobe_file *m, const char *name)
{
	_cleanup_(fclosep) FILE *f = NULL;
	struct line_ctx c = { .e = e, .name = name };
	unsigned lineno = 0, first;
	char *line;
	int r = 0;

	if (!m->text) {
		if (e->unreadable)
			return 0; /* the first one is named */
		e->unreadable_err = m->err;
		return asprintf(&e->unreadable, "%s%s%s", modprobe_dir_shown[m->dir],
				*m->name ? "/" : "", m->name) < 0
			       ? -ENOMEM
			       : 0;
	}
	if (!*m->text)
		return 0;
	f = fmemopen(m->text, strlen(m->text), "r");
	if (!f)
		return -ENOMEM;
	while (r >= 0 && (line = read_wrapped(f, &lineno, &first))) {
		snprintf(c.where, sizeof(c.where), "%s/%s:%u", modprobe_dir_shown[m->dir], m->name,
			 first);
		r = take_line(&c, line);
		free(line);
	}
	return r;
}

/* ---- the kernel command line ------------------------------------------ */

static int cmdline_eval(struct modprobe_eval *e, const struct cmdline *cl, const char *name)
{
	for (size_t i = 0; cl && i < cl->n_all; i++) { /* libkmod reads past "--" */
		const char *key = cl->params[i].key, *dot = strchr(key, '.');
		char mod[KMOD_NAME_MAX + 1];
		_cleanup_(freep) char *opt = NULL, *line = NULL, *modpart = NULL;
		int r;

		if (!dot || dot == key || !dot[1])
			continue;
		modpart = strndup(key, dot - key);
		if (!modpart)
			return -ENOMEM;
		if (kmod_name_normalize(modpart, mod) < 0 || !streq(mod, name))
			continue;
		if (asprintf(&opt, "%s%s%s", dot + 1, cl->params[i].value ? "=" : "",
			     strempty(cl->params[i].value)) < 0 ||
		    asprintf(&line, "%s.%s", name, opt) < 0)
			return -ENOMEM;
		r = append(&e->options, opt);
		if (r >= 0)
			r = opts_add(e, opt, "the kernel command line", line);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- the whole evaluation --------------------------------------------- */

int modprobe_eval_files(const struct modprobe_files *files, const struct cmdline *cmdline,
			const char *name, struct modprobe_eval *ret)
{
	int r = 0;

	*ret = (struct modprobe_eval){};
	for (size_t i = 0; r >= 0 && i < files->n; i++)
		r = file_eval(ret, &files->v[i], name);
	if (r >= 0) {
		ret->files_options = ret->files_options ? ret->files_options : strdup("");
		ret->options = ret->files_options ? strdup(ret->files_options) : NULL;
		r = ret->options ? cmdline_eval(ret, cmdline, name) : -ENOMEM;
	}
	if (r < 0)
		modprobe_eval_done(ret);
	return r;
}

int modprobe_eval(const struct sysroot *root, const struct cmdline *cmdline, const char *name,
		  struct modprobe_eval *ret)
{
	struct modprobe_files files;
	int r;

	*ret = (struct modprobe_eval){};
	r = modprobe_files_read(root, &files);
	if (r < 0)
		return r;
	r = modprobe_eval_files(&files, cmdline, name, ret);
	modprobe_files_done(&files);
	return r;
}

void modprobe_eval_done(struct modprobe_eval *e)
{
	for (size_t i = 0; i < e->n_opts; i++) {
		free(e->opts[i].key);
		free(e->opts[i].value);
		free(e->opts[i].where);
		free(e->opts[i].line);
	}
	free(e->opts);
	free(e->files_options);
	free(e->options);
	free(e->install_where);
	free(e->install_line);
	free(e->unreadable);
	*e = (struct modprobe_eval){};
}

const struct modprobe_opt *modprobe_eval_last(const struct modprobe_eval *e, const char *key)
{
	for (size_t i = e->n_opts; i > 0; i--)
		if (streq(e->opts[i - 1].key, key))
			return &e->opts[i - 1];
	return NULL;
}

int modprobe_options_eval(const char *options, struct modprobe_eval *ret)
{
	int r;

	*ret = (struct modprobe_eval){};
	r = opts_add(ret, strempty(options), "", "");
	if (r < 0)
		modprobe_eval_done(ret);
	return r;
}

int modprobe_options_last(const char *options, const char *key, char **ret)
{
	_cleanup_(modprobe_eval_done) struct modprobe_eval e = {};
	const struct modprobe_opt *o;
	int r;

	*ret = NULL;
	r = modprobe_options_eval(options, &e);
	o = r >= 0 ? modprobe_eval_last(&e, key) : NULL;
	if (o) {
		*ret = strdup(o->value ? o->value : "");
		r = *ret ? 0 : -ENOMEM;
	}
	return r;
}
