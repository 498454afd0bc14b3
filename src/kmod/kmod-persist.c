// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "kmod/kmod-judge.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "core/persist-file.h"
#include "core/record.h"
#include "run/run.h"

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

static const struct kmod_seen *seen_of(const struct kmod_run *k, const struct kmod_rule *rule)
{
	for (size_t i = 0; k && i < k->n_seen; i++)
		if (k->seen[i].rule == rule)
			return &k->seen[i];
	return NULL;
}

/* The next load gets the rule's values without a line here (another file, the command line). */
static const char *set_by(const struct kmod_run *k, const struct kmod_rule *rule)
{
	const struct kmod_seen *s = seen_of(k, rule);

	return s ? s->set_by : NULL;
}

/* The header, then the line of every persisted rule whose values no other file gives. */
static int content_build(const struct kmod_run *k, const struct kmod_rule **rules, size_t n,
			 char **ret, size_t *ret_size)
{
	FILE *f = open_memstream(ret, ret_size);

	if (!f)
		return -ENOMEM;
	fputs(PERSIST_HEAD, f);
	for (size_t i = 0; i < n; i++) {
		_cleanup_(freep) char *line = NULL;

		if (set_by(k, rules[i]))
			continue;
		line = options_line(rules[i]);
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

struct notes {
	FILE *f;
	char *text;
	size_t size;
	bool dracut;
};

/*
 * What the initramfs means for one module: in_place says where the option was before this
 * run (PERSIST_FILE, or the other file that gives it; NULL: nowhere), so that a wrong running
 * value came from a load before the root file system; changed says this run changed the file
 * (an initramfs listing the module holds the old copy of modprobe.d).
 */
static int note_module(const struct run *run, const struct kmod_run *k,
		       const struct kmod_rule *rule, const char *in_place, bool changed,
		       struct notes *n)
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
			"; %s was loaded with %s=%s although %s: it was loaded before the root "
			"file "
			"system (the initramfs copy%s%s) or by hand",
			rule->name, key, have, in_place, where ? ", listed in " : "",
			strempty(where));
	else if (where && (changed || key))
		fprintf(n->f,
			"; %s is in the initramfs (%s), which keeps the modprobe.d it was built "
			"with",
			rule->name, where);
	return 0;
}

/* Where the rule's option was before this run: "FILE has the option", or NULL (nowhere). */
static int option_in_place(const struct kmod_run *k, const struct kmod_rule *rule,
			   const struct pfile_now *before, const char *line, char **ret)
{
	const char *other = set_by(k, rule);

	*ret = NULL;
	if (other)
		return asprintf(ret, "the next load gets %s", other) < 0 ? -ENOMEM : 0;
	if (before->exists && has_line(before->data, before->size, line))
		return (*ret = strdup(PERSIST_FILE " has the option")) ? 0 : -ENOMEM;
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
		_cleanup_(freep) char *line = options_line(rules[i]), *in_place = NULL;

		if (shadowed[i])
			continue; /* the overriding line is the story, not the initramfs */
		r = line ? option_in_place(k, rules[i], before, line, &in_place) : -ENOMEM;
		if (r >= 0)
			r = note_module(run, k, rules[i], in_place, changed && !set_by(k, rules[i]),
					n);
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
 * A persisted value only counts if it is what the next load gets: libkmod passes every
 * options line of modprobe.d (libkmod's file order) and the command line's NAME.param=,
 * and the kernel keeps the last value of a parameter. A later file (mlnx.conf,
 * zz-site.conf) or the command line shadows hostprep.conf; an install line replaces the
 * load altogether. A rule whose values another file already gives (set_by) has no line
 * here: that file is named instead.
 */
struct shadow {
	FILE *f;
	char *text;
	size_t size;
	bool fail, warn;
	bool own;    /* a line of hostprep.conf itself wins with another value: apply rewrites it */
	int unknown; /* modprobe.d cannot be read whole: -errno */
	bool *hit;   /* per persisted rule: shadowed (then the initramfs is not the story) */
};

static void shadow_note(struct shadow *sh, const char *fmt, ...) _printf_(2, 3);
static void shadow_note(struct shadow *sh, const char *fmt, ...)
{
	va_list ap;

	fputs("; ", sh->f);
	va_start(ap, fmt);
	vfprintf(sh->f, fmt, ap);
	va_end(ap);
}

/* The walk's verdict for one wanted value, naming the file:line (or the command line). */
static int shadow_by_walk(struct shadow *sh, const struct modprobe_eval *e, const char *type,
			  const struct kmod_rule *rule, const struct kmod_param_want *w)
{
	struct persist_key k;

	persist_key_judge(e, false, w->key, type, w->value, &k);
	if (k.hold == PERSIST_GIVES)
		return 0;
	if (k.hold == PERSIST_DIFFERS && k.by_hostprep) {
		shadow_note(sh, "%s: %s wins with another value (hostprep apply rewrites it)",
			    k.by->where, k.by->line);
		sh->own = true;
		return 1;
	}
	sh->fail = true;
	if (k.hold == PERSIST_ABSENT)
		shadow_note(sh, "nothing in modprobe.d gives %s %s=%s at the next load", rule->name,
			    w->key, w->value);
	else if (streq(k.by->where, "the kernel command line"))
		shadow_note(sh,
			    "the kernel command line's %s overrides hostprep.conf (the kernel "
			    "keeps the last value)",
			    k.by->line);
	else
		shadow_note(sh, "%s: %s overrides hostprep.conf (the kernel keeps the last value)",
			    k.by->where, k.by->line);
	return 1;
}

/* libkmod's verdict, when the walk does not agree with it. */
static int shadow_by_libkmod(struct shadow *sh, const char *libkmod, const char *type,
			     const struct kmod_rule *rule, const struct kmod_param_want *w)
{
	_cleanup_(freep) char *value = NULL;
	int r = persist_libkmod_gives(libkmod, w->key, type, w->value, &value);

	if (r != 0)
		return r < 0 ? r : 0;
	sh->fail = true;
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
	bool host = sysroot_is_host(run->root);
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
	if (persist_oracle_agrees(host, e, libkmod))
		return 0;
	log_warning("libkmod passes \"%s\" to %s, hostprep's walk of modprobe.d reads \"%s\"%s",
		    libkmod, rule->name, host ? e->options : e->files_options,
		    host ? ": the verdict follows libkmod" : "");
	if (host)
		*ret = TAKE_PTR(libkmod);
	return 0;
}

static int shadow_keys(struct shadow *sh, const struct kmod_seen *s, const struct kmod_rule *rule,
		       const struct modprobe_eval *e, const char *libkmod)
{
	int r = 0, hit = 0;

	for (size_t i = 0; r >= 0 && i < rule->n_params; i++) {
		const struct kmod_param_want *w = &rule->params[i];
		const char *type = s ? param_type(s, w->key) : NULL;

		r = libkmod ? shadow_by_libkmod(sh, libkmod, type, rule, w)
			    : shadow_by_walk(sh, e, type, rule, w);
		hit |= r > 0;
	}
	return r < 0 ? r : hit;
}

static int shadow_rule(const struct run *run, const struct kmod_run *k,
		       const struct kmod_rule *rule, struct shadow *sh, bool *ret_hit)
{
	const struct kmod_seen *s = seen_of(k, rule);
	_cleanup_(modprobe_eval_done) struct modprobe_eval e = {};
	_cleanup_(freep) char *libkmod = NULL;
	int r;

	*ret_hit = false;
	r = modprobe_eval(run->root, &run->host.cmdline, rule->name, &e);
	if (r >= 0 && e.unreadable) {
		shadow_note(sh, "cannot read %s: %s: what libkmod passes to %s is unknown",
			    e.unreadable, strerror(-e.unreadable_err), rule->name);
		sh->unknown = sh->unknown ? sh->unknown : e.unreadable_err;
		*ret_hit = true;
		return 0;
	}
	if (r >= 0)
		r = oracle(run, rule, &e, &libkmod);
	if (r >= 0)
		r = shadow_keys(sh, s, rule, &e, libkmod);
	if (r < 0)
		return r;
	if (s && s->set_by && r == 0)
		shadow_note(sh, "%s gets %s", rule->name, s->set_by);
	if (e.install_where) {
		shadow_note(sh,
			    "%s: %s replaces the load (the options reach %s only through that "
			    "command)",
			    e.install_where, e.install_line, rule->name);
		sh->warn = true;
	}
	*ret_hit = r > 0;
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
#define APPLY_REMEDY "hostprep apply (with [Host] Apply=yes it writes " PERSIST_FILE ")"

/* The verdict the shadows make of a pass, and the remedy that goes with them. */
static enum verdict shadow_verdict(const struct run *run, const struct shadow *sh,
				   const char **remedy)
{
	if (sh->fail) {
		*remedy = SHADOW_REMEDY;
		return VERDICT_FAIL;
	}
	if (sh->own) {
		*remedy = APPLY_REMEDY;
		return run->cfg->apply ? VERDICT_FAIL : VERDICT_WARN;
	}
	if (sh->unknown) {
		*remedy = sh->unknown == -EACCES || sh->unknown == -EPERM
				  ? "run hostprep as root"
				  : "make the file readable, or remove it";
		return VERDICT_UNKNOWN;
	}
	*remedy = sh->warn ? SHADOW_REMEDY : NULL;
	return sh->warn ? VERDICT_WARN : VERDICT_PASS;
}

/*
 * The result: a fail when a persisted value is overridden, a warning (with the initramfs
 * remedy) when there is a note or an install line.
 */
static int persist_result(const struct run *run, struct results *rs, const char *expected,
			  const struct notes *n, const struct shadow *sh, const char *actual)
{
	bool note = n && n->text && *n->text;
	bool shadow = sh && sh->text && *sh->text;
	const char *remedy = NULL;
	enum verdict v = sh ? shadow_verdict(run, sh, &remedy) : VERDICT_PASS;

	if (note && v == VERDICT_PASS)
		v = VERDICT_WARN;
	if (note && v == VERDICT_WARN && !remedy)
		remedy = notes_remedy(n);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = v,
				    .check = "module.persist",
				    .object = PERSIST_FILE,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_APPLY,
			    },
			    "%s%s%s", actual, shadow ? sh->text : "", note ? n->text : "");
}

/* ---- apply ------------------------------------------------------------- */

static const struct pfile_desc persist_desc = {
	.top = SYSROOT_ETC,
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
	const struct kmod_rule **rules; /* every persisted rule, sorted */
	size_t n_rules;
	size_t n_lines; /* of them, those whose values need a line here (no other file gives them)
			 */
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
	int r;

	*c = (struct persist_ctx){ .run = run, .k = k };
	c->rules = persist_rules(run, &c->n_rules);
	if (!c->rules)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_rules; i++)
		c->n_lines += !set_by(k, c->rules[i]);
	if (c->n_lines)
		r = asprintf(&c->expected, "%zu options line%s, hostprep-owned", c->n_lines,
			     c->n_lines == 1 ? "" : "s");
	else
		r = asprintf(&c->expected, "no options line needed: the next load gets the values");
	if (r < 0)
		return -ENOMEM;
	return content_build(k, c->rules, c->n_rules, &c->want, &c->want_size);
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

static const char *read_remedy(int err)
{
	return err == -EACCES || err == -EPERM ? "run hostprep as root"
					       : "make it a regular file hostprep can read";
}

/*
 * Nothing to write: no rule needs a line and there is no file. A file hostprep wrote before
 * is rewritten all the same (it may hold a line another file now makes redundant, or one
 * that would win with an old value).
 */
static bool nothing_to_write(const struct persist_ctx *c)
{
	return c->n_lines == 0 && !c->now.exists;
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
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "module.persist",
					    .object = PERSIST_FILE,
					    .expected = c.expected,
					    .remedy = read_remedy(r),
					    .action = ACTION_INSPECT,
				    },
				    "not written: cannot read it: %s", strerror(-r));
	same = nothing_to_write(&c) || pfile_now_is(&c.now, c.want, c.want_size);
	if (!same) {
		r = pfile_write(&persist_desc, run->root, &c.now, c.want, c.want_size, c.expected,
				&run->results);
		if (r <= 0)
			return r;
	}
	/* Judged after the write: the walk and libkmod read the file as the next load will. */
	r = judge(&c, &c.now, !same, &n, &sh);
	if (r >= 0)
		r = persist_result(run, &run->results, c.expected, &n, &sh,
				   nothing_to_write(&c) ? "nothing written (no line needed)"
				   : same		? "already up to date"
							: "written, read back");
	return notes_done(&n, &sh, r);
}

/* ---- check ------------------------------------------------------------- */

/* "\"options erdma compat_mode=Y\", ...": the needed lines the file lacks ("" none). */
static int lines_missing(const struct persist_ctx *c, char **ret)
{
	size_t size = 0;
	FILE *f = open_memstream(ret, &size);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_rules; i++) {
		_cleanup_(freep) char *line = NULL;

		if (set_by(c->k, c->rules[i]))
			continue;
		line = options_line(c->rules[i]);
		if (line && !(c->now.exists && has_line(c->now.data, c->now.size, line)))
			fprintf(f, "%s\"%s\"", size ? ", " : "", line);
		fflush(f);
	}
	return fclose(f) != 0 || !*ret ? -ENOMEM : 0;
}

int kmod_persist_verify(struct kmod_run *k, struct run *run)
{
	_cleanup_(persist_ctx_done) struct persist_ctx c = {};
	_cleanup_(freep) char *missing = NULL;
	struct notes n = {};
	struct shadow sh = {};
	int r;

	r = ctx_init(&c, run, k);
	if (r < 0)
		return r;
	r = pfile_now_read(&persist_desc, run->root, &c.now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "module.persist",
					    .object = PERSIST_FILE,
					    .expected = c.expected,
					    .remedy = read_remedy(r),
					    .action = ACTION_INSPECT,
				    },
				    "cannot read it: %s", strerror(-r));
	if (lines_missing(&c, &missing) < 0)
		return -ENOMEM;
	if (*missing)
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = run->cfg->apply ? VERDICT_FAIL : VERDICT_WARN,
				.check = "module.persist",
				.object = PERSIST_FILE,
				.expected = c.expected,
				.remedy = APPLY_REMEDY,
				.action = ACTION_APPLY,
			},
			"%s; lacks %s", c.now.exists ? "present" : "absent", missing);
	r = judge(&c, &c.now, false, &n, &sh);
	if (r >= 0)
		r = persist_result(run, &run->results, c.expected, &n, &sh,
				   c.n_lines	  ? "has every options line"
				   : c.now.exists ? "present, no line needed"
						  : "absent, no line needed");
	return notes_done(&n, &sh, r);
}

/* ---- what the other files give, for the plan and the results ----------- */

int kmod_persist_scan(const struct run *run, struct kmod_seen *s)
{
	_cleanup_(modprobe_eval_done) struct modprobe_eval e = {};
	const char *types[KMOD_MAX_PARAMS + 1] = {};
	int r;

	if (s->rule->n_params == 0)
		return 0;
	r = modprobe_eval(run->root, &run->host.cmdline, s->rule->name, &e);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		log_debug_errno(r, "Failed to read modprobe.d for %s: %m", s->rule->name);
		return 0; /* module.persist says it (it reads modprobe.d again) */
	}
	for (size_t i = 0; i < s->rule->n_params && i < KMOD_MAX_PARAMS; i++)
		types[i] = param_type(s, s->rule->params[i].key);
	return persist_set_elsewhere(&e, s->rule, types, &s->set_by);
}

/* ---- revert ------------------------------------------------------------ */

int kmod_persist_revert(struct run *run)
{
	return pfile_revert(&persist_desc, run->root, &run->results);
}
