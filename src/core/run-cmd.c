// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pipeline's commands, check, apply (--dry-run) and revert: one run of every module
 * (src/core/run.c), its report rendered and published to every sink under one rule
 * (run_publishes()), the files the modules leave for other programs (run_publish()).
 */
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/command.h"
#include "core/json-util.h"
#include "core/log.h"
#include "core/record.h"
#include "core/run.h"
#include "report/report-header.h"
#include "report/sink-config.h"
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
	return 0;
}

/*
 * A report of one result about the run itself: the run could not evaluate
 * the host (config error, internal error), or is still changing it. It
 * replaces the last report, so `status` never serves a verdict that a later
 * run has overtaken.
 */
static int run_report(const struct sysroot *root, const struct config *cfg, enum run_mode mode,
		      bool applied, const struct result *res, struct report *rep)
{
	_cleanup_(freep) char *host = root_hostname(root);
	int r;

	*rep = (struct report){};
	if (!host)
		return -ENOMEM;
	r = report_init(rep, mode_command(mode), host, applied);
	if (r >= 0)
		r = report_set_config(rep, cfg);
	if (r < 0)
		return r;
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
 * (files: see run_publishes(), root's runs only); the journal and sd_notify hear about it
 * either way.
 * echoed: the report is on stdout already. started: now_usec() when the run began.
 */
static void publish(const struct sysroot *root, const struct config *cfg, const struct report *rep,
		    bool files, bool echoed, uint64_t started)
{
	int r;

	if (files) {
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
	if (run_report(root, cfg, mode, applied, &res, &rep) >= 0)
		publish(root, cfg, &rep, files, false, started);
}

/*
 * Written before the first hardware write (by a publishing run: root's): a run killed
 * half-way leaves "not finished".
 */
static void publish_in_progress(const struct sysroot *root, const struct config *cfg,
				enum run_mode mode)
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

	if (asprintf(&actual,
		     "'%s' (pid %d) started and has not finished: still running, or killed "
		     "before it could report",
		     mode_command(mode), (int)getpid()) < 0)
		return;
	res.actual = actual;
	if (run_report(root, cfg, mode, true, &res, &rep) >= 0)
		(void)report_write(&rep, root);
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
 * the [Sinks] files): the ones that decide it. A run of the installed configuration (no
 * --config: the unit, an admin's `hostprep check`), and every run that changes the host
 * (apply with Apply=yes, revert: the last report must not describe a host that a later
 * run has changed). Not a run of another configuration (--config: an admin trying one)
 * that writes nothing, unless --publish says so.
 */
static bool run_publishes(const struct options *o, const struct run *run)
{
	if (!o->privileged)
		return false; /* only root's runs write them */
	return o->publish || !o->n_configs || (run && run_writes(run));
}

static int do_run(const struct options *o, enum run_mode mode)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	uint64_t started = now_usec();
	bool cfg_ok, files, incomplete;
	struct report rep;
	struct run run;
	unsigned flags = 0;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	if (o->privileged && (mode == RUN_APPLY || mode == RUN_DRY_RUN))
		flags |= CONFIG_REQUIRE_ROOT_OWNED;
	r = load_config(o, &root, flags, &cfg);
	cfg_ok = r >= 0;
	if (r < 0 && mode != RUN_REVERT) {
		publish_run_failure(&root, NULL, mode, false, run_publishes(o, NULL), r, started);
		return r;
	}
	if (r < 0) /* revert is the way back: a broken config must not block it */
		log_warning("Reverting without the configuration.");
	if (!o->privileged && (mode == RUN_REVERT || (mode == RUN_APPLY && cfg.apply))) {
		log_error("'%s' changes the host and needs root; 'hostprep check' and "
			  "'hostprep apply --dry-run' do not.",
			  mode_command(mode));
		return -EPERM;
	}
	run_init(&run, &root, &cfg, mode, o->privileged);
	files = run_publishes(o, &run);
	/* a boot run that hangs (and is killed by the unit's timeout) must not leave the last
	 * verdict standing: apply says "not finished" first, Apply=no too */
	if (files && (run_writes(&run) || mode == RUN_APPLY))
		publish_in_progress(&root, &cfg, mode);
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
	if (r >= 0) {
		r = run_publish(&run);
		if (r < 0)
			report_done(&rep);
	}
	incomplete = run.revert_incomplete;
	run_done(&run);
	if (r < 0)
		return r;
	r = emit(o, &root, cfg_ok ? &cfg : NULL, &rep, files, started);
	/* revert succeeds when every recorded original is back; readiness is reported */
	if (r >= 0 && mode == RUN_REVERT)
		r = incomplete ? EXIT_NOT_READY : EXIT_READY;
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

const struct command apply_command = {
	.name = "apply",
	.run = cmd_apply,
	.help = "apply [--dry-run]   plan, write (when [Host] Apply=yes), verify, report",
	.flags = COMMAND_DRY_RUN | COMMAND_PUBLISH,
};

const struct command check_command = {
	.name = "check",
	.run = cmd_check,
	.help = "check               read-only evaluation and report",
	.flags = COMMAND_PUBLISH,
};

const struct command revert_command = {
	.name = "revert",
	.run = cmd_revert,
	.help = "revert              restore every recorded original value",
};
