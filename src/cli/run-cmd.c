// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pipeline's commands, check, apply (--dry-run) and revert: one run of every module
 * (src/run/run.c); whether it publishes is decided here once (run_publishes()), what
 * it publishes goes out through the one publish step (src/cli/run-publish.c).
 */
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "core/json-util.h"
#include "core/log.h"
#include "cli/run-publish.h"
#include "run/run.h"
#include "report/report-header.h"
#include "report/sinks.h"

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
	int r = report_init(rep, mode_command(run->mode), run->host.hostname, run->cfg->apply);

	if (r >= 0)
		r = report_set_config(rep, run->cfg);
	if (r < 0) {
		report_done(rep);
		return r;
	}
	rep->results = run->results;
	run->results = (struct results){};
	rep->facts = run->facts;
	run->facts = (struct facts){};
	return 0;
}

/*
 * A report of one result about the run itself: the run could not evaluate the host
 * (config error, internal error), or is still changing it. Published, it replaces the
 * last report, so `status` never serves a verdict that a later run has overtaken.
 */
static int run_report(const struct run *run, bool applied, const struct result_spec *res,
		      struct report *rep)
{
	_cleanup_(freep) char *host = root_hostname(run->root);
	int r;

	*rep = (struct report){};
	if (!host)
		return -ENOMEM;
	r = report_init(rep, mode_command(run->mode), host, applied);
	if (r >= 0)
		r = report_set_config(rep, run->cfg);
	if (r < 0)
		return r;
	return results_add(&rep->results, res);
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* The journal and sd_notify hear about every run, published or not. echoed: on stdout. */
static void announce(const struct sysroot *root, const struct report *rep, bool echoed)
{
	if (sysroot_is_host(root))
		(void)sink_journal(rep, echoed);
	(void)sink_notify(rep);
}

/*
 * What stopped a run, as a result: a configuration that did not load (fail, the first
 * error logged), or anything else (unknown). *actual is the caller's to free.
 */
static int failure_result(int err, struct result_spec *res, char **actual)
{
	const char *why = log_first_error();
	unsigned more = log_error_count() > 1 ? log_error_count() - 1 : 0;
	bool config = err == -EINVAL || err == -EPERM;

	*res = (struct result_spec){
		.verdict = config ? VERDICT_FAIL : VERDICT_UNKNOWN,
		.action = config ? ACTION_CONFIG : ACTION_INSPECT,
		.check = config ? "config" : "run",
		.object = config ? "configuration" : "host",
		.expected = config ? "valid" : "finished",
		.remedy =
			config ? "fix the configuration (hostprep config --validate FILE shows "
				 "every error), then systemctl restart hostprep"
			       : "see the journal of hostprep.service; report a bug if it persists",
	};
	if (asprintf(actual, "%s%s", why ? why : strerror(-err),
		     more ? " (and more errors: see the journal)" : "") < 0)
		return -ENOMEM;
	res->actual = *actual;
	return 0;
}

/* A run that stopped without a verdict. cfg: NULL when the configuration did not load. */
static void run_failure(struct run *run, const struct config *cfg, int err)
{
	_cleanup_(report_done) struct report rep = {};
	_cleanup_(freep) char *actual = NULL;
	struct result_spec res;

	if (run->mode == RUN_DRY_RUN)
		return; /* a dry run writes nothing, its own report included */
	if (failure_result(err, &res, &actual) < 0)
		return;
	if (run_report(run, run->cfg->apply, &res, &rep) < 0)
		return;
	(void)publish_failure(run, cfg, &rep);
	announce(run->root, &rep, false);
}

/* The report of a run that writes (or apply, the boot run) until its verdict stands. */
static int in_progress_report(const struct run *run, struct report *rep)
{
	_cleanup_(freep) char *actual = NULL;
	struct result_spec res = {
		.verdict = VERDICT_UNKNOWN,
		.action = ACTION_INSPECT,
		.cause = "unfinished",
		.check = "run",
		.object = "host",
		.expected = "finished",
		.remedy = "wait for it, or run it again: hostprep apply (or systemctl restart "
			  "hostprep)",
	};

	if (asprintf(&actual,
		     "'%s' (pid %d) started and has not finished: still running, or killed "
		     "before it could report",
		     mode_command(run->mode), (int)getpid()) < 0)
		return -ENOMEM;
	res.actual = actual;
	return run_report(run, true, &res, rep);
}

/* Every output gets the same report; only the renderers differ. */
static int emit(const struct options *o, const struct sysroot *root, struct report *rep)
{
	struct summary s;
	int r;

	r = render(o, rep);
	if (r < 0)
		return log_error_errno(r, "Failed to print the report: %m");
	announce(root, rep, true);
	results_summarize(&rep->results, &s);
	return summary_exit_status(&s);
}

/* The dry-run document's envelope (docs/report-schema.md); the modules add the rest. */
static struct json_object *plan_doc_new(const struct run *run, const char *when)
{
	struct json_object *doc = json_object_new_object();
	const struct {
		const char *key;
		struct json_object *v;
	} members[] = {
		{ "schema", json_object_new_int(REPORT_SCHEMA_VERSION) },
		{ "version", json_object_new_string(HOSTPREP_VERSION) },
		{ "command", json_object_new_string(mode_command(RUN_DRY_RUN)) },
		{ "host",
		  json_object_new_string(run->host.hostname ? run->host.hostname : "unknown") },
		{ "time", json_object_new_string(when) },
		{ "apply", json_object_new_boolean(run->cfg->apply) },
	};
	bool ok = doc;

	for (size_t i = 0; i < ARRAY_SIZE(members); i++) {
		if (ok && members[i].v &&
		    json_object_object_add(doc, members[i].key, members[i].v) == 0)
			continue;
		ok = false;
		json_object_put(members[i].v);
	}
	if (!ok)
		json_object_put(doc);
	return ok ? doc : NULL;
}

static int print_plan(const struct options *o, const struct run *run)
{
	_cleanup_(json_object_putp) struct json_object *doc = NULL;
	char when[REPORT_TIME_MAX];
	int r;

	r = report_format_time(report_time(), when, sizeof(when));
	if (r < 0)
		return r;
	if (!o->json) {
		if (run->mode == RUN_APPLY && !run->cfg->apply)
			printf("[Host] Apply=no: audit only, nothing is written. Set Apply=yes to "
			       "change the host.\n");
		return run_print_plan(run, stdout, NULL);
	}
	doc = plan_doc_new(run, when);
	if (!doc)
		return -ENOMEM;
	r = run_print_plan(run, stdout, doc);
	if (r < 0)
		return r;
	printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED |
								   JSON_C_TO_STRING_NOSLASHESCAPE));
	return 0;
}

/*
 * Which runs publish the host's state (the report file that `status` and the gates read,
 * the [Sinks] files, the modules' files): the ones that decide it, decided here once and
 * carried on the run. A run of the installed configuration (no --config: the unit, an
 * admin's `hostprep check`), and every run that changes the host (apply with Apply=yes,
 * revert: the last report must not describe a host that a later run has changed). Not a
 * run of another configuration (--config: an admin trying one) that writes nothing,
 * unless --publish says so; never a dry run, never an unprivileged run.
 */
static bool run_publishes(const struct options *o, const struct run *run)
{
	if (!o->privileged || run->mode == RUN_DRY_RUN)
		return false;
	return o->publish || (!o->n_configs && !o->vendor_config) || run_writes(run);
}

/*
 * A revert without its configuration restores what was recorded, and its report says
 * the configuration did not load: a host whose policy cannot be read is not ready, and
 * the sinks and gates must not say otherwise.
 */
static int config_unloaded(struct run *run, int err)
{
	_cleanup_(freep) char *actual = NULL;
	struct result_spec res;
	int r = failure_result(err, &res, &actual);

	return r < 0 ? r : results_add(&run->results, &res);
}

/*
 * The pipeline on a loaded configuration (cfg NULL: a revert without one): the "not
 * finished" state first where a run could hang or write, the verdict published under
 * the run lock's rules (run-publish.h), the lock let go, then the report printed.
 */
static int run_pipeline(const struct options *o, struct run *run, const struct config *cfg,
			int cfg_err, uint64_t started)
{
	_cleanup_(report_done) struct report pending = {};
	bool say_pending = run->publishes && (run_writes(run) || run->mode == RUN_APPLY);
	bool incomplete;
	struct report rep;
	int r;

	r = say_pending ? in_progress_report(run, &pending) : 0;
	if (r >= 0)
		r = publish_begin(run, cfg, say_pending ? &pending : NULL);
	if (r >= 0)
		r = run_execute(run);
	if (r >= 0 && cfg_err < 0)
		r = config_unloaded(run, cfg_err);
	if (r >= 0 &&
	    (run->mode == RUN_DRY_RUN || (run->mode == RUN_APPLY && !run->cfg->apply && !o->json)))
		r = print_plan(o, run);
	if (r < 0 || run->mode == RUN_DRY_RUN) {
		if (r < 0)
			run_failure(run, cfg, r);
		run_done(run);
		return r < 0 ? r : EXIT_READY;
	}
	r = build_report(run, &rep);
	if (r >= 0) {
		r = publish_verdict(run, cfg, &rep, now_usec() - started);
		if (r < 0)
			report_done(&rep);
	}
	incomplete = run->revert_incomplete;
	run_done(run);
	if (r < 0)
		return r;
	r = emit(o, run->root, &rep);
	report_done(&rep);
	/* revert succeeds when every recorded original is back; readiness is reported */
	if (r >= 0 && run->mode == RUN_REVERT)
		r = incomplete ? EXIT_NOT_READY : EXIT_READY;
	return r;
}

static void notify_status(const char *status)
{
	(void)sink_notify_status(status);
}

/* The wait's own length, plus a margin for what follows it. */
static void notify_extend_timeout(uint64_t usec)
{
	(void)sink_notify_extend_timeout(usec + HOSTPREP_TIMEOUT_MARGIN_USEC);
}

/* The boot wait's news goes to the service manager through the sinks. */
static const struct run_notify sink_notifier = {
	.status = notify_status,
	.extend_timeout = notify_extend_timeout,
};

static int do_run(const struct options *o, enum run_mode mode)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	uint64_t started = now_usec();
	unsigned flags = 0;
	struct run run;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	if (o->privileged && (mode == RUN_APPLY || mode == RUN_DRY_RUN))
		flags |= CONFIG_REQUIRE_ROOT_OWNED;
	r = load_config(o, &root, flags, &cfg); /* on failure cfg is empty: Apply=no */
	run_init(&run, o->modules, &root, &cfg, mode, o->privileged);
	run.notify = &sink_notifier;
	run.publishes = run_publishes(o, &run);
	if (r < 0 && mode != RUN_REVERT) {
		run_failure(&run, NULL, r);
		return r;
	}
	if (r < 0) /* revert is the way back: a broken config must not block it */
		log_warning("Reverting without the configuration.");
	if (!o->privileged && run_writes(&run)) {
		log_error("'%s' changes the host and needs root; 'hostprep check' and "
			  "'hostprep apply --dry-run' do not.",
			  mode_command(mode));
		return -EPERM;
	}
	return run_pipeline(o, &run, r < 0 ? NULL : &cfg, r < 0 ? r : 0, started);
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

static int set_dry_run(struct options *o, char *arg)
{
	o->dry_run = true;
	return 0;
}

static int set_publish(struct options *o, char *arg)
{
	o->publish = true;
	return 0;
}

/* A dry run publishes nothing: asking for both is a mistake, not a choice. */
static int check_apply(const struct options *o)
{
	if (o->publish && o->dry_run) {
		log_error("--publish is not with --dry-run.");
		return -EINVAL;
	}
	return 0;
}

static const struct command_option apply_options[] = {
	{ "dry-run", 0, NULL, "print the plan, write nothing", set_dry_run },
	{ "publish", 0, NULL, "publish the report of a --config run anyway", set_publish },
	{}
};

static const struct command_option check_options[] = {
	{ "publish", 0, NULL, "publish the report of a --config run anyway", set_publish },
	{},
};

const struct command apply_command = {
	.name = "apply",
	.run = cmd_apply,
	.help = "apply [--dry-run]   plan, write (when [Host] Apply=yes), verify, report",
	.options = apply_options,
	.check = check_apply,
};

const struct command check_command = {
	.name = "check",
	.run = cmd_check,
	.help = "check               read-only evaluation and report",
	.options = check_options,
};

const struct command revert_command = {
	.name = "revert",
	.run = cmd_revert,
	.help = "revert              restore every recorded original value",
};
