// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal and the service manager as sinks. Both are best effort: a
 * host without journald still gets its summary (on stderr), and neither
 * ever turns a finished run into a failed one.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <sys/uio.h>
#include <syslog.h>

#include "core/log.h"
#include "core/sd-dlopen.h"
#include "report/sinks.h"

/* The summary entry is the largest: 6 fixed fields, 5 counts, the total. */
#define FIELDS_MAX 16

struct fields {
	struct iovec iov[FIELDS_MAX];
	size_t n;
};

static void fields_done(struct fields *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->iov[i].iov_base);
	fl->n = 0;
}

/* One "NAME=value" field; values may hold anything but NUL (sd_journal_sendv frames them). */
static _printf_(2, 3) int fields_add(struct fields *fl, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (fl->n >= FIELDS_MAX)
		return -E2BIG;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	fl->iov[fl->n++] = (struct iovec){ .iov_base = s, .iov_len = (size_t)n };
	return 0;
}

static int result_fields(struct fields *fl, const struct result *res, const char *command)
{
	const char *verdict = verdict_to_string(res->verdict);
	int r;

	r = fields_add(fl, "MESSAGE=%s %s: %s — expected %s, actual %s", res->check, res->object,
		       verdict, res->expected, res->actual);
	if (r >= 0)
		r = fields_add(fl, "PRIORITY=%d", verdict_to_syslog_priority(res->verdict));
	if (r >= 0)
		r = fields_add(fl, "MESSAGE_ID=%s", HOSTPREP_RESULT_MESSAGE_ID);
	if (r >= 0)
		r = fields_add(fl, "SYSLOG_IDENTIFIER=hostprep");
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_CHECK=%s", res->check);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_OBJECT=%s", res->object);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_EXPECTED=%s", res->expected);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_ACTUAL=%s", res->actual);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_VERDICT=%s", verdict);
	if (r >= 0 && res->remedy)
		r = fields_add(fl, "HOSTPREP_REMEDY=%s", res->remedy);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_COMMAND=%s", command);
	return r;
}

static const char *const count_fields[_VERDICT_MAX] = {
	[VERDICT_PASS] = "HOSTPREP_PASS", [VERDICT_SKIP] = "HOSTPREP_SKIP",
	[VERDICT_WARN] = "HOSTPREP_WARN", [VERDICT_UNKNOWN] = "HOSTPREP_UNKNOWN",
	[VERDICT_FAIL] = "HOSTPREP_FAIL",
};

static int summary_fields(struct fields *fl, const struct report *rep, const char *line)
{
	const char *command = strempty(rep->command);
	struct summary s;
	int r;

	results_summarize(&rep->results, &s);
	r = fields_add(fl, "MESSAGE=hostprep %s: %s", command, line);
	if (r >= 0)
		r = fields_add(fl, "PRIORITY=%d", s.ready ? LOG_NOTICE : LOG_ERR);
	if (r >= 0)
		r = fields_add(fl, "MESSAGE_ID=%s", HOSTPREP_SUMMARY_MESSAGE_ID);
	if (r >= 0)
		r = fields_add(fl, "SYSLOG_IDENTIFIER=hostprep");
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_COMMAND=%s", command);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_READY=%d", s.ready ? 1 : 0);
	for (int v = 0; v < _VERDICT_MAX && r >= 0; v++)
		r = fields_add(fl, "%s=%zu", count_fields[v], s.count[v]);
	if (r >= 0)
		r = fields_add(fl, "HOSTPREP_TOTAL=%zu", s.total);
	return r;
}

/* < 0: -ENOMEM etc. from building; 1: sent; 0: the journal refused it. */
static int send_fields(struct fields *fl, int built)
{
	int r;

	if (built < 0) {
		fields_done(fl);
		return built;
	}
	r = sym_sd_journal_sendv(fl->iov, (int)fl->n);
	fields_done(fl);
	if (r < 0)
		log_debug_errno(r, "Failed to send to the journal: %m");
	return r >= 0;
}

static int journal_send_all(const struct report *rep, const char *line)
{
	const char *command = strempty(rep->command);
	struct fields fl = {};
	int r;

	for (size_t i = 0; i < rep->results.n; i++) {
		r = send_fields(&fl, result_fields(&fl, &rep->results.items[i], command));
		if (r <= 0)
			return r; /* stop at the first refusal: it will not get better */
	}
	return send_fields(&fl, summary_fields(&fl, rep, line));
}

int sink_journal(const struct report *rep, bool echoed)
{
	_cleanup_(freep) char *line = NULL;
	int r;

	r = summary_line(rep, &line);
	if (r < 0)
		return log_oom();
	/*
	 * sd_journal_send() reports success when the journal socket is absent,
	 * so ask first whether systemd (and with it journald) runs this host.
	 * Without libsystemd there is no journal to talk to either.
	 */
	r = 0;
	if (dlopen_libsystemd(LOG_DEBUG) == 0 && sym_sd_booted() > 0)
		r = journal_send_all(rep, line);
	if (r < 0)
		return log_error_errno(r, "Failed to build journal entries: %m");
	/* no journald (container, chroot, journald down): one line instead, unless the rendered
	 * report on stdout already ends with it (both land in the same log) */
	if (r == 0 && !echoed)
		fprintf(stderr, "hostprep: %s: %s\n", strempty(rep->command), line);
	return 0;
}

int sink_notify_status(const char *status)
{
	_cleanup_(freep) char *msg = NULL;
	int r;

	/*
	 * Not started by systemd: nothing to tell. sd_notify() would return 0 as well, but
	 * only after loading libsystemd (sd-dlopen.h) and faulting in some 190 KiB of it.
	 */
	if (!getenv("NOTIFY_SOCKET"))
		return 0;
	if (dlopen_libsystemd(LOG_WARNING) < 0)
		return 0; /* said once by the loader, not at every status */
	if (asprintf(&msg, "STATUS=%s", status) < 0)
		return log_oom();
	r = sym_sd_notify(0, msg);
	if (r < 0)
		log_warning_errno(r, "Failed to send STATUS= to the service manager, ignoring: %m");
	return 0;
}

int sink_notify_extend_timeout(uint64_t usec)
{
	_cleanup_(freep) char *msg = NULL;
	int r;

	if (!getenv("NOTIFY_SOCKET"))
		return 0;
	if (dlopen_libsystemd(LOG_WARNING) < 0)
		return 0;
	if (asprintf(&msg, "EXTEND_TIMEOUT_USEC=%" PRIu64, usec) < 0)
		return log_oom();
	r = sym_sd_notify(0, msg);
	if (r < 0)
		log_warning_errno(r, "Failed to extend the unit's start timeout, ignoring: %m");
	return 0;
}

int sink_notify(const struct report *rep)
{
	_cleanup_(freep) char *line = NULL;
	int r;

	r = summary_line(rep, &line);
	if (r < 0)
		return log_oom();
	return sink_notify_status(line);
}
