/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/result.h"
#include "core/sysroot.h"

/*
 * Every output of a run renders the one report; nothing here evaluates.
 *
 * Report file: <root>/run/hostprep/report.json, 0644 (status works
 * unprivileged), directory 0755, written temp + fsync + rename.
 */
#define REPORT_SCHEMA_VERSION 1

/*
 * Aligned table; colour only when asked (the caller decides: isatty && !NO_COLOR).
 * width: the line's columns (render_width()): OBJECT and EXPECTED capped, ACTUAL and the
 * remedies wrapped below their column (never cut), EXPECTED cut with "…"; results of one
 * cause (not a pass) are one row; a pass's or skip's ACTUAL is cut with "…". 0 for no
 * limit (-v): every cell whole, every result on its own row. The JSON and journal keep all.
 */
#define TABLE_WIDTH_MAX 120
#define TABLE_WIDTH_MIN 40
int render_text(const struct report *r, FILE *f, bool color, size_t width);
/* $COLUMNS when valid, else the terminal's width when fd is one, else TABLE_WIDTH_MAX. */
size_t render_width(int fd);
/* Pretty JSON, schema REPORT_SCHEMA_VERSION (docs/report-schema.md). */
int render_json(const struct report *r, FILE *f);

/* The same pretty JSON as render_json, with its trailing newline; malloc'd. */
int report_to_json_string(const struct report *r, char **ret);
/* The same, streamed to f as it is made (no tree, no whole string); -EIO on a stream error. */
int report_print_json(const struct report *r, FILE *f);
/*
 * Strict: schema must be REPORT_SCHEMA_VERSION (-EPROTO), every field present
 * and typed, "ready"/"summary" consistent with "results" (-EBADMSG). Unknown
 * extra fields are ignored. Logs the offending field itself; nothing is
 * left allocated on error.
 */
int report_from_json_string(const char *s, struct report *ret);
/* Neither logs I/O errors (the caller does); report_read logs parse errors as above. */
int report_write(const struct report *r, const struct sysroot *root);
/*
 * Remove the report file (a report that cannot be replaced must not stay: no report is
 * NOT READY to every reader, and unlinking needs no space). Logs what fails but ENOENT.
 */
void report_remove(const struct sysroot *root);
/*
 * -ENOENT when no run has written one yet. owner: the euid of the reader; a report not
 * root's (or owner's), writable by group or others, or a symlink is -EPERM: never read,
 * never READY.
 */
int report_read(struct report *ret, const struct sysroot *root, uid_t owner);

/* "2026-11-22T06:00:00Z" (UTC), the report's time format. */
#define REPORT_TIME_MAX 32
int report_format_time(uint64_t sec, char *buf, size_t size);

/*
 * One structured journal entry per result (HOSTPREP_CHECK=, HOSTPREP_OBJECT=,
 * HOSTPREP_EXPECTED=, HOSTPREP_ACTUAL=, HOSTPREP_VERDICT=, HOSTPREP_REMEDY=,
 * PRIORITY from the verdict) and one summary entry with MESSAGE_ID
 * HOSTPREP_SUMMARY_MESSAGE_ID (units/hostprep.catalog). Without a journal
 * (host not booted by systemd, or journald refusing): the summary line on
 * stderr instead, unless echoed (the caller printed the report, summary line
 * included, on stdout). Returns 0 unless out of memory: a sink, not a verdict.
 */
#define HOSTPREP_SUMMARY_MESSAGE_ID "7f3c2a9e5b1d4c6f8a0e2b4d6f8a1c3e"
#define HOSTPREP_RESULT_MESSAGE_ID  "b2e8d4f6a1c34e5b9d7f0a2c4e6b8d10"
int sink_journal(const struct report *r, bool echoed);
/* sd_notify(STATUS=<summary>); a no-op outside systemd. */
int sink_notify(const struct report *r);
/* sd_notify(STATUS=<status>) for a run still in progress (e.g. "waiting for ..."); same rules. */
int sink_notify_status(const char *status);
/*
 * sd_notify(EXTEND_TIMEOUT_USEC=usec): the boot wait ([Host] Wait=) may run past the unit's
 * TimeoutStartSec=; this moves the unit's deadline to usec from now (never earlier than
 * TimeoutStartSec=). A run that hangs sends nothing more and is stopped at that deadline.
 */
#define HOSTPREP_TIMEOUT_MARGIN_USEC (60ULL * 1000000)
int sink_notify_extend_timeout(uint64_t usec);

/*
 * "READY: 5 pass, 1 skip" / "NOT READY: 2 fail, 1 unknown, 3 pass" /
 * "READY: no checks"; zero counts omitted. malloc'd.
 */
int summary_line(const struct report *r, char **ret);
/*
 * One line for monitors (status --oneline, node-problem-detector's 80-character
 * message): the summary line when ready; else "NOT READY: CAUSE OBJECT +N" for the
 * first cause of a failed or unknown result (its first object, how many more share it),
 * the next causes while the line stays within SUMMARY_ONELINE_MAX bytes, then
 * "; +N more". The first item is cut ("...") where it would push "+N more" past the end.
 */
#define SUMMARY_ONELINE_MAX 80
int summary_oneline(const struct report *r, char **ret);
