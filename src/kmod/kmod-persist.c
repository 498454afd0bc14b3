// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "core/persist-file.h"
#include "core/record.h"
#include "core/run.h"

#define PERSIST_REL "modprobe.d/hostprep.conf" /* below /etc */
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
	const struct kmod_config *kc = kmod_config_get(run->cfg);

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
	const struct kmod_config *kc = kmod_config_get(run->cfg);
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

/* ---- initramfs --------------------------------------------------------- */

/* "/etc/initramfs-tools/modules:3" when name is listed there (first word of a line). */
static int initramfs_tools_find(const struct sysroot *root, const char *name, char **ret)
{
	_cleanup_(fclosep) FILE *f = NULL;
	char line[512];
	unsigned no = 0;

	if (sysroot_fopen(root, SYSROOT_ETC, &f, "initramfs-tools/modules") == -ENOMEM)
		return -ENOMEM;
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

static int dracut_file_find(const struct sysroot *root, const char *file, const char *name,
			    char **ret)
{
	_cleanup_(fclosep) FILE *f = NULL;
	char line[1024];
	unsigned no = 0;

	if (sysroot_fopen(root, SYSROOT_ETC, &f, "dracut.conf.d/%s", file) == -ENOMEM)
		return -ENOMEM;
	while (f && fgets(line, sizeof(line), f)) {
		no++;
		if (dracut_line_has(line, name))
			return asprintf(ret, "/etc/dracut.conf.d/%s:%u", file, no) < 0 ? -ENOMEM
										       : 1;
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
	struct dirent **list = NULL;
	int n, r = 0;

	n = sysroot_scandir(root, SYSROOT_ETC, &list, conf_filter, alphasort, "dracut.conf.d");
	if (n == -ENOMEM)
		return n;
	for (int i = 0; i < n; i++) {
		if (r == 0)
			r = dracut_file_find(root, list[i]->d_name, name, ret);
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
			 const struct pfile_now *before, bool changed, const bool *shadowed,
			 struct notes *n)
{
	int r = 0;

	n->f = open_memstream(&n->text, &n->size);
	if (!n->f)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < n_rules; i++) {
		_cleanup_(freep) char *line = options_line(rules[i]);

		if (shadowed[i])
			continue; /* the overriding line is the story, not the initramfs */
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

/* ---- what libkmod will pass -------------------------------------------- */

/*
 * A persisted line only counts if it is what the next load gets: libkmod passes every
 * options line of modprobe.d (libkmod's file order) and the command line's NAME.param=,
 * and the kernel keeps the last value of a parameter. A later file (mlnx.conf,
 * zz-site.conf) or the command line shadows hostprep.conf; an install line replaces the
 * load altogether.
 */
struct shadow {
	FILE *f;
	char *text;
	size_t size;
	bool fail, warn;
	bool *hit; /* per persisted rule: shadowed (then the initramfs is not the story) */
};

static bool from_persist_file(const struct modprobe_opt *o)
{
	size_t n = strlen(PERSIST_FILE);

	return strneq(o->where, PERSIST_FILE, n) && o->where[n] == ':';
}

/*
 * libkmod (the oracle) and the walk must read the same: on the host the whole string; under
 * --root libkmod adds the running kernel's command line, not the tree's, so only the files'
 * part is compared. A mismatch is logged, and on the host the verdict follows libkmod.
 */
static bool oracle_agrees(const struct run *run, const struct modprobe_eval *e, const char *libkmod)
{
	size_t n = strlen(e->files_options);

	if (sysroot_is_host(run->root))
		return streq(libkmod, e->options);
	return strneq(libkmod, e->files_options, n) && (!n || !libkmod[n] || libkmod[n] == ' ');
}

static void shadow_note(struct shadow *sh, const char *fmt, ...) _printf_(2, 3);
static void shadow_note(struct shadow *sh, const char *fmt, ...)
{
	va_list ap;

	fputs("; ", sh->f);
	va_start(ap, fmt);
	vfprintf(sh->f, fmt, ap);
	va_end(ap);
}

/* The walk's verdict, naming the file:line (or the command line) that wins. */
static int shadow_by_walk(struct shadow *sh, const struct modprobe_eval *e, const char *type,
			  const struct kmod_param_want *w)
{
	const struct modprobe_opt *o = modprobe_eval_last(e, w->key);

	if (!o || from_persist_file(o) || kmod_param_equal(type, strempty(o->value), w->value))
		return 0;
	if (streq(o->where, "the kernel command line"))
		shadow_note(sh,
			    "the kernel command line's %s overrides hostprep.conf (the kernel "
			    "keeps the last value)",
			    o->line);
	else
		shadow_note(sh, "%s: %s overrides hostprep.conf (the kernel keeps the last value)",
			    o->where, o->line);
	return 1;
}

/* libkmod's verdict, when the walk does not agree with it. */
static int shadow_by_libkmod(struct shadow *sh, const char *libkmod, const char *type,
			     const struct kmod_rule *rule, const struct kmod_param_want *w)
{
	_cleanup_(freep) char *value = NULL;
	int r = modprobe_options_last(libkmod, w->key, &value);

	if (r < 0)
		return r;
	if (value && kmod_param_equal(type, value, w->value))
		return 0;
	shadow_note(sh,
		    "libkmod passes %s %s%s%s, not %s=%s (from a source hostprep's reading of "
		    "modprobe.d does not see)",
		    rule->name, w->key, value ? "=" : " nothing", strempty(value), w->key,
		    w->value);
	return 1;
}

/* libkmod's options for the rule, or NULL when it cannot tell (the walk then decides). */
static int oracle(const struct run *run, const struct kmod_rule *rule,
		  const struct modprobe_eval *e, char **ret)
{
	_cleanup_(freep) char *libkmod = NULL;
	int r;

	*ret = NULL;
	r = kmod_backend_options(run->root, run->host.osrelease, rule->name, &libkmod);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		log_debug_errno(r, "No libkmod options for %s (%m): the walk of modprobe.d decides",
				rule->name);
		return 0;
	}
	if (oracle_agrees(run, e, libkmod))
		return 0;
	log_warning("libkmod passes \"%s\" to %s, hostprep's walk of modprobe.d reads \"%s\"%s",
		    libkmod, rule->name, sysroot_is_host(run->root) ? e->options : e->files_options,
		    sysroot_is_host(run->root) ? ": the verdict follows libkmod" : "");
	if (sysroot_is_host(run->root))
		*ret = TAKE_PTR(libkmod);
	return 0;
}

static int shadow_rule(const struct run *run, const struct kmod_run *k,
		       const struct kmod_rule *rule, struct shadow *sh, bool *ret_hit)
{
	const struct kmod_seen *s = seen_of(k, rule);
	_cleanup_(modprobe_eval_done) struct modprobe_eval e = {};
	_cleanup_(freep) char *libkmod = NULL;
	int r, hit = 0;

	r = modprobe_eval(run->root, &run->host.cmdline, rule->name, &e);
	if (r >= 0)
		r = oracle(run, rule, &e, &libkmod);
	for (size_t i = 0; r >= 0 && i < rule->n_params; i++) {
		const struct kmod_param_want *w = &rule->params[i];
		const char *type = s ? param_type(s, w->key) : NULL;

		r = libkmod ? shadow_by_libkmod(sh, libkmod, type, rule, w)
			    : shadow_by_walk(sh, &e, type, w);
		hit |= r > 0;
	}
	if (r < 0)
		return r;
	if (e.install_where) {
		shadow_note(sh,
			    "%s: %s replaces the load (the options reach %s only through that "
			    "command)",
			    e.install_where, e.install_line, rule->name);
		sh->warn = true;
	}
	sh->fail |= hit;
	*ret_hit = hit;
	return 0;
}

static int shadow_collect(const struct run *run, const struct kmod_run *k,
			  const struct kmod_rule **rules, size_t n_rules, struct shadow *sh)
{
	int r = 0;

	sh->hit = calloc(n_rules + 1, sizeof(bool));
	if (!sh->hit)
		return -ENOMEM;
	sh->f = open_memstream(&sh->text, &sh->size);
	if (!sh->f)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < n_rules; i++)
		r = shadow_rule(run, k, rules[i], sh, &sh->hit[i]);
	if (fclose(sh->f) != 0 || !sh->text)
		r = -ENOMEM;
	sh->f = NULL;
	return r;
}

static void shadow_done(struct shadow *sh)
{
	free(sh->text);
	free(sh->hit);
}

#define SHADOW_REMEDY                                                                      \
	"remove or change the overriding line (an options line in a modprobe.d file that " \
	"sorts after hostprep.conf, or NAME.param= on the kernel command line, wins); an " \
	"install line must pass $CMDLINE_OPTS to modprobe"

/*
 * The result: a fail when a persisted value is overridden, a warning (with the initramfs
 * remedy) when there is a note or an install line.
 */
static int persist_result(struct results *rs, enum verdict v, const char *expected,
			  const char *remedy, const struct notes *n, const struct shadow *sh,
			  const char *actual)
{
	bool note = n && n->text && *n->text;
	bool shadow = sh && sh->text && *sh->text;

	if (shadow && v == VERDICT_PASS)
		v = sh->fail ? VERDICT_FAIL : VERDICT_WARN;
	else if (note && v == VERDICT_PASS)
		v = VERDICT_WARN;
	if (shadow && !remedy)
		remedy = SHADOW_REMEDY;
	else if (note && (!remedy || v == VERDICT_WARN))
		remedy = notes_remedy(n);
	return results_addf(rs, v, "module.persist", PERSIST_FILE, expected, remedy, "%s%s%s",
			    actual, shadow ? sh->text : "", note ? n->text : "");
}

/* ---- apply ------------------------------------------------------------- */

static const struct pfile_desc persist_desc = {
	.shown = PERSIST_FILE,
	.rel = PERSIST_REL,
	.check = "module.persist",
	.revert_check = "module.revert",
	.changed_remedy = "hostprep owns " PERSIST_FILE ": move your own lines to another file in "
			  "/etc/modprobe.d, put back what hostprep wrote (or the original), then "
			  "hostprep apply",
};

struct persist_ctx {
	struct run *run;
	struct kmod_run *k;
	const struct kmod_rule **rules;
	size_t n_rules;
	char *want;
	size_t want_size;
	struct pfile_now now;
	char *expected;
};

static void persist_ctx_done(struct persist_ctx *c)
{
	free(c->rules);
	free(c->want);
	pfile_now_done(&c->now);
	free(c->expected);
}

static int ctx_init(struct persist_ctx *c, struct run *run, struct kmod_run *k)
{
	*c = (struct persist_ctx){ .run = run, .k = k };
	c->rules = persist_rules(run, &c->n_rules);
	if (!c->rules)
		return -ENOMEM;
	if (asprintf(&c->expected, "%zu options line%s, hostprep-owned", c->n_rules,
		     c->n_rules == 1 ? "" : "s") < 0)
		return -ENOMEM;
	return content_build(c->rules, c->n_rules, &c->want, &c->want_size);
}

static int notes_done(struct notes *n, struct shadow *sh, int r)
{
	free(n->text);
	shadow_done(sh);
	return r;
}

/* The shadowing and the initramfs notes of the file as it is now; before: as it was. */
static int judge(struct persist_ctx *c, const struct pfile_now *before, bool changed,
		 struct notes *n, struct shadow *sh)
{
	int r = shadow_collect(c->run, c->k, c->rules, c->n_rules, sh);

	if (r >= 0)
		r = notes_collect(c->run, c->k, c->rules, c->n_rules, before, changed, sh->hit, n);
	return r;
}

int kmod_persist_apply(struct kmod_run *k, struct run *run)
{
	_cleanup_(persist_ctx_done) struct persist_ctx c = {};
	struct notes n = {};
	struct shadow sh = {};
	bool same;
	int r;

	r = ctx_init(&c, run, k);
	if (r < 0)
		return r;
	pfile_remove_stale_temps(&persist_desc, run->root);
	r = pfile_now_read(&persist_desc, run->root, &c.now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results, VERDICT_FAIL, "module.persist", PERSIST_FILE,
				    c.expected, NULL, "not written: cannot read it: %s",
				    strerror(-r));
	same = pfile_now_is(&c.now, c.want, c.want_size);
	if (!same) {
		r = pfile_write(&persist_desc, run->root, &c.now, c.want, c.want_size, c.expected,
				&run->results);
		if (r <= 0)
			return r;
	}
	/* Judged after the write: the walk and libkmod read the file as the next load will. */
	r = judge(&c, &c.now, !same, &n, &sh);
	if (r >= 0)
		r = persist_result(&run->results, VERDICT_PASS, c.expected, NULL, &n, &sh,
				   same ? "already up to date" : "written, read back");
	return notes_done(&n, &sh, r);
}

/* ---- check ------------------------------------------------------------- */

int kmod_persist_verify(struct kmod_run *k, struct run *run)
{
	_cleanup_(persist_ctx_done) struct persist_ctx c = {};
	_cleanup_(freep) char *missing = NULL;
	size_t size = 0;
	struct notes n = {};
	struct shadow sh = {};
	FILE *f;
	int r;

	r = ctx_init(&c, run, k);
	if (r < 0)
		return r;
	r = pfile_now_read(&persist_desc, run->root, &c.now);
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
	r = judge(&c, &c.now, false, &n, &sh);
	if (r >= 0)
		r = persist_result(&run->results, VERDICT_PASS, c.expected, NULL, &n, &sh,
				   "has every options line");
	return notes_done(&n, &sh, r);
}

/* ---- revert ------------------------------------------------------------ */

int kmod_persist_revert(struct run *run)
{
	return pfile_revert(&persist_desc, run->root, &run->results);
}
