// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/fileio.h"
#include "kmod/kmod-check.h"
#include "kmod/kmod-net.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "run/run.h"

/* ---- users ------------------------------------------------------------- */

/* Who uses the module now (users_describe after the one /proc scan of the run); "" if nobody. */
static int module_users(struct kmod_run *k, const struct sysroot *root, const struct kmod_seen *s,
			char **ret)
{
	int r = kmod_host_scan_users(root, &k->host);

	if (r == -ENOMEM)
		return r;
	*ret = kmod_users_describe(&k->host, s);
	return *ret ? 0 : -ENOMEM;
}

int kmod_reload_refusal(struct kmod_run *k, const struct sysroot *root, const struct kmod_seen *s,
			char **ret)
{
	_cleanup_(freep) char *users = NULL;
	int r = module_users(k, root, s, &users);

	if (r < 0)
		return r;
	if (*users)
		return asprintf(ret, "in use by %s", users) < 0 ? -ENOMEM : 0;
	return kmod_net_guard(root, s->rule->name, ret);
}

/* ---- apply ------------------------------------------------------------- */

static const char *errno_label(int err)
{
	switch (-err) {
	case ENOENT:
		return "ENOENT: no such module file";
	case EEXIST:
		return "EEXIST: already loaded";
	case EBUSY:
		return "EBUSY: in use";
	case EPERM:
		return "EPERM: deny-listed, or loading not permitted (CAP_SYS_MODULE, lockdown, "
		       "module signature)";
	default:
		return strerror(-err);
	}
}

static int read_state(const struct run *run, const char *name, char **ret)
{
	return sysroot_read_attr(run->root, SYSROOT_SYS, ret, "module/%s/initstate", name);
}

static int apply_load(struct kmod_run *k, struct run *run, const struct kmod_action *a)
{
	const char *name = k->seen[a->seen].rule->name;
	_cleanup_(freep) char *acts = NULL, *state = NULL;
	int r;

	if (!k->backend)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "module.load",
					    .object = name,
					    .expected = "loaded",
					    .action = ACTION_INSPECT,
				    },
				    "no module index: %s", kmod_backend_strerror(k->backend_err));
	if (k->backend->ops != &kmod_backend_real)
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_SKIP,
				.check = "module.load",
				.object = name,
				.expected = "loaded",
				.action = ACTION_NONE,
			},
			"not loaded under --root (not the running kernel); would run: %s",
			a->would);
	r = k->backend->ops->probe(k->backend, name, a->options, &acts);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "module.load",
				.object = name,
				.expected = "loaded",
				.remedy = "see the kernel log (journalctl -k) for the reason",
				.action = ACTION_INSPECT,
			},
			"failed (%s)", errno_label(r));
	r = read_state(run, name, &state);
	if (r == -ENOMEM)
		return r;
	return results_addf(
		&run->results,
		&(const struct result_spec){
			.verdict = r >= 0 && streq(state, "live") ? VERDICT_PASS : VERDICT_FAIL,
			.check = "module.load",
			.object = name,
			.expected = "loaded",
			.action = ACTION_INSPECT,
		},
		"ran %s; now %s", *acts ? acts : a->would,
		r >= 0 ? state : "not in the module list");
}

/*
 * The other way to the wanted values, a reboot: never "put the option in modprobe.d" when
 * the next load already gets it (another file, or Persist=yes writing hostprep.conf).
 */
static int boot_way(const struct run *run, const struct kmod_seen *s, const char *options,
		    char **ret)
{
	const char *n = s->rule->name;

	if (s->set_by)
		return asprintf(ret, "or reboot: the next load gets %s", s->set_by);
	if (s->rule->persist.on && run->cfg->apply)
		return asprintf(ret,
				"or reboot: Persist=yes puts \"options %s %s\" in " PERSIST_FILE, n,
				options);
	if (s->rule->persist.on)
		return asprintf(
			ret,
			"or set [Host] Apply=yes (Persist=yes then writes \"options %s %s\" "
			"to " PERSIST_FILE ") and reboot",
			n, options);
	return asprintf(ret, "or put \"options %s %s\" in /etc/modprobe.d (Persist=yes) and reboot",
			n, options);
}

static int reload_refused(struct run *run, const struct kmod_seen *s, const char *users,
			  const char *options)
{
	_cleanup_(freep) char *remedy = NULL, *boot = NULL;

	if (boot_way(run, s, options, &boot) < 0 ||
	    asprintf(&remedy, "stop what uses %s (%s), then hostprep apply; %s", s->rule->name,
		     users, boot) < 0)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.reload",
				    .object = s->rule->name,
				    .expected = "reloaded with the wanted parameters",
				    .remedy = remedy,
				    .action = ACTION_INSPECT,
			    },
			    "refused: in use by %s; nothing unloaded", users);
}

static int reload_cuts_network(struct run *run, const struct kmod_seen *s, const char *why,
			       const char *options)
{
	_cleanup_(freep) char *remedy = NULL, *boot = NULL;

	if (boot_way(run, s, options, &boot) < 0 ||
	    asprintf(&remedy,
		     "reload %s from a console that does not depend on that link (BMC, serial), "
		     "%s",
		     s->rule->name, boot) < 0)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.reload",
				    .object = s->rule->name,
				    .expected = "reloaded with the wanted parameters",
				    .remedy = remedy,
				    .action = ACTION_INSPECT,
			    },
			    "refused: %s; nothing unloaded", why);
}

static int reload_real(struct kmod_run *k, struct run *run, const struct kmod_action *a)
{
	const char *name = k->seen[a->seen].rule->name;
	_cleanup_(freep) char *rm = NULL, *acts = NULL;
	int r;

	r = k->backend->ops->remove(k->backend, name, &rm);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "module.reload",
					    .object = name,
					    .expected = "reloaded with the wanted parameters",
					    .remedy = "see the kernel log (journalctl -k)",
					    .action = ACTION_INSPECT,
				    },
				    "unload failed (%s)", errno_label(r));
	r = k->backend->ops->probe(k->backend, name, a->options, &acts);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "module.reload",
					    .object = name,
					    .expected = "reloaded with the wanted parameters",
					    .remedy = "modprobe it by hand and read journalctl -k",
					    .action = ACTION_INSPECT,
				    },
				    "unloaded, but loading again failed (%s): %s is not loaded now",
				    errno_label(r), name);
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = "module.reload",
				    .object = name,
				    .expected = "reloaded with the wanted parameters",
			    },
			    "reloaded with %s (%s); module.param reads it back", a->options,
			    a->would);
}

static int apply_reload(struct kmod_run *k, struct run *run, const struct kmod_action *a)
{
	const struct kmod_seen *s = &k->seen[a->seen];
	_cleanup_(freep) char *users = NULL, *net = NULL;
	int r;

	r = module_users(k, run->root, s, &users);
	if (r < 0)
		return r;
	if (*users)
		return reload_refused(run, s, users, a->options);
	/* Never cut the node off: not under the link an admin or the fleet reaches it by. */
	r = kmod_net_guard(run->root, s->rule->name, &net);
	if (r < 0)
		return r;
	if (*net)
		return reload_cuts_network(run, s, net, a->options);
	if (!k->backend || k->backend->ops != &kmod_backend_real)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_SKIP,
					    .check = "module.reload",
					    .object = s->rule->name,
					    .expected = "reloaded with the wanted parameters",
					    .action = ACTION_NONE,
				    },
				    "unused, but not reloaded under --root (not the running "
				    "kernel); would run: %s",
				    a->would);
	return reload_real(k, run, a);
}

int kmod_run_apply(struct kmod_run *k, struct run *run)
{
	bool persist = false;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < k->n_actions; i++) {
		if (k->actions[i].kind == KMOD_ACT_LOAD)
			r = apply_load(k, run, &k->actions[i]);
		else if (k->actions[i].kind == KMOD_ACT_RELOAD)
			r = apply_reload(k, run, &k->actions[i]);
		else
			persist = true;
	}
	/* One file for every persisted module, written after the kernel work it follows. */
	if (r >= 0 && persist) {
		r = kmod_persist_apply(k, run);
		k->persist_applied = true;
	}
	return r;
}

bool kmod_run_touched_kernel(const struct kmod_run *k)
{
	for (size_t i = 0; i < k->n_actions; i++)
		if (k->actions[i].kind == KMOD_ACT_LOAD || k->actions[i].kind == KMOD_ACT_RELOAD)
			return true;
	return false;
}

/* ---- verify ------------------------------------------------------------ */

static const char *expected_state(const struct kmod_rule *r)
{
	return r->require.on ? "live or builtin" : "any (Require=no)";
}

/* Load=yes: what apply does about it in this configuration (never "apply" where it would not). */
static int load_remedy(const struct run *run, const char *n, char **ret)
{
	if (!run->cfg->apply)
		return asprintf(ret,
				"set [Host] Apply=yes, then hostprep apply (Load=yes loads it); "
				"or modprobe %s",
				n);
	if (run->mode == RUN_APPLY)
		return asprintf(ret,
				"this apply did not load it (see module.load): modprobe %s and "
				"read journalctl -k",
				n);
	return asprintf(ret, "hostprep apply (Load=yes loads it)");
}

static int state_remedy(const struct run *run, const struct kmod_seen *s, char **ret)
{
	const char *n = s->rule->name;

	switch (s->state) {
	case KS_NOT_LOADED:
		if (s->deny_by)
			return asprintf(
				ret,
				"remove the deny-list entry (%s), or set Require=no in [Module:%s]",
				s->deny_by, n);
		if (s->rule->load.on)
			return load_remedy(run, n, ret);
		return asprintf(
			ret, "set Load=yes in [Module:%s]%s, then hostprep apply; or modprobe %s",
			n, run->cfg->apply ? "" : " and [Host] Apply=yes", n);
	case KS_NOT_INSTALLED:
		return asprintf(ret, "install the driver package that provides %s for this kernel",
				n);
	case KS_COMING:
	case KS_GOING:
		return asprintf(ret, "wait for the module to settle, then hostprep check");
	case KS_UNKNOWN:
		if (s->err == -EACCES || s->err == -EPERM)
			return asprintf(ret, "run hostprep as root");
		return asprintf(ret,
				"check that /proc is mounted: /proc/modules cannot be read (%s)",
				strerror(-s->err));
	default:
		*ret = NULL;
		return 0;
	}
}

static int verify_state(struct run *run, const struct kmod_seen *s)
{
	_cleanup_(freep) char *actual = kmod_state_describe(s, run->host.osrelease);
	_cleanup_(freep) char *remedy = NULL;
	enum verdict v = kmod_state_verdict(s);

	if (!actual || state_remedy(run, s, &remedy) < 0)
		return -ENOMEM;
	return results_add(
		&run->results,
		&(const struct result_spec){
			.verdict = v,
			.check = "module.state",
			.object = s->rule->name,
			.expected = expected_state(s->rule),
			.actual = actual,
			.remedy = v == VERDICT_FAIL || v == VERDICT_UNKNOWN ? remedy : NULL,
			.action = ACTION_APPLY,
		});
}

/* Path of the file below lib/modules/KVER (the part that says updates/, extra/, kernel/). */
static const char *file_rel(const struct kmod_seen *s, const char *osrelease)
{
	const char *p = s->file.path, *at;

	if (!p || !osrelease)
		return p;
	at = strstr(p, osrelease);
	return at && at[strlen(osrelease)] == '/' ? at + strlen(osrelease) + 1 : p;
}

static bool running_is_file(const struct kmod_seen *s)
{
	return s->srcversion && s->file.srcversion && streq(s->srcversion, s->file.srcversion);
}

/* The origin of what runs (or would load), and the evidence for it. */
static enum kmod_origin origin_decide(const struct kmod_seen *s, const char *rel, bool *out_of_tree)
{
	bool live = s->state == KS_LIVE || s->state == KS_COMING || s->state == KS_GOING;
	bool file_ofed = kmod_file_is_ofed(s, rel);

	*out_of_tree = false;
	if (s->state == KS_BUILTIN)
		return KMOD_ORIGIN_INBOX;
	if (live && !running_is_file(s)) {
		/* Not the file on disk: judge the running module by what the kernel shows. */
		if (s->ofed_dep)
			return KMOD_ORIGIN_OFED;
		*out_of_tree = strchr(s->taint, 'O') != NULL;
		return *out_of_tree ? KMOD_ORIGIN_ANY : KMOD_ORIGIN_INBOX;
	}
	if (file_ofed || (live && s->ofed_dep))
		return KMOD_ORIGIN_OFED;
	*out_of_tree = s->file_err == 0 && kmod_path_kind(rel) != KMOD_PATH_INBOX;
	return s->file_err == 0 && !*out_of_tree ? KMOD_ORIGIN_INBOX : KMOD_ORIGIN_ANY;
}

static int origin_evidence(const struct kmod_seen *s, const char *rel, char **ret)
{
	bool live = s->state == KS_LIVE || s->state == KS_COMING || s->state == KS_GOING;
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	if (!f)
		return -ENOMEM;
	if (s->state == KS_BUILTIN)
		fprintf(f, "builtin");
	else if (s->file_err == 0)
		fprintf(f, "file %s, depends %s", rel, *s->file.depends ? s->file.depends : "none");
	else
		fprintf(f, "no file");
	if (live)
		fprintf(f, "; running: %s%s, mlx_compat user %s, taint %s",
			running_is_file(s) ? "this file" : "another build (srcversion ",
			running_is_file(s) ? "" : strempty(s->srcversion),
			s->ofed_dep ? "yes" : "no", *s->taint ? s->taint : "none");
	if (live && !running_is_file(s))
		fputc(')', f);
	/* what runs and what is on disk, never one for the other */
	if (s->version)
		fprintf(f, "; running version %s", s->version);
	if (s->file_err == 0 && s->file.version)
		fprintf(f, "; file version %s", s->file.version);
	fclose(f);
	if (!out)
		return -ENOMEM;
	*ret = out;
	return 0;
}

static int verify_origin(struct kmod_run *k, struct run *run, const struct kmod_seen *s)
{
	const char *rel = file_rel(s, run->host.osrelease);
	_cleanup_(freep) char *ev = NULL, *remedy = NULL;
	enum kmod_origin want = s->rule->origin, got;
	bool oot;
	int r;

	if (want == KMOD_ORIGIN_ANY || (!kmod_state_present(s->state) && s->file_err < 0))
		return 0;
	got = origin_decide(s, strempty(rel), &oot);
	r = origin_evidence(s, strempty(rel), &ev);
	if (r < 0)
		return r;
	if (got == want)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "module.origin",
					    .object = s->rule->name,
					    .expected = kmod_origin_to_string(want),
				    },
				    "%s (%s)", kmod_origin_to_string(got), ev);
	if (kmod_stack_has(k, s))
		remedy = strdup(kmod_stack_see());
	else if (kmod_origin_remedy(s, strempty(rel), want, &remedy) < 0)
		remedy = NULL;
	if (!remedy)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.origin",
				    .object = s->rule->name,
				    .expected = kmod_origin_to_string(want),
				    .remedy = remedy,
				    .action = ACTION_DRIVER,
			    },
			    "%s (%s)",
			    got == KMOD_ORIGIN_ANY ? (oot ? "out-of-tree, not OFED" : "unknown")
						   : kmod_origin_to_string(got),
			    ev);
}

/* Judged on what runs; a module not loaded by the file that would load. */
static int verify_version(struct kmod_run *k, struct run *run, const struct kmod_seen *s)
{
	bool live = kmod_state_present(s->state);
	const char *have = live ? s->version : s->file.version;
	const char *what = live ? "running" : "file, not loaded";
	_cleanup_(freep) char *expected = NULL;

	if (!s->rule->min_version || s->state == KS_NOT_INSTALLED)
		return 0;
	if (asprintf(&expected, ">= %s", s->rule->min_version) < 0)
		return -ENOMEM;
	if (!have)
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "module.version",
				.object = s->rule->name,
				.expected = expected,
				.remedy = kmod_version_remedy(s, kmod_stack_has(k, s), live),
				.action = ACTION_DRIVER,
			},
			"no version field (%s%s%s%s)", what,
			live && s->file.version ? "; the file on disk has " : "",
			live && s->file.version ? s->file.version : "",
			!live || s->file.version ? "" : ", nor has the file on disk");
	if (ofed_version_cmp(have, s->rule->min_version) >= 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "module.version",
					    .object = s->rule->name,
					    .expected = expected,
				    },
				    "%s (%s)", have, what);
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.version",
				    .object = s->rule->name,
				    .expected = expected,
				    .remedy = kmod_version_remedy(s, kmod_stack_has(k, s), live),
				    .action = ACTION_DRIVER,
			    },
			    "%s (%s%s%s)", have, what,
			    live && s->file.version ? "; the file on disk has " : "",
			    live && s->file.version ? s->file.version : "");
}

static int stale_remedy(struct kmod_run *k, const struct kmod_seen *s, char **ret)
{
	_cleanup_(freep) char *users = kmod_users_describe(&k->host, s);

	if (!users)
		return -ENOMEM;
	if (*users)
		return asprintf(ret,
				"reboot (%s is in use: %s); if it comes back stale, update the "
				"initramfs (update-initramfs -u): it still carries the old copy",
				s->rule->name, users);
	return asprintf(ret,
			"reload it: modprobe -r %s && modprobe %s (or reboot); update the "
			"initramfs (update-initramfs -u) if boot loads the old copy",
			s->rule->name, s->rule->name);
}

/* A file there that cannot be read (cut, a FIFO): no evidence either way, and no reload. */
static int stale_unreadable(struct run *run, const struct kmod_seen *s)
{
	_cleanup_(freep) char *remedy = NULL;

	if (asprintf(&remedy,
		     "look at the file modprobe would load (modinfo -n %s: a cut or half-installed "
		     "build); a reload would fail to load it",
		     s->rule->name) < 0)
		return -ENOMEM;
	return results_addf(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_UNKNOWN,
			.check = "module.stale",
			.object = s->rule->name,
			.expected = "the running module is the file on disk",
			.remedy = remedy,
			.action = ACTION_INSPECT,
		},
		"running srcversion %s; the file on disk cannot be read as a module: %s",
		s->srcversion,
		s->file_err == -EBADFD ? "not a regular file" : strerror(-s->file_err));
}

static int verify_stale(struct kmod_run *k, struct run *run, const struct kmod_seen *s)
{
	const char *rel = file_rel(s, run->host.osrelease);
	_cleanup_(freep) char *remedy = NULL;

	if (s->state != KS_LIVE || !s->srcversion)
		return 0;
	if (s->file_err == 0 && !s->file.srcversion)
		return 0; /* a file without srcversion cannot be compared */
	if (s->file_err == 0 && running_is_file(s))
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "module.stale",
					    .object = s->rule->name,
					    .expected = "the running module is the file on disk",
				    },
				    "same srcversion %s as %s", s->srcversion, rel);
	/* No index (libkmod missing, unreadable modules.dep): not evidence of a stale module. */
	if (!k->backend)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "module.stale",
					    .object = s->rule->name,
					    .expected = "the running module is the file on disk",
					    .action = ACTION_INSPECT,
				    },
				    "running srcversion %s; no module index to compare with: %s",
				    s->srcversion, kmod_backend_strerror(k->backend_err));
	if (kmod_stack_has(k, s))
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "module.stale",
					    .object = s->rule->name,
					    .expected = "the running module is the file on disk",
					    .remedy = kmod_stack_see(),
					    .action = ACTION_REBOOT,
				    },
				    "running: the kernel's own build (srcversion %s); on disk: "
				    "OFED's (srcversion %s, %s)",
				    s->srcversion, s->file.srcversion, rel);
	if (s->file_err < 0 && s->file_err != -ENOENT)
		return stale_unreadable(run, s);
	if (stale_remedy(k, s, &remedy) < 0)
		return -ENOMEM;
	if (s->file_err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "module.stale",
					    .object = s->rule->name,
					    .expected = "the running module is the file on disk",
					    .remedy = remedy,
					    .action = ACTION_REBOOT,
				    },
				    "running srcversion %s, but no file for it on disk now",
				    s->srcversion);
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.stale",
				    .object = s->rule->name,
				    .expected = "the running module is the file on disk",
				    .remedy = remedy,
				    .action = ACTION_REBOOT,
			    },
			    "the running module is not the file on disk: srcversion %s running, %s "
			    "on disk (%s)",
			    s->srcversion, s->file.srcversion, rel);
}

static int param_missing_remedy(const struct kmod_seen *s, const char *key, char **ret)
{
	const char *n = s->rule->name;

	if (streq(n, "erdma") && streq(key, "compat_mode"))
		return asprintf(ret,
				"install Alibaba Cloud's erdma driver (the out-of-tree package "
				"with compat_mode); the mainline erdma has no compat mode");
	return asprintf(ret,
			"install the %s driver that provides the %s parameter (this build "
			"ignores it)",
			n, key);
}

static int param_missing(struct run *run, const struct kmod_seen *s, const char *object,
			 const char *expected)
{
	const char *n = s->rule->name, *key = object + strlen(n) + 1;
	_cleanup_(freep) char *remedy = NULL;

	if (param_missing_remedy(s, key, &remedy) < 0)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.param",
				    .object = object,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_REBOOT,
			    },
			    "%s has no parameter %s (modinfo of %s declares %s)", n, key,
			    s->file_err == 0 ? "the file" : "the module",
			    s->file_err == 0 && s->file.n_parms ? "others" : "none");
}

static int param_wrong_remedy(struct kmod_run *k, const struct run *run, const struct kmod_seen *s,
			      const struct kmod_param_want *w, char **ret)
{
	_cleanup_(freep) char *users = NULL, *net = NULL, *boot = NULL, *opts = NULL;
	const char *n = s->rule->name;
	int r;

	if (s->rule->reload == KMOD_RELOAD_NEVER)
		return asprintf(ret,
				"set Reload=unused in [Module:%s] (hostprep apply reloads it when "
				"unused), or by hand: modprobe -r %s && modprobe %s %s=%s",
				n, n, n, w->key, w->value);
	r = module_users(k, run->root, s, &users);
	if (r < 0)
		return r;
	if (*users)
		return asprintf(ret, "stop what uses %s (%s), then hostprep apply", n, users);
	r = kmod_net_guard(run->root, n, &net);
	if (r >= 0 && *net) {
		opts = kmod_rule_params_string(s->rule);
		r = opts ? boot_way(run, s, opts, &boot) : -ENOMEM;
	}
	if (r < 0)
		return r;
	if (*net)
		return asprintf(ret,
				"hostprep will not reload it (%s): reload it from a console that "
				"does not depend on that link, %s",
				net, boot);
	if (!run->cfg->apply)
		return asprintf(ret,
				"set [Host] Apply=yes, then hostprep apply (Reload=unused "
				"reloads %s with %s=%s)",
				n, w->key, w->value);
	if (run->mode == RUN_APPLY)
		return asprintf(ret, "this apply did not reload it: see module.reload");
	return asprintf(ret, "hostprep apply (Reload=unused reloads %s with %s=%s)", n, w->key,
			w->value);
}

static int param_unreadable(struct run *run, const struct kmod_seen *s, size_t i,
			    const char *object, const char *expected)
{
	const struct kmod_param_want *w = &s->rule->params[i];
	int err = s->param_err[i];

	bool other_build =
		s->srcversion && s->file.srcversion && !streq(s->srcversion, s->file.srcversion);

	return results_addf(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_UNKNOWN,
			.check = "module.param",
			.object = object,
			.expected = expected,
			.remedy = err == -EACCES || err == -EPERM ? "run hostprep as root"
				  : err == -ENOENT && other_build
					  ? "the running module is another build than the file on "
					    "disk, which has the parameter: reload it (modprobe "
					    "-r, modprobe) or reboot"
					  : "none from hostprep: the module does not show the "
					    "parameter in sysfs (a parameter with permission 0); "
					    "check it with the driver's own tools",
			.action = ACTION_INSPECT,
		},
		"cannot read %s/parameters/%s: %s", s->rule->name, w->key, strerror(-err));
}

static int verify_param(struct kmod_run *k, struct run *run, const struct kmod_seen *s, size_t i)
{
	const struct kmod_param_want *w = &s->rule->params[i];
	_cleanup_(freep) char *object = NULL, *remedy = NULL;

	if (asprintf(&object, "%s.%s", s->rule->name, w->key) < 0)
		return -ENOMEM;
	switch (kmod_param_judge(s, i)) {
	case KP_NOT_LOADED:
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_SKIP,
							  .check = "module.param",
							  .object = object,
							  .expected = w->value,
							  .actual = "module not loaded",
							  .action = ACTION_NONE,
						  });
	case KP_MISSING:
		return param_missing(run, s, object, w->value);
	case KP_UNREADABLE:
		return param_unreadable(run, s, i, object, w->value);
	case KP_OK:
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_PASS,
							  .check = "module.param",
							  .object = object,
							  .expected = w->value,
							  .actual = s->param_have[i],
						  });
	case KP_WRONG:
		break;
	}
	if (param_wrong_remedy(k, run, s, w, &remedy) < 0)
		return -ENOMEM;
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = VERDICT_FAIL,
						  .check = "module.param",
						  .object = object,
						  .expected = w->value,
						  .actual = s->param_have[i],
						  .remedy = remedy,
						  .action = ACTION_REBOOT,
					  });
}

static int verify_devices(struct kmod_run *k, struct run *run, const struct kmod_seen *s)
{
	struct kmod_judgement j;
	int r;

	if (!kmod_state_present(s->state))
		return results_add(&run->results,
				   &(const struct result_spec){
					   .verdict = VERDICT_SKIP,
					   .check = "module.devices",
					   .object = s->rule->name,
					   .expected = kmod_devices_expected(s->rule),
					   .actual = "module not loaded",
					   .action = ACTION_NONE,
				   });
	r = kmod_devices_judge(&k->host, s->rule, &j);
	if (r >= 0)
		r = results_add(&run->results, &(const struct result_spec){
						       .verdict = j.verdict,
						       .check = "module.devices",
						       .object = s->rule->name,
						       .expected = j.expected,
						       .actual = j.actual,
						       .remedy = j.remedy,
						       .action = ACTION_DRIVER,
					       });
	kmod_judgement_done(&j);
	return r;
}

static int verify_module(struct kmod_run *k, struct run *run, const struct kmod_seen *s)
{
	int r = verify_state(run, s);

	if (r < 0 || (!kmod_state_present(s->state) && !s->rule->require.on))
		return r;
	r = verify_origin(k, run, s);
	if (r >= 0)
		r = verify_version(k, run, s);
	if (r >= 0)
		r = verify_stale(k, run, s);
	for (size_t i = 0; r >= 0 && i < s->rule->n_params; i++)
		r = verify_param(k, run, s, i);
	if (r >= 0 && (s->rule->devices.on || s->rule->rdmacm.on))
		r = verify_devices(k, run, s);
	return r;
}

/* ---- GPUDirect --------------------------------------------------------- */

/* Live by /proc/modules; without it, by sysfs. */
static bool module_live(const struct sysroot *root, const struct kmod_host *h, const char *name)
{
	enum kmod_live_state ls;
	struct proc_module pm;

	if (!h->proc_modules)
		return kmod_sys_state(root, name, &ls) >= 0 && ls == KMOD_STATE_LIVE;
	for (const char *p = h->proc_modules; p && *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_(freep) char *line = strndup(p, len);
		bool hit;

		p += len + (p[len] == '\n');
		if (!line || proc_module_parse(line, &pm) < 0)
			continue;
		hit = streq(pm.name, name) && pm.state == KMOD_STATE_LIVE;
		proc_module_done(&pm);
		if (hit)
			return true;
	}
	return false;
}

static int gpudirect_scan(const struct run *run, const struct kmod_host *h,
			  struct gpudirect_facts *g)
{
	_cleanup_(freep) char *text = NULL;

	*g = (struct gpudirect_facts){ .peermem_live = module_live(run->root, h, "nvidia_peermem"),
				       .kernel_ok = kernel_at_least(run->host.osrelease, 5, 12),
				       .nvidia = -1 };
	if (sysroot_read_attr(run->root, SYSROOT_SYS, &g->nv_mem,
			      "kernel/mm/memory_peers/nv_mem/version") == -ENOMEM)
		return -ENOMEM;
	if (sysroot_read_file(run->root, SYSROOT_PROC, 4096, &text, NULL,
			      "driver/nvidia/version") >= 0)
		g->nvidia = strstr(text, "Open Kernel Module") != NULL;
	return 0;
}

static void gpudirect_facts_done(struct gpudirect_facts *g)
{
	free(g->nv_mem);
}

static int verify_gpudirect(struct kmod_run *k, struct run *run)
{
	enum gpudirect_expect e = kmod_config_get(run->cfg)->gpudirect;
	_cleanup_(gpudirect_facts_done) struct gpudirect_facts g = {};
	bool peermem, dmabuf, ok;
	_cleanup_(freep) char *actual = NULL, *remedy = NULL;
	int r;

	if (e == GPUDIRECT_ANY)
		return 0;
	r = gpudirect_scan(run, &k->host, &g);
	if (r < 0)
		return r;
	peermem = g.peermem_live && g.nv_mem;
	dmabuf = g.kernel_ok && g.nvidia == 1;
	ok = e == GPUDIRECT_PEERMEM ? peermem : e == GPUDIRECT_DMABUF ? dmabuf : peermem || dmabuf;
	r = asprintf(
		&actual, "peermem: nvidia_peermem %s, nv_mem %s; dmabuf: kernel %s (%s 5.12), %s",
		g.peermem_live ? "live" : "not loaded", g.nv_mem ? "registered" : "not registered",
		strempty(run->host.osrelease), g.kernel_ok ? ">=" : "<",
		g.nvidia == 1	? "NVIDIA open kernel module"
		: g.nvidia == 0 ? "NVIDIA proprietary kernel module"
				: "no NVIDIA driver");
	if (r < 0)
		return -ENOMEM;
	if (ok)
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_PASS,
							  .check = "gpudirect",
							  .object = "host",
							  .expected = gpudirect_expect_to_string(e),
							  .actual = actual,
						  });
	r = kmod_gpudirect_remedy(&g, e, &remedy);
	if (r < 0)
		return r;
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = VERDICT_FAIL,
						  .check = "gpudirect",
						  .object = "host",
						  .expected = gpudirect_expect_to_string(e),
						  .actual = actual,
						  .remedy = remedy,
						  .action = ACTION_DRIVER,
					  });
}

int kmod_run_verify(struct kmod_run *k, struct run *run)
{
	int r = kmod_stack_verify(k, run);

	for (size_t i = 0; r >= 0 && i < k->n_seen; i++)
		r = verify_module(k, run, &k->seen[i]);
	if (r >= 0 && !k->persist_applied && kmod_persist_wanted(run))
		r = kmod_persist_verify(k, run);
	if (r >= 0)
		r = verify_gpudirect(k, run);
	return r;
}
