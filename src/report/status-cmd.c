// SPDX-License-Identifier: GPL-2.0-or-later
/* `hostprep status`: the last report, as the last run that decides the host wrote it. */
#include "cli/cli.h"
#include "core/log.h"
#include "report/sinks.h"
#include "report/status.h"

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

int status_show(const struct options *o, const struct sysroot *root)
{
	struct report rep = {};
	struct summary s;
	int r;

	r = report_read(&rep, root, o->euid);
	if (r == -ENOENT) {
		log_error("No report yet: hostprep has not finished a run since boot; try "
			  "'hostprep check'.");
		oneline_not_ready(o, "no report: hostprep has not finished a run since boot");
		return EXIT_NOT_READY;
	}
	if (r == -ENOMEM)
		return log_oom();
	if (r == -EPERM) {
		log_error("The last report is not root's (a symlink, another owner, or writable "
			  "by group or others): not used; not ready until hostprep runs again.");
		oneline_not_ready(o, "the last report is not root's: not trusted");
		return EXIT_NOT_READY;
	}
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

static int cmd_status(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	return status_show(o, &root);
}

static int set_oneline(struct options *o, char *arg)
{
	o->oneline = true;
	return 0;
}

/* One line is for monitors that read text; --json is the whole report already. */
static int check_status(const struct options *o)
{
	if (o->oneline && o->json) {
		log_error("--oneline is not with --json.");
		return -EINVAL;
	}
	return 0;
}

static const struct command_option status_options[] = {
	{ "oneline", 0, NULL, "one line: READY, or NOT READY and the first problems", set_oneline },
	{}
};

const struct command status_command = {
	.name = "status",
	.run = cmd_status,
	.help = "status [--oneline]  print the last report (unprivileged) / as one line",
	.options = status_options,
	.check = check_status,
};
