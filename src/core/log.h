/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <syslog.h>

#include "core/macro.h"

/*
 * Diagnostics go to stderr ("hostprep: message"), escaped with log_escape()
 * (a message may quote bytes from a config file). Under systemd stderr is
 * the journal already; results have their own sink (sink-journal.c).
 * log_*_errno() returns -abs(err) so "return log_error_errno(r, ...)" works,
 * and %m in the format prints strerror(err).
 */
void log_set_max_level(int prio);
/*
 * The first error logged since the start (whatever the max level), and how
 * many errors there were: a run that fails on its configuration still puts
 * the reason into the report, so `status` never serves a stale verdict.
 */
const char *log_first_error(void);
unsigned log_error_count(void);

/*
 * s[0..n) made safe for a terminal: valid UTF-8 text is kept; control
 * characters (C0, DEL, C1, bidi overrides), backslash and bytes that are not
 * valid UTF-8 become \n \r \t \\ or \xNN. malloc'd; NULL on ENOMEM.
 */
char *log_escape(const char *s, size_t n);
int log_internal(int prio, int err, const char *fmt, ...) _printf_(3, 4);

#define log_full_errno(prio, err, ...) log_internal((prio), (err), __VA_ARGS__)
#define log_full(prio, ...)	       log_internal((prio), 0, __VA_ARGS__)

#define log_debug(...)	 log_full(LOG_DEBUG, __VA_ARGS__)
#define log_info(...)	 log_full(LOG_INFO, __VA_ARGS__)
#define log_notice(...)	 log_full(LOG_NOTICE, __VA_ARGS__)
#define log_warning(...) log_full(LOG_WARNING, __VA_ARGS__)
#define log_error(...)	 log_full(LOG_ERR, __VA_ARGS__)

#define log_debug_errno(err, ...)   log_full_errno(LOG_DEBUG, (err), __VA_ARGS__)
#define log_warning_errno(err, ...) log_full_errno(LOG_WARNING, (err), __VA_ARGS__)
#define log_error_errno(err, ...)   log_full_errno(LOG_ERR, (err), __VA_ARGS__)

#define log_oom() log_error_errno(ENOMEM, "Out of memory.")
