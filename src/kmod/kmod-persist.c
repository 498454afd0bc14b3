// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "fileio.h"
#include "kmod/kmod-persist.h"
#include "log.h"
#include "record.h"
#include "run.h"

#define PERSIST_REL "modprobe.d/hostprep.conf" /* below /etc */
#define PERSIST_MAX (256 * 1024)	       /* hostprep never writes more; larger: not ours */
#define STORE_SHOWN "/var/lib/hostprep/originals"
#define PERSIST_HEAD                                                                            \
	"# hostprep owns this file (Persist=yes in /etc/hostprep); 'hostprep revert' restores " \
	"what was here before.\n"

/* ---- the file's content ------------------------------------------------ */

static int rule_cmp(const void *a, const void *b)
{
	const struct kmod_rule *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

bool kmod_persist_wanted(const struct run *run)
{
	const struct kmod_config *kc = run->cfg->kmod;

	for (size_t i = 0; kc && i < kc->n_rules; i++)
		if (kc->rules[i].enabled.on && kc->rules[i].persist.on)
			return true;
	return false;
}

/* "options NAME OPTS" (malloc'd). */
static char *options_line(const struct kmod_rule *rule)
{
	_cleanup_(freep) char *opts = kmod_rule_params_string(rule);
	char *s = NULL;

	if (!opts || asprintf(&s, "options %s %s", rule->name, opts) < 0)
		return NULL;
	return s;
}

/* The enabled Persist=yes rules, sorted by name (NULL-terminated, malloc'd). */
static const struct kmod_rule **persist_rules(const struct run *run, size_t *ret_n)
{
	const struct kmod_config *kc = run->cfg->kmod;
	const struct kmod_rule **v = calloc((kc ? kc->n_rules : 0) + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; kc && i < kc->n_rules; i++)
		if (kc->rules[i].enabled.on && kc->rules[i].persist.on)
			v[n++] = &kc->rules[i];
	qsort(v, n, sizeof(*v), rule_cmp);
	*ret_n = n;
	return v;
}

static int content_build(const struct kmod_rule **rules, size_t n, char **ret, size_t *ret_size)
{
	FILE *f = open_memstream(ret, ret_size);

	if (!f)
		return -ENOMEM;
	fputs(PERSIST_HEAD, f);
	for (size_t i = 0; i < n; i++) {
		_cleanup_(freep) char *line = options_line(rules[i]);

		if (line)
			fprintf(f, "%s\n", line);
		else
			fputc('\0', f); /* poisoned: detected below */
	}
	if (fclose(f) != 0 || !*ret || memchr(*ret, '\0', *ret_size))
		return -ENOMEM;
	return 0;
}

/* Does data hold this exact line? */
static bool has_line(const char *data, size_t size, const char *line)
{
	size_t n = strlen(line);

	for (size_t pos = 0; pos < size;) {
		const char *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;

		if (len == n && memcmp(data + pos, line, n) == 0)
			return true;
		pos += len + 1;
	}
	return false;
}

/* ---- the file as it is now --------------------------------------------- */

struct file_now {
	bool exists;
	char *data;
	size_t size;
	mode_t mode;
};

static void file_now_done(struct file_now *f)
{
	free(f->data);
	*f = (struct file_now){};
}

static int file_now_read(const char *path, struct file_now *ret)
{
	struct stat st;
	int r;

	*ret = (struct file_now){};
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL; /* a symlink or a directory is not a file hostprep wrote */
	r = read_full_file(path, PERSIST_MAX, &ret->data, &ret->size);
	if (r < 0)
		return r;
	ret->exists = true;
	ret->mode = st.st_mode & 07777;
	return 0;
}

static bool file_is(const struct file_now *f, size_t size, uint32_t crc)
{
	return f->exists && f->size == size && record_crc32(f->data, f->size) == crc;
}

/* ---- the persistent record, as this module sees it --------------------- */

struct persist_rec {
	struct record rec;
	bool *ours; /* per line: a valid file/wrote line of PERSIST_FILE */
	size_t n_bad;
	size_t first_bad;
	bool have_orig, orig_absent;
	size_t orig_size;
	uint32_t orig_crc;
	unsigned orig_mode;
	size_t n_wrote;
	size_t *wrote_size;
	uint32_t *wrote_crc;
};

static void persist_rec_done(struct persist_rec *p)
{
	record_done(&p->rec);
	free(p->ours);
	free(p->wrote_size);
	free(p->wrote_crc);
	*p = (struct persist_rec){};
}

static int format_orig(char *buf, size_t size, bool absent, size_t n, uint32_t crc, unsigned mode)
{
	if (absent)
		return snprintf(buf, size, "file %s absent", PERSIST_FILE);
	return snprintf(buf, size, "file %s bytes %zu %08" PRIx32 " %04o", PERSIST_FILE, n, crc,
			mode);
}

static int format_wrote(char *buf, size_t size, size_t n, uint32_t crc)
{
	return snprintf(buf, size, "wrote %s %zu %08" PRIx32, PERSIST_FILE, n, crc);
}

/* Parsed by scanning, accepted only when our own formatting gives the same bytes back. */
static bool parse_orig(struct persist_rec *p, const char *body)
{
	char again[RECORD_LINE_MAX + 1];
	size_t n;
	uint32_t crc;
	unsigned mode;

	format_orig(again, sizeof(again), true, 0, 0, 0);
	if (streq(body, again)) {
		p->have_orig = p->orig_absent = true;
		return true;
	}
	if (sscanf(body, "file " PERSIST_FILE " bytes %zu %8" SCNx32 " %4o", &n, &crc, &mode) != 3)
		return false;
	format_orig(again, sizeof(again), false, n, crc, mode);
	if (!streq(body, again) || n > PERSIST_MAX || (mode & ~07777u))
		return false;
	p->have_orig = true;
	p->orig_size = n;
	p->orig_crc = crc;
	p->orig_mode = mode;
	return true;
}

static int parse_wrote(struct persist_rec *p, const char *body)
{
	char again[RECORD_LINE_MAX + 1];
	size_t n, *sz;
	uint32_t crc, *c;

	if (sscanf(body, "wrote " PERSIST_FILE " %zu %8" SCNx32, &n, &crc) != 2)
		return 0;
	format_wrote(again, sizeof(again), n, crc);
	if (!streq(body, again))
		return 0;
	sz = reallocarray(p->wrote_size, p->n_wrote + 1, sizeof(*sz));
	if (!sz)
		return -ENOMEM;
	p->wrote_size = sz;
	c = reallocarray(p->wrote_crc, p->n_wrote + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	p->wrote_crc = c;
	sz[p->n_wrote] = n;
	c[p->n_wrote++] = crc;
	return 1;
}

static bool about_file(const struct record_line *l)
{
	return l->body && (record_line_is(l, "file") || record_line_is(l, "wrote"));
}

static void note_bad(struct persist_rec *p, size_t i)
{
	if (p->n_bad++ == 0)
		p->first_bad = i;
}

/* Another kind's intact line is its owner's; a damaged or unsigned one may be ours. */
static int classify(struct persist_rec *p, size_t i)
{
	const struct record_line *l = &p->rec.lines[i];
	int r;

	if (l->state != RECORD_LINE_INTACT) {
		note_bad(p, i);
		return 0;
	}
	if (!about_file(l))
		return 0;
	if (record_line_is(l, "file") && !p->have_orig && parse_orig(p, l->body)) {
		p->ours[i] = true;
		return 0;
	}
	r = record_line_is(l, "wrote") ? parse_wrote(p, l->body) : 0;
	if (r < 0)
		return r;
	if (r > 0)
		p->ours[i] = true;
	else
		note_bad(p, i); /* a second original or a malformed line: trust neither */
	return 0;
}

static int persist_rec_load(const struct sysroot *root, struct persist_rec *p)
{
	int r = record_load_store(root, RECORD_STORE_PERSIST, &p->rec);

	if (r < 0)
		return r;
	if (p->rec.too_large)
		return -EFBIG;
	p->ours = calloc(p->rec.n + 1, sizeof(bool));
	if (!p->ours)
		return -ENOMEM;
	for (size_t i = 0; i < p->rec.n; i++) {
		r = classify(p, i);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool is_original(const struct persist_rec *p, const struct file_now *f)
{
	if (!p->have_orig)
		return false;
	return p->orig_absent ? !f->exists : file_is(f, p->orig_size, p->orig_crc);
}

static bool is_ours(const struct persist_rec *p, const struct file_now *f)
{
	for (size_t i = 0; i < p->n_wrote; i++)
		if (file_is(f, p->wrote_size[i], p->wrote_crc[i]))
			return true;
	return false;
}

static char *bad_line_text(const struct persist_rec *p, size_t i)
{
	const struct record_line *l = &p->rec.lines[i];
	_cleanup_(freep) char *text = record_line_escape(l, 120);
	char *s = NULL;

	if (!text || asprintf(&s, "line %u of " STORE_SHOWN " (%s): '%s'", l->no,
			      l->why ? l->why : "not a valid line about " PERSIST_FILE, text) < 0)
		return NULL;
	return s;
}

/* ---- initramfs --------------------------------------------------------- */

/* "/etc/initramfs-tools/modules:3" when name is listed there (first word of a line). */
static int initramfs_tools_find(const struct sysroot *root, const char *name, char **ret)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_ETC, "initramfs-tools/modules");
	_cleanup_(fclosep) FILE *f = NULL;
	char line[512];
	unsigned no = 0;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char word[KMOD_NAME_MAX + 2], norm[KMOD_NAME_MAX + 1];

		no++;
		if (sscanf(line, " %57[A-Za-z0-9_-]", word) != 1 ||
		    kmod_name_normalize(word, norm) < 0 || !streq(norm, name))
			continue;
		return asprintf(ret, "/etc/initramfs-tools/modules:%u", no) < 0 ? -ENOMEM : 1;
	}
	return 0;
}

/* A dracut line "add_drivers+=" erdma "" or "force_drivers=..." that names name. */
static bool dracut_line_has(const char *line, const char *name)
{
	const char *keys[] = { "add_drivers", "force_drivers" };

	line += strspn(line, " \t");
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		const char *p = line + strlen(keys[k]);

		if (!strneq(line, keys[k], strlen(keys[k])))
			continue;
		p += *p == '+';
		if (*p++ != '=')
			continue;
		for (;;) {
			char word[KMOD_NAME_MAX + 2], norm[KMOD_NAME_MAX + 1];

			p += strspn(p, " \t\"'");
			if (sscanf(p, "%57[A-Za-z0-9_-]", word) != 1)
				break;
			if (kmod_name_normalize(word, norm) >= 0 && streq(norm, name))
				return true;
			p += strlen(word);
		}
	}
	return false;
}

static int dracut_file_find(const char *path, const char *shown, const char *name, char **ret)
{
	_cleanup_(fclosep) FILE *f = fopen(path, "re");
	char line[1024];
	unsigned no = 0;

	while (f && fgets(line, sizeof(line), f)) {
		no++;
		if (dracut_line_has(line, name))
			return asprintf(ret, "%s:%u", shown, no) < 0 ? -ENOMEM : 1;
	}
	return 0;
}

static int conf_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && streq(d->d_name + n - 5, ".conf");
}

/* dracut: the *.conf files of /etc/dracut.conf.d (sorted, as dracut reads them). */
static int dracut_find(const struct sysroot *root, const char *name, char **ret)
{
	_cleanup_(freep) char *dir = sysroot_path(root, SYSROOT_ETC, "dracut.conf.d");
	struct dirent **list = NULL;
	int n, r = 0;

	if (!dir)
		return -ENOMEM;
	n = scandir(dir, &list, conf_filter, alphasort);
	for (int i = 0; i < n; i++) {
		_cleanup_(freep) char *path = NULL, *shown = NULL;

		if (r == 0 && asprintf(&path, "%s/%s", dir, list[i]->d_name) >= 0 &&
		    asprintf(&shown, "/etc/dracut.conf.d/%s", list[i]->d_name) >= 0)
			r = dracut_file_find(path, shown, name, ret);
		free(list[i]);
	}
	free(list);
	return r;
}

/* A persisted module whose running value is wrong (live, declared, readable, differs). */
static const char *param_wrong(const struct kmod_seen *s, const char **ret_have)
{
	if (!s || !kmod_state_present(s->state))
		return NULL;
	for (size_t i = 0; i < s->rule->n_params; i++)
		if (s->param_have[i] && param_declared(s, s->rule->params[i].key) &&
		    !param_ok(s, i)) {
			*ret_have = s->param_have[i];
			return s->rule->params[i].key;
		}
	return NULL;
}

static const struct kmod_seen *seen_of(const struct kmod_run *k, const struct kmod_rule *rule)
{
	for (size_t i = 0; k && i < k->n_seen; i++)
		if (k->seen[i].rule == rule)
			return &k->seen[i];
	return NULL;
}

struct notes {
	FILE *f;
	char *text;
	size_t size;
	bool dracut;
};

/*
 * What the initramfs means for one module: in_place says the option was in the file
 * before this run (a wrong running value then came from a load before the root file
 * system); changed says this run changed the file (an initramfs listing the module holds
 * the old copy of modprobe.d).
 */
static int note_module(const struct run *run, const struct kmod_run *k,
		       const struct kmod_rule *rule, bool in_place, bool changed, struct notes *n)
{
	_cleanup_(freep) char *tools = NULL, *dracut = NULL;
	const char *have = NULL, *key = param_wrong(seen_of(k, rule), &have);
	const char *where;
	int r;

	r = initramfs_tools_find(run->root, rule->name, &tools);
	if (r >= 0)
		r = dracut_find(run->root, rule->name, &dracut);
	if (r < 0)
		return r;
	n->dracut |= dracut != NULL;
	where = tools ? tools : dracut;
	if (key && in_place)
		fprintf(n->f,
			"; %s was loaded with %s=%s although " PERSIST_FILE
			" has the option: it was loaded before the root file system (the "
			"initramfs copy%s%s) or by hand",
			rule->name, key, have, where ? ", listed in " : "", strempty(where));
	else if (where && (changed || key))
		fprintf(n->f,
			"; %s is in the initramfs (%s), which keeps the modprobe.d it was built "
			"with",
			rule->name, where);
	return 0;
}

static int notes_collect(const struct run *run, const struct kmod_run *k,
			 const struct kmod_rule **rules, size_t n_rules,
			 const struct file_now *before, bool changed, struct notes *n)
{
	int r = 0;

	n->f = open_memstream(&n->text, &n->size);
	if (!n->f)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < n_rules; i++) {
		_cleanup_(freep) char *line = options_line(rules[i]);

		r = line ? note_module(run, k, rules[i],
				       before->exists && has_line(before->data, before->size, line),
				       changed, n)
			 : -ENOMEM;
	}
	if (fclose(n->f) != 0 || !n->text)
		r = -ENOMEM;
	n->f = NULL;
	return r;
}

static const char *notes_remedy(const struct notes *n)
{
	return n->dracut ? "rebuild the initramfs so it carries the option: dracut -f (then reboot)"
			 : "rebuild the initramfs so it carries the option: update-initramfs -u "
			   "(dracut: dracut -f), then reboot";
}

/* The result, turned into a warning (with the initramfs remedy) when there is a note. */
static int persist_result(struct results *rs, enum verdict v, const char *expected,
			  const char *remedy, const struct notes *n, const char *actual)
{
	bool note = n && n->text && *n->text;

	if (note && v == VERDICT_PASS)
		v = VERDICT_WARN;
	return results_addf(rs, v, "module.persist", PERSIST_FILE, expected,
			    note && (!remedy || v == VERDICT_WARN) ? notes_remedy(n) : remedy,
			    "%s%s", actual, note ? n->text : "");
}

/*
 * A kill -9 inside write_file_atomic() leaves "<path>.tmp-XXXXXX" behind. The name is ours
 * and modprobe ignores it (not *.conf), but it must not pile up: remove ours, nothing else.
 */
static void remove_stale_temps(const char *path)
{
	_cleanup_(freep) char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	_cleanup_(closedirp) DIR *d = NULL;
	char prefix[64];
	struct dirent *e;

	if (!slash)
		return;
	*slash = '\0';
	snprintf(prefix, sizeof(prefix), "%s.tmp-", slash + 1);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (strneq(e->d_name, prefix, strlen(prefix)) &&
		    strlen(e->d_name) == strlen(prefix) + 6 && unlinkat(dirfd(d), e->d_name, 0) < 0)
			log_warning_errno(errno, "Failed to remove %s/%s, ignoring: %m", dir,
					  e->d_name);
}

/* ---- apply ------------------------------------------------------------- */

struct persist_ctx {
	struct run *run;
	struct kmod_run *k;
	char *path;
	const struct kmod_rule **rules;
	size_t n_rules;
	char *want;
	size_t want_size;
	struct file_now now;
	struct persist_rec p;
	char *expected;
};

static void persist_ctx_done(struct persist_ctx *c)
{
	free(c->path);
	free(c->rules);
	free(c->want);
	file_now_done(&c->now);
	persist_rec_done(&c->p);
	free(c->expected);
}

static int ctx_fail(struct persist_ctx *c, const char *remedy, const char *fmt, const char *arg)
{
	_cleanup_(freep) char *actual = NULL;

	if (asprintf(&actual, fmt, arg) < 0)
		return -ENOMEM;
	return persist_result(&c->run->results, VERDICT_FAIL, c->expected, remedy, NULL, actual);
}

static const char *const changed_remedy =
	"hostprep owns " PERSIST_FILE ": move your own lines to another file in /etc/modprobe.d, "
	"put back what hostprep wrote (or the original), then hostprep apply";

static int record_original(struct persist_ctx *c)
{
	char body[RECORD_LINE_MAX];
	uint32_t crc = 0;
	int r;

	if (c->now.exists) {
		r = record_backup_save(c->run->root, c->now.data, c->now.size, &crc);
		if (r < 0)
			return r;
	}
	format_orig(body, sizeof(body), !c->now.exists, c->now.size, crc, c->now.mode);
	return record_append(&c->p.rec, body);
}

/* Older "wrote" lines no longer describe the file: drop them (a failure only leaves more). */
static void drop_old_wrote(struct persist_ctx *c, size_t keep)
{
	_cleanup_(freep) bool *drop = calloc(c->p.rec.n + 1, sizeof(bool));
	int r;

	if (!drop)
		return;
	for (size_t i = 0; i < c->p.rec.n; i++)
		drop[i] = i != keep && c->p.ours[i] && record_line_is(&c->p.rec.lines[i], "wrote");
	r = record_rewrite(&c->p.rec, drop);
	if (r < 0)
		log_warning_errno(r, "Failed to drop old lines from " STORE_SHOWN ", ignoring: %m");
}

static int write_and_read_back(struct persist_ctx *c)
{
	_cleanup_(freep) char *dir = sysroot_path(c->run->root, SYSROOT_ETC, "modprobe.d");
	_cleanup_(file_now_done) struct file_now back = {};
	int r;

	if (!dir)
		return -ENOMEM;
	r = mkdir_parents(dir, 0755);
	if (r >= 0)
		r = write_file_atomic(c->path, c->want, c->want_size, 0644);
	if (r >= 0)
		r = file_now_read(c->path, &back);
	if (r >= 0 && !(back.exists && back.size == c->want_size &&
			memcmp(back.data, c->want, c->want_size) == 0))
		r = -EIO;
	return r;
}

static int apply_write(struct persist_ctx *c, struct notes *n)
{
	char body[RECORD_LINE_MAX];
	size_t keep;
	int r;

	if (!c->p.have_orig) {
		r = record_original(c);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return ctx_fail(c, NULL, "not written: cannot record the original: %s",
					strerror(-r));
	}
	format_wrote(body, sizeof(body), c->want_size, record_crc32(c->want, c->want_size));
	keep = c->p.rec.n;
	r = record_append(&c->p.rec, body);
	if (r >= 0)
		r = write_and_read_back(c);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return ctx_fail(c, "see the error above; the original is recorded: hostprep revert",
				"write failed: %s", r == -EIO ? "read back differs" : strerror(-r));
	drop_old_wrote(c, keep);
	return persist_result(&c->run->results, VERDICT_PASS, c->expected, NULL, n,
			      "written, read back");
}

static int apply_decide(struct persist_ctx *c, struct notes *n)
{
	_cleanup_(freep) char *bad = NULL;

	if (c->p.n_bad) {
		bad = bad_line_text(&c->p, c->p.first_bad);
		if (!bad)
			return -ENOMEM;
		return ctx_fail(
			c,
			"look at " STORE_SHOWN ": restore by hand what the line names, then "
			"delete the line",
			"not written: the originals record may hold the original in a damaged "
			"line: %s",
			bad);
	}
	if (c->p.n_wrote && !c->p.have_orig)
		return ctx_fail(c,
				"delete the wrote lines of " STORE_SHOWN " once " PERSIST_FILE
				" is as it was, then hostprep apply",
				"not written: %s names what hostprep wrote but not the original",
				STORE_SHOWN);
	if (c->p.have_orig && !is_original(&c->p, &c->now) && !is_ours(&c->p, &c->now))
		return ctx_fail(c, changed_remedy, "not written: %s",
				"changed since hostprep wrote it");
	return apply_write(c, n);
}

static int ctx_init(struct persist_ctx *c, struct run *run, struct kmod_run *k)
{
	*c = (struct persist_ctx){ .run = run, .k = k };
	c->path = sysroot_path(run->root, SYSROOT_ETC, PERSIST_REL);
	c->rules = persist_rules(run, &c->n_rules);
	if (!c->path || !c->rules)
		return -ENOMEM;
	if (asprintf(&c->expected, "%zu options line%s, hostprep-owned", c->n_rules,
		     c->n_rules == 1 ? "" : "s") < 0)
		return -ENOMEM;
	return content_build(c->rules, c->n_rules, &c->want, &c->want_size);
}

static int notes_done(struct notes *n, int r)
{
	free(n->text);
	return r;
}

int kmod_persist_apply(struct kmod_run *k, struct run *run)
{
	_cleanup_(persist_ctx_done) struct persist_ctx c = {};
	struct notes n = {};
	bool same;
	int r;

	r = ctx_init(&c, run, k);
	if (r < 0)
		return r;
	remove_stale_temps(c.path);
	r = file_now_read(c.path, &c.now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return ctx_fail(&c, NULL, "not written: cannot read it: %s", strerror(-r));
	same = c.now.exists && c.now.size == c.want_size &&
	       memcmp(c.now.data, c.want, c.want_size) == 0;
	r = notes_collect(run, k, c.rules, c.n_rules, &c.now, !same, &n);
	if (r < 0)
		return notes_done(&n, r);
	if (same)
		return notes_done(&n, persist_result(&run->results, VERDICT_PASS, c.expected, NULL,
						     &n, "already up to date"));
	r = persist_rec_load(run->root, &c.p);
	if (r == -ENOMEM)
		return notes_done(&n, r);
	if (r < 0)
		return notes_done(&n, ctx_fail(&c, NULL,
					       "not written: cannot read the originals record: %s",
					       strerror(-r)));
	return notes_done(&n, apply_decide(&c, &n));
}

/* ---- check ------------------------------------------------------------- */

int kmod_persist_verify(struct kmod_run *k, struct run *run)
{
	_cleanup_(persist_ctx_done) struct persist_ctx c = {};
	_cleanup_(freep) char *missing = NULL;
	size_t size = 0;
	struct notes n = {};
	FILE *f;
	int r;

	r = ctx_init(&c, run, k);
	if (r < 0)
		return r;
	r = file_now_read(c.path, &c.now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results, VERDICT_UNKNOWN, "module.persist", PERSIST_FILE,
				    c.expected, "run hostprep as root", "cannot read it: %s",
				    strerror(-r));
	f = open_memstream(&missing, &size);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < c.n_rules; i++) {
		_cleanup_(freep) char *line = options_line(c.rules[i]);

		if (line && !(c.now.exists && has_line(c.now.data, c.now.size, line)))
			fprintf(f, "%s\"%s\"", size ? ", " : "", line);
		fflush(f);
	}
	if (fclose(f) != 0 || !missing)
		return -ENOMEM;
	if (*missing)
		return results_addf(&run->results, run->cfg->apply ? VERDICT_FAIL : VERDICT_WARN,
				    "module.persist", PERSIST_FILE, c.expected,
				    "hostprep apply (with [Host] Apply=yes it writes " PERSIST_FILE
				    ")",
				    "%s; lacks %s", c.now.exists ? "present" : "absent", missing);
	r = notes_collect(run, k, c.rules, c.n_rules, &c.now, false, &n);
	if (r >= 0)
		r = persist_result(&run->results, VERDICT_PASS, c.expected, NULL, &n,
				   "has every options line");
	return notes_done(&n, r);
}

/* ---- revert ------------------------------------------------------------ */

static int revert_fail(struct run *run, const char *object, const char *remedy, const char *fmt,
		       const char *arg)
{
	return results_addf(&run->results, VERDICT_FAIL, "module.revert", object,
			    "as before hostprep", remedy, fmt, arg);
}

static int restore_bytes(struct run *run, const struct persist_rec *p, const char *path)
{
	_cleanup_(freep) char *data = NULL;
	_cleanup_(file_now_done) struct file_now back = {};
	char name[64];
	int r;

	record_backup_name(p->orig_crc, name);
	r = record_backup_load(run->root, p->orig_crc, p->orig_size, &data);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(
			run, PERSIST_FILE,
			"put the original back by hand if you have it, then delete the "
			"file lines of " STORE_SHOWN,
			"not restored: the backup %s is damaged or missing (size or crc32 "
			"differ from the record); hostprep's file left in place",
			name);
	r = write_file_atomic(path, data, p->orig_size, p->orig_mode);
	if (r >= 0)
		r = file_now_read(path, &back);
	if (r >= 0 && !file_is(&back, p->orig_size, p->orig_crc))
		r = -EIO;
	if (r < 0)
		return r == -ENOMEM ? r
				    : revert_fail(run, PERSIST_FILE, NULL,
						  "not restored: write failed: %s", strerror(-r));
	return results_addf(&run->results, VERDICT_PASS, "module.revert", PERSIST_FILE,
			    "as before hostprep", NULL,
			    "restored the original %zu bytes, read back", p->orig_size);
}

static int remove_file(struct run *run, const char *path)
{
	int r = 0;

	if (unlink(path) < 0)
		r = -errno;
	else
		r = fsync_parent_dir(path);
	if (r < 0)
		return revert_fail(run, PERSIST_FILE, NULL, "not removed: %s", strerror(-r));
	return results_add(&run->results, VERDICT_PASS, "module.revert", PERSIST_FILE,
			   "as before hostprep", "removed (there was no such file before hostprep)",
			   NULL);
}

/* Returns 1 when the file is as before hostprep (its record lines can go). */
static int revert_file(struct run *run, const struct persist_rec *p, const char *path)
{
	_cleanup_(file_now_done) struct file_now now = {};
	size_t before = run->results.n;
	int r;

	r = file_now_read(path, &now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(run, PERSIST_FILE, NULL, "not restored: cannot read it: %s",
				   strerror(-r));
	if (is_original(p, &now))
		r = results_add(&run->results, VERDICT_PASS, "module.revert", PERSIST_FILE,
				"as before hostprep",
				p->orig_absent ? "absent already" : "the original already", NULL);
	else if (!is_ours(p, &now))
		r = revert_fail(run, PERSIST_FILE, changed_remedy, "not restored: %s",
				"changed since hostprep wrote it; left as it is");
	else
		r = p->orig_absent ? remove_file(run, path) : restore_bytes(run, p, path);
	if (r < 0)
		return r;
	return run->results.n > before &&
	       run->results.items[run->results.n - 1].verdict == VERDICT_PASS;
}

static int revert_report_bad(struct run *run, const struct persist_rec *p)
{
	for (size_t i = 0; i < p->rec.n; i++) {
		_cleanup_(freep) char *text = NULL;
		const struct record_line *l = &p->rec.lines[i];
		int r;

		if (p->ours[i] || (l->state == RECORD_LINE_INTACT && !about_file(l)))
			continue;
		text = bad_line_text(p, i);
		if (!text)
			return -ENOMEM;
		r = revert_fail(run, "record",
				"restore by hand what the line names, then delete the line",
				"%s; kept byte-exact, never used", text);
		if (r < 0)
			return r;
	}
	return 0;
}

static int revert_done(struct run *run, struct persist_rec *p)
{
	_cleanup_(freep) bool *drop = calloc(p->rec.n + 1, sizeof(bool));
	int r;

	if (!drop)
		return -ENOMEM;
	for (size_t i = 0; i < p->rec.n; i++)
		drop[i] = p->ours[i];
	r = record_rewrite(&p->rec, drop);
	if (r < 0)
		return log_error_errno(r, "Failed to update " STORE_SHOWN ": %m");
	if (p->have_orig && !p->orig_absent)
		(void)record_backup_remove(run->root, p->orig_crc);
	return 0;
}

int kmod_persist_revert(struct run *run)
{
	_cleanup_(persist_rec_done) struct persist_rec p = {};
	_cleanup_(freep) char *path = sysroot_path(run->root, SYSROOT_ETC, PERSIST_REL);
	int r;

	if (!path)
		return -ENOMEM;
	remove_stale_temps(path);
	r = persist_rec_load(run->root, &p);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(run, "record", NULL,
				   "cannot read " STORE_SHOWN ": %s; nothing restored",
				   strerror(-r));
	r = revert_report_bad(run, &p);
	if (r < 0)
		return r;
	if (!p.have_orig) {
		if (p.n_wrote)
			return revert_fail(run, PERSIST_FILE, NULL,
					   "not restored: %s names what hostprep wrote but not "
					   "the original",
					   STORE_SHOWN);
		return 0; /* nothing recorded about the file */
	}
	r = revert_file(run, &p, path);
	if (r <= 0)
		return r;
	return revert_done(run, &p);
}
