// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostprep: make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work,
 * and say exactly what is wrong when it is not.
 */
#include <getopt.h>
#include <sys/stat.h>
#include <time.h>

#include "acs/acs-grub.h"
#include "acs/acs-verify.h"
#include "core/config.h"
#include "core/fileio.h"
#include "core/log.h"
#include "rdma/rdma-check.h"
#include "core/record.h"
#include "core/run.h"
#include "report/sink-config.h"
#include "report/sinks.h"
#include "core/sysroot.h"
#include "topo/topo.h"

struct options {
	const char *root;
	char **configs; /* NULL-terminated, --config may repeat */
	size_t n_configs;
	bool json;
	bool no_color;
	bool dry_run;
	bool validate;
	bool install;	/* acs cmdline --install */
	bool uninstall; /* acs cmdline --uninstall */
	bool publish;	/* check/apply --config: publish the report anyway */
	bool oneline;	/* status --oneline */
	bool verbose;	/* -v: debug messages, and the table's lines not cut */
	char **args;	/* positional arguments after the command */
	int n_args;
};

struct command {
	const char *name;
	int (*fn)(const struct options *o);
	const char *help;
};

static void options_done(struct options *o)
{
	free(o->configs);
}

static bool use_color(const struct options *o)
{
	return !o->no_color && !o->json && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

/* SOURCE_DATE_EPOCH pins the report time (reproducible golden tests). */
static uint64_t report_time(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;

	if (e && *e) {
		unsigned long long v = strtoull(e, &end, 10);

		if (!*end)
			return v;
	}
	return (uint64_t)time(NULL);
}

/* A --root that is not a directory is a usage error (exit 2), never an empty host. */
static int open_root(const struct options *o, struct sysroot *root)
{
	int r = sysroot_init(root, o->root);

	if (r == -ENOMEM)
		return log_oom();
	if (r < 0) {
		log_error_errno(r, "Invalid --root '%s': %m", o->root);
		return -EINVAL;
	}
	return 0;
}

static int load_config(const struct options *o, const struct sysroot *root, unsigned flags,
		       struct config *c)
{
	int r = config_load(c, root, o->n_configs ? o->configs : NULL, flags);

	if (r == -EINVAL || r == -EPERM)
		return -EINVAL; /* already logged as file:line: reason */
	if (r < 0)
		return log_error_errno(r, "Failed to load the configuration: %m");
	return 0;
}

static const char *mode_command(enum run_mode m)
{
	static const char *const names[] = {
		[RUN_CHECK] = "check",
		[RUN_DRY_RUN] = "apply --dry-run",
		[RUN_APPLY] = "apply",
		[RUN_REVERT] = "revert",
	};
	return names[m];
}

static int build_report(struct run *run, struct report *rep)
{
	*rep = (struct report){
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup(HOSTPREP_VERSION),
		.command = strdup(mode_command(run->mode)),
		.host = strdup(run->host.hostname ? run->host.hostname : "unknown"),
		.time_sec = report_time(),
		.applied = run->cfg->apply,
		.results = run->results,
	};
	run->results = (struct results){};
	if (!rep->version || !rep->command || !rep->host) {
		report_done(rep);
		return -ENOMEM;
	}
	return 0;
}

static char *root_hostname(const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_PROC, "sys/kernel/hostname");
	char *name = NULL;

	if (!path || read_one_line(path, &name) < 0)
		return strdup("unknown");
	return name;
}

/*
 * A report of one result about the run itself: the run could not evaluate
 * the host (config error, internal error), or is still changing it. It
 * replaces the last report, so `status` never serves a verdict that a later
 * run has overtaken.
 */
static int run_report(const struct sysroot *root, enum run_mode mode, bool applied,
		      const struct result *res, struct report *rep)
{
	*rep = (struct report){
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup(HOSTPREP_VERSION),
		.command = strdup(mode_command(mode)),
		.host = root_hostname(root),
		.time_sec = report_time(),
		.applied = applied,
	};
	if (!rep->version || !rep->command || !rep->host) {
		report_done(rep);
		return -ENOMEM;
	}
	return results_add(&rep->results, res->verdict, res->check, res->object, res->expected,
			   res->actual, res->remedy);
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * Only root writes the report file and the files other systems read ([Sinks]; cfg NULL
 * when the config could not be loaded), and only for a run that decides the host's state
 * (files: see run_publishes()); the journal and sd_notify hear about it either way.
 * echoed: the report is on stdout already. started: now_usec() when the run began.
 */
static void publish(const struct sysroot *root, const struct config *cfg, const struct report *rep,
		    bool files, bool echoed, uint64_t started)
{
	int r;

	if (files && geteuid() == 0) {
		r = report_write(rep, root);
		if (r < 0)
			log_warning_errno(r, "Failed to write the report file, ignoring: %m");
		if (sink_files(rep, cfg, root, now_usec() - started) < 0)
			log_oom();
	}
	if (sysroot_is_host(root))
		(void)sink_journal(rep, echoed);
	(void)sink_notify(rep);
}

static void publish_run_failure(const struct sysroot *root, const struct config *cfg,
				enum run_mode mode, bool applied, bool files, int err,
				uint64_t started)
{
	_cleanup_(report_done) struct report rep = {};
	_cleanup_(freep) char *actual = NULL;
	const char *why = log_first_error();
	unsigned more = log_error_count() > 1 ? log_error_count() - 1 : 0;
	bool config = err == -EINVAL || err == -EPERM;
	struct result res = {
		.verdict = config ? VERDICT_FAIL : VERDICT_UNKNOWN,
		.check = config ? "config" : "run",
		.object = config ? "configuration" : "host",
		.expected = config ? "valid" : "finished",
		.remedy =
			config ? "fix the configuration (hostprep config --validate FILE shows "
				 "every error), then systemctl restart hostprep"
			       : "see the journal of hostprep.service; report a bug if it persists",
	};

	if (mode == RUN_DRY_RUN)
		return; /* a dry run writes nothing, its own report included */
	if (asprintf(&actual, "%s%s", why ? why : strerror(-err),
		     more ? " (and more errors: see the journal)" : "") < 0)
		return;
	res.actual = actual;
	if (run_report(root, mode, applied, &res, &rep) >= 0)
		publish(root, cfg, &rep, files, false, started);
}

/* Written before the first hardware write: a run killed half-way leaves "not finished". */
static void publish_in_progress(const struct sysroot *root, enum run_mode mode)
{
	_cleanup_(report_done) struct report rep = {};
	_cleanup_(freep) char *actual = NULL;
	struct result res = {
		.verdict = VERDICT_UNKNOWN,
		.check = "run",
		.object = "host",
		.expected = "finished",
		.remedy = "wait for it, or run it again: hostprep apply (or systemctl restart "
			  "hostprep)",
	};

	if (geteuid() != 0)
		return;
	if (asprintf(&actual,
		     "'%s' (pid %d) started and has not finished: still running, or killed "
		     "before it could report",
		     mode_command(mode), (int)getpid()) < 0)
		return;
	res.actual = actual;
	if (run_report(root, mode, true, &res, &rep) >= 0)
		(void)report_write(&rep, root);
}

static int render(const struct options *o, const struct report *rep)
{
	int r = o->json ? render_json(rep, stdout)
			: render_text(rep, stdout, use_color(o), o->verbose ? 0 : TABLE_WIDTH_MAX);

	fflush(stdout);
	return r;
}

/* Every sink gets the same report; only the renderers differ. */
static int emit(const struct options *o, const struct sysroot *root, const struct config *cfg,
		struct report *rep, bool files, uint64_t started)
{
	struct summary s;
	int r;

	r = render(o, rep);
	if (r < 0)
		return log_error_errno(r, "Failed to print the report: %m");
	publish(root, cfg, rep, files, true, started);
	results_summarize(&rep->results, &s);
	return summary_exit_status(&s);
}

/*
 * revert succeeds when every recorded original is back (or nothing was recorded: skip);
 * readiness is reported, not judged.
 */
static int revert_status(const struct results *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		if ((streq(rs->items[i].check, "acs.revert") ||
		     streq(rs->items[i].check, "module.revert")) &&
		    rs->items[i].verdict > VERDICT_SKIP)
			return EXIT_NOT_READY;
	return EXIT_READY;
}

static int print_plan(const struct options *o, const struct run *run)
{
	char when[REPORT_TIME_MAX];
	struct plan_doc doc = {
		.version = HOSTPREP_VERSION,
		.host = run->host.hostname ? run->host.hostname : "unknown",
		.time = when,
		.apply = run->cfg->apply,
		.scan_err = run->pci_err,
		.limited_short = acs_limited_text(pci_limited_cause())->why,
		.limited_detail = acs_limited_text(pci_limited_cause())->actual,
	};
	int r;

	r = report_format_time(report_time(), when, sizeof(when));
	if (r < 0)
		return r;
	if (o->json) {
		doc.modules = kmod_plan_json(run);
		return plan_print_json(&run->plan, &doc, stdout);
	}
	if (run->mode == RUN_APPLY && !run->cfg->apply)
		printf("[Host] Apply=no: audit only, nothing is written. Set Apply=yes to change "
		       "the host.\n");
	r = plan_print(&run->plan, &doc, stdout);
	return r < 0 ? r : kmod_plan_print(run, stdout);
}

/*
 * Which runs publish the host's state (the report file that `status` and the gates read,
 * the [Sinks] files): the ones that decide it. A run of the installed configuration (no
 * --config: the unit, an admin's `hostprep check`), and every run that changes the host
 * (apply with Apply=yes, revert: the last report must not describe a host that a later
 * run has changed). Not a run of another configuration (--config: an admin trying one)
 * that writes nothing, unless --publish says so.
 */
static bool run_publishes(const struct options *o, const struct run *run)
{
	return o->publish || !o->n_configs || (run && run_writes(run));
}

static int do_run(const struct options *o, enum run_mode mode)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	uint64_t started = now_usec();
	bool cfg_ok, files;
	struct report rep;
	struct run run;
	unsigned flags = 0;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	if (geteuid() == 0 && (mode == RUN_APPLY || mode == RUN_DRY_RUN))
		flags |= CONFIG_REQUIRE_ROOT_OWNED;
	r = load_config(o, &root, flags, &cfg);
	cfg_ok = r >= 0;
	if (r < 0 && mode != RUN_REVERT) {
		publish_run_failure(&root, NULL, mode, false, run_publishes(o, NULL), r, started);
		return r;
	}
	if (r < 0) /* revert is the way back: a broken config must not block it */
		log_warning("Reverting without the configuration.");
	if (geteuid() != 0 && (mode == RUN_REVERT || (mode == RUN_APPLY && cfg.apply))) {
		log_error("'%s' changes the host and needs root; 'hostprep check' and "
			  "'hostprep apply --dry-run' do not.",
			  mode_command(mode));
		return -EPERM;
	}
	run_init(&run, &root, &cfg, mode);
	files = run_publishes(o, &run);
	/* a boot run that hangs (and is killed by the unit's timeout) must not leave the last
	 * verdict standing: apply says "not finished" first, Apply=no too */
	if (files && (run_writes(&run) || mode == RUN_APPLY))
		publish_in_progress(&root, mode);
	r = run_execute(&run);
	if (r >= 0 && (mode == RUN_DRY_RUN || (mode == RUN_APPLY && !cfg.apply && !o->json)))
		r = print_plan(o, &run);
	if (r < 0 || mode == RUN_DRY_RUN) {
		run_done(&run);
		if (r < 0)
			publish_run_failure(&root, &cfg, mode, cfg.apply, files, r, started);
		return r < 0 ? r : EXIT_READY;
	}
	r = build_report(&run, &rep);
	run_done(&run);
	if (r < 0)
		return r;
	r = emit(o, &root, cfg_ok ? &cfg : NULL, &rep, files, started);
	if (r >= 0 && mode == RUN_REVERT)
		r = revert_status(&rep.results);
	report_done(&rep);
	return r;
}

static int cmd_check(const struct options *o)
{
	return do_run(o, RUN_CHECK);
}

static int cmd_apply(const struct options *o)
{
	return do_run(o, o->dry_run ? RUN_DRY_RUN : RUN_APPLY);
}

static int cmd_revert(const struct options *o)
{
	return do_run(o, RUN_REVERT);
}

/* status --oneline: monitors read stdout only, so the verdict goes there in every case. */
static void oneline_not_ready(const struct options *o, const char *why)
{
	if (o->oneline)
		printf("NOT READY: %s\n", why);
}

static int render_status(const struct options *o, const struct report *rep)
{
	_cleanup_(freep) char *line = NULL;
	int r;

	if (!o->oneline)
		return render(o, rep);
	r = summary_oneline(rep, &line);
	if (r < 0)
		return r;
	printf("%s\n", line);
	return fflush(stdout) == 0 ? 0 : -errno;
}

static int cmd_status(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	struct report rep = {};
	struct summary s;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = report_read(&rep, &root);
	if (r == -ENOENT) {
		log_error("No report yet: hostprep has not finished a run since boot; try "
			  "'hostprep check'.");
		oneline_not_ready(o, "no report: hostprep has not finished a run since boot");
		return EXIT_NOT_READY;
	}
	if (r == -ENOMEM)
		return log_oom();
	if (r < 0) {
		/* Damaged or unreadable: what it said cannot be trusted, so the host is not ready.
		 */
		log_error_errno(r, "Cannot use the last report: %m; not ready until hostprep runs "
				   "again (hostprep check).");
		oneline_not_ready(o, "the last report cannot be used (damaged or unreadable)");
		return EXIT_NOT_READY;
	}
	r = render_status(o, &rep);
	results_summarize(&rep.results, &s);
	report_done(&rep);
	return r < 0 ? r : summary_exit_status(&s);
}

/* What the operator passed, safe for the terminal. */
static void print_escaped(const char *s, const char *suffix)
{
	_cleanup_(freep) char *e = log_escape(s, strlen(s));

	printf("%s%s", e ? e : "?", suffix);
}

/*
 * config --validate FILE...: each FILE as it would be used once installed,
 * layered over the configuration found by the search (or --config); see
 * config_validate().
 */
static int validate(const struct options *o, const struct sysroot *root)
{
	_cleanup_(config_done) struct config cfg = {};
	int r;

	if (o->n_args == 0) {
		log_error("config --validate needs at least one FILE.");
		return -EINVAL;
	}
	r = config_validate(&cfg, root, o->n_configs ? o->configs : NULL, o->args, 0);
	if (r == -EINVAL || r == -EPERM)
		return -EINVAL; /* already logged as file:line: reason */
	if (r < 0)
		return log_error_errno(r, "Failed to load the configuration: %m");
	for (int i = 0; i < o->n_args; i++)
		print_escaped(o->args[i], ": ok\n");
	return 0;
}

static int cmd_config(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	if (o->validate)
		return validate(o, &root);
	if (o->n_args) {
		log_error("config takes no arguments (did you mean --validate?).");
		return -EINVAL;
	}
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	return config_dump(&cfg, stdout);
}

/*
 * The boot-time argument for the policy, in the form the running kernel
 * understands: pci=config_acs= from 6.11, pci=disable_acs_redir= before
 * (only for a policy that is exactly x0x00xx, all that parameter does).
 * Exit 1 when there is no such argument for this policy on this kernel.
 */
static int acs_arg_for_kernel(const struct run *run, char **ret)
{
	const char *rel = run->host.osrelease ? run->host.osrelease : "(unknown)";
	const struct acs_target *bad = NULL;
	char mask[ACS_MASK_BITS + 1];
	int r;

	switch (kernel_acs_param(run->host.osrelease)) {
	case KERNEL_ACS_NONE:
		r = acs_cmdline_format(&run->plan, &run->pci_inv, ret);
		if (r < 0)
			return r;
		free(*ret);
		*ret = NULL;
		log_error("Kernel %s has no boot-time ACS parameter (pci=disable_acs_redir= came "
			  "with 4.19, pci=config_acs= with 6.11): hostprep apply at every boot is "
			  "the only way.",
			  rel);
		return -EDOM;
	case KERNEL_ACS_REDIR:
		r = acs_cmdline_format_redir(&run->plan, &run->pci_inv, ret, &bad);
		if (r != -EDOM)
			return r;
		acs_mask_format(&bad->mask, mask);
		log_error("Kernel %s predates pci=config_acs= (6.11); pci=disable_acs_redir= only "
			  "clears RR,CR,EC (x0x00xx), but port %s wants %s (rules %s): no "
			  "boot-time form for this policy on this kernel.",
			  rel, bad->addr, mask, bad->rules);
		return -EDOM;
	case KERNEL_ACS_CONFIG_BUGGY:
		/* An argument the kernel only partly honours is refused like the others. */
		r = acs_cmdline_format(&run->plan, &run->pci_inv, ret);
		if (r < 0)
			return r;
		free(*ret);
		*ret = NULL;
		log_error("Kernel %s may lack the 2025 pci=config_acs fix (6.12.23, 6.13.11, "
			  "6.14.2, 6.15): it honours only the first entry and takes '0' flags "
			  "from the firmware, so the policy would not be applied at boot; boot a "
			  "fixed kernel, hostprep apply sets ACS after every boot until then.",
			  rel);
		return -EDOM;
	case KERNEL_ACS_CONFIG:
		break;
	}
	return acs_cmdline_format(&run->plan, &run->pci_inv, ret);
}

/* The drop-in's results as a report of their own, rendered like a run's. */
static int acs_grub_report(const struct options *o, const struct sysroot *root, bool apply,
			   struct results *rs)
{
	struct report rep = {
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup(HOSTPREP_VERSION),
		.command = strdup(o->install ? "acs cmdline --install" : "acs cmdline --uninstall"),
		.host = root_hostname(root),
		.time_sec = report_time(),
		.applied = apply,
		.results = *rs,
	};
	struct summary s;
	int r;

	*rs = (struct results){};
	if (!rep.version || !rep.command || !rep.host) {
		report_done(&rep);
		return -ENOMEM;
	}
	r = render(o, &rep);
	results_summarize(&rep.results, &s);
	report_done(&rep);
	return r < 0 ? r : summary_exit_status(&s);
}

/*
 * --install / --uninstall: an explicit admin command, so it writes whatever [Host] Apply
 * says (Apply= is about the service's runs); under the run lock like every writer.
 */
static int acs_grub_change(const struct options *o, const struct sysroot *root, bool apply,
			   const char *arg)
{
	_cleanup_(results_done) struct results rs = {};
	_cleanup_(closep) int lock = -1;
	int r;

	r = record_lock(root, &lock);
	if (r < 0)
		return log_error_errno(r, "Failed to take the run lock: %m");
	r = o->install ? acs_grub_install(root, arg, &rs) : acs_grub_revert(root, &rs);
	if (r < 0)
		return log_error_errno(r, "Failed to %s " ACS_GRUB_FILE ": %m",
				       o->install ? "install" : "uninstall");
	if (rs.n == 0) {
		log_notice("Nothing to uninstall: hostprep has not installed " ACS_GRUB_FILE ".");
		return 0;
	}
	r = acs_grub_report(o, root, apply, &rs);
	if (r == EXIT_READY)
		log_notice("Regenerate grub.cfg and reboot: update-grub (Debian, Ubuntu). "
			   "grub2-mkconfig (RHEL, Fedora) does not read /etc/default/grub.d: "
			   "there use grubby --update-kernel=ALL --args=... instead.");
	return r;
}

static int cmd_acs(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(freep) char *arg = NULL;
	struct run run;
	int r;

	if (o->n_args != 1 || !streq(o->args[0], "cmdline") || (o->install && o->uninstall)) {
		log_error("usage: hostprep acs cmdline [--install|--uninstall]");
		return -EINVAL;
	}
	r = open_root(o, &root);
	if (r < 0)
		return r;
	if ((o->install || o->uninstall) && geteuid() != 0) {
		log_error("'acs cmdline --%s' changes the host and needs root.",
			  o->install ? "install" : "uninstall");
		return -EPERM;
	}
	/* The way back must work whatever the configuration says now. */
	if (o->uninstall)
		return acs_grub_change(o, &root, false, NULL);
	r = load_config(o, &root, o->install ? CONFIG_REQUIRE_ROOT_OWNED : 0, &cfg);
	if (r < 0)
		return r;
	run_init(&run, &root, &cfg, RUN_DRY_RUN);
	r = run_execute(&run);
	if (r >= 0)
		r = acs_arg_for_kernel(&run, &arg);
	run_done(&run);
	if (r == -ENODATA) {
		log_notice("No ACS-capable port is selected by the configuration%s.",
			   o->install ? ": nothing to install (--uninstall removes a drop-in "
					"installed before)"
				      : "");
		return 0;
	}
	if (r == -EACCES || r == -ENOMEDIUM) {
		log_error("Cannot tell which selected ports have ACS: %s.",
			  r == -ENOMEDIUM ? acs_no_ext_text()->actual
					  : acs_limited_text(pci_limited_cause())->actual);
		return EXIT_NOT_READY;
	}
	if (r == -EDOM)
		return EXIT_NOT_READY;
	if (r < 0)
		return r;
	if (o->install)
		return acs_grub_change(o, &root, cfg.apply, arg);
	printf("%s\n", arg);
	return 0;
}

/* `hostprep rdma`: every RDMA device and port, no config needed. */
static int cmd_rdma(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	struct rdma_inventory inv = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = rdma_scan(&root, sysroot_is_host(&root), NULL, NULL, &inv);
	if (r < 0) {
		rdma_inventory_done(&inv);
		return log_error_errno(r, "Failed to read the RDMA devices: %m");
	}
	if (o->json) {
		struct json_object *j = rdma_table_json(&inv);

		printf("%s\n", json_object_to_json_string_ext(
				       j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else {
		r = rdma_table_print(&inv, stdout);
	}
	rdma_inventory_done(&inv);
	return r < 0 ? log_error_errno(r, "Failed to print the RDMA table: %m") : 0;
}

/* `hostprep env`: what rdma.env holds, computed from the ports as they are now. */
static int cmd_env(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(freep) char *text = NULL;
	struct rdma_run rr = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	if (!port_config_get(&cfg) || !port_config_get(&cfg)->n_rules) {
		log_error(
			"No [Port:*] rule: the RDMA environment comes from the ports they select.");
		return EXIT_NOT_READY;
	}
	rr = (struct rdma_run){ .root = &root, .pc = port_config_get(&cfg) };
	r = rdma_run_scan(&rr, sysroot_is_host(&root));
	if (r >= 0)
		r = rdma_env_format(&rr, &text);
	rdma_inventory_done(&rr.inv);
	if (r < 0)
		return log_error_errno(r, "Failed to compute the RDMA environment: %m");
	fputs(text, stdout);
	return 0;
}

static char topo_stdout_buf[256 * 1024];

/* No PCI tree to read (an empty --root, a container without sysfs): say which, exit 1. */
static int topology_missing(const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_SYS, "bus/pci/devices");

	log_error("No PCI topology to show: %s does not exist or is not a directory%s.",
		  path ? path : "bus/pci/devices",
		  sysroot_is_host(root) ? "" : " (--root must hold a sysfs-shaped tree)");
	return EXIT_NOT_READY;
}

/* `hostprep topology`: GPUs/NICs, distance classes and the ACS verdict of each P2P path. */
static int cmd_topology(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	struct topo_view v;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	r = topo_view_open(&v, &root, topo_config_get(&cfg));
	if (r == -ENOENT || r == -ENOTDIR)
		return topology_missing(&root);
	if (r < 0)
		return log_error_errno(r, "Failed to read the PCI topology: %m");
	/* The matrix grows with the square of the endpoints: write it in large blocks. */
	setvbuf(stdout, topo_stdout_buf, _IOFBF, sizeof(topo_stdout_buf));
	if (o->json) {
		struct json_object *j = topo_show_json(&v);

		if (j)
			printf("%s\n",
			       json_object_to_json_string_ext(
				       j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						  JSON_C_TO_STRING_NOSLASHESCAPE));
		r = j ? 0 : -ENOMEM;
		json_object_put(j);
	} else {
		r = topo_show_text(&v, stdout);
	}
	topo_view_done(&v);
	return r < 0 ? log_error_errno(r, "Failed to print the topology: %m") : 0;
}

static const struct command commands[] = {
	{ "apply", cmd_apply,
	  "apply [--dry-run]   plan, write (when [Host] Apply=yes), verify, report" },
	{ "check", cmd_check, "check               read-only evaluation and report" },
	{ "status", cmd_status,
	  "status [--oneline]  print the last report (unprivileged) / as one line" },
	{ "revert", cmd_revert, "revert              restore every recorded original value" },
	{ "config", cmd_config,
	  "config [--validate FILE...]  print the merged config / validate files" },
	{ "acs", cmd_acs,
	  "acs cmdline [--install|--uninstall]  print the boot-time ACS argument for the "
	  "policy / write it as a GRUB drop-in / remove that" },
	{ "rdma", cmd_rdma,
	  "rdma                RDMA device/port, netdev, PCI function and bond table" },
	{ "env", cmd_env, "env                 print the NCCL/UCX environment (rdma.env) live" },
	{ "topology", cmd_topology,
	  "topology [--json]   GPU/NIC distance matrix and the ACS verdict of each P2P path" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: hostprep [OPTIONS] COMMAND\n\n"
		   "Make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work.\n\nCommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", commands[i].help);
	fprintf(f,
		"\nOptions:\n"
		"  --root DIR       inspect/change the host tree under DIR (default /)\n"
		"  --config FILE    use FILE instead of the config search (repeatable); such a\n"
		"                   run does not replace the published report unless it writes\n"
		"  --publish        check/apply --config: publish the report anyway\n"
		"  --json           JSON output (schema in docs/report-schema.md)\n"
		"  --no-color       no ANSI colour (also NO_COLOR=1)\n"
		"  -v, --verbose    debug messages on stderr; table lines not cut to 120 columns\n"
		"  -h, --help       this help\n"
		"      --version    print the version\n\n"
		"Exit status: 0 ready, 1 not ready, 2 usage or config error, 3 internal error.\n");
}

enum {
	OPT_ROOT = 0x100,
	OPT_CONFIG,
	OPT_JSON,
	OPT_NO_COLOR,
	OPT_DRY_RUN,
	OPT_VALIDATE,
	OPT_VERSION,
	OPT_INSTALL,
	OPT_UNINSTALL,
	OPT_PUBLISH,
	OPT_ONELINE,
};

static const struct option long_options[] = { { "root", required_argument, NULL, OPT_ROOT },
					      { "config", required_argument, NULL, OPT_CONFIG },
					      { "json", no_argument, NULL, OPT_JSON },
					      { "no-color", no_argument, NULL, OPT_NO_COLOR },
					      { "dry-run", no_argument, NULL, OPT_DRY_RUN },
					      { "validate", no_argument, NULL, OPT_VALIDATE },
					      { "verbose", no_argument, NULL, 'v' },
					      { "help", no_argument, NULL, 'h' },
					      { "version", no_argument, NULL, OPT_VERSION },
					      { "install", no_argument, NULL, OPT_INSTALL },
					      { "uninstall", no_argument, NULL, OPT_UNINSTALL },
					      { "publish", no_argument, NULL, OPT_PUBLISH },
					      { "oneline", no_argument, NULL, OPT_ONELINE },
					      {} };

static int add_config(struct options *o, char *path)
{
	char **v = reallocarray(o->configs, o->n_configs + 2, sizeof(char *));

	if (!v)
		return -ENOMEM;
	o->configs = v;
	o->configs[o->n_configs++] = path;
	o->configs[o->n_configs] = NULL;
	return 0;
}

/* 1: handled and done (help/version); 0: go on; <0: usage error. */
static int parse_one(struct options *o, int c)
{
	switch (c) {
	case OPT_ROOT:
		o->root = optarg;
		return 0;
	case OPT_CONFIG:
		return add_config(o, optarg);
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_VALIDATE:
		o->validate = true;
		return 0;
	case OPT_INSTALL:
		o->install = true;
		return 0;
	case OPT_UNINSTALL:
		o->uninstall = true;
		return 0;
	case OPT_PUBLISH:
		o->publish = true;
		return 0;
	case OPT_ONELINE:
		o->oneline = true;
		return 0;
	case 'v':
		o->verbose = true;
		log_set_max_level(LOG_DEBUG);
		return 0;
	case 'h':
		usage(stdout);
		return 1;
	case OPT_VERSION:
		printf("hostprep %s\n", HOSTPREP_VERSION);
		return 1;
	default:
		return -EINVAL;
	}
}

static int parse_argv(int argc, char **argv, struct options *o, const struct command **cmd)
{
	int c, r;

	while ((c = getopt_long(argc, argv, "vh", long_options, NULL)) >= 0) {
		r = parse_one(o, c);
		if (r != 0)
			return r;
	}
	if (optind >= argc) {
		log_error("Missing COMMAND.");
		return -EINVAL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands) && !*cmd; i++)
		if (streq(argv[optind], commands[i].name))
			*cmd = &commands[i];
	if (!*cmd) {
		log_error("Unknown command '%s'.", argv[optind]);
		return -EINVAL;
	}
	if ((o->dry_run && (*cmd)->fn != cmd_apply) || (o->validate && (*cmd)->fn != cmd_config) ||
	    ((o->install || o->uninstall) && (*cmd)->fn != cmd_acs)) {
		log_error("--dry-run goes with apply, --validate with config, --install and "
			  "--uninstall with acs cmdline.");
		return -EINVAL;
	}
	if ((o->oneline && ((*cmd)->fn != cmd_status || o->json)) ||
	    (o->publish && (*cmd)->fn != cmd_check && (*cmd)->fn != cmd_apply) ||
	    (o->publish && o->dry_run)) {
		log_error("--oneline goes with status (not with --json), --publish with check "
			  "and apply (not --dry-run).");
		return -EINVAL;
	}
	o->args = argv + optind + 1;
	o->n_args = argc - optind - 1;
	if (o->n_args && (*cmd)->fn != cmd_config && (*cmd)->fn != cmd_acs) {
		log_error("'%s' takes no arguments.", (*cmd)->name);
		return -EINVAL;
	}
	return 0;
}

static int exit_status(int r)
{
	if (r >= 0)
		return r;
	return r == -EINVAL || r == -EPERM ? EXIT_USAGE : EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
	struct options o = {};
	const struct command *cmd = NULL;
	int r;

	/* The report and /run/hostprep must stay readable for an unprivileged status. */
	umask(0022);
	r = parse_argv(argc, argv, &o, &cmd);
	if (r < 0) {
		usage(stderr);
		options_done(&o);
		return EXIT_USAGE;
	}
	r = r > 0 ? 0 : cmd->fn(&o);
	options_done(&o);
	return exit_status(r);
}
