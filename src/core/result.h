/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"

/*
 * The one result model. Every check of every module produces these; every
 * sink (text, JSON, report file, journal, sd_notify, exit code) renders
 * them and nothing else. Ordered from best to worst: the summary verdict
 * of a run is the worst one seen.
 */
enum verdict {
	VERDICT_PASS,
	VERDICT_SKIP,
	VERDICT_WARN,
	VERDICT_UNKNOWN,
	VERDICT_FAIL,
	_VERDICT_MAX,
};

struct result {
	char *check;	/* dotted name: "acs", "acs.write", "acs.cmdline", "iommu.mode" */
	char *object;	/* what was checked: a PCI address, "host", ... */
	char *expected; /* what the config asks for, human-readable */
	char *actual;	/* what was seen */
	enum verdict verdict;
	char *remedy;	/* exact next step for the operator; NULL when none */
	uint8_t shared; /* strings owned by an earlier result: results_add(), never free them */
};

struct results {
	struct result *items;
	size_t n, alloc;
};

/* A whole run: what the report file stores and `status` reads back. */
struct report {
	int schema;	     /* REPORT_SCHEMA_VERSION when written by us */
	char *version;	     /* hostprep version that wrote it */
	char *command;	     /* "check", "apply", "apply --dry-run", "revert" */
	char *host;	     /* from <root>/proc/sys/kernel/hostname */
	uint64_t time_sec;   /* UNIX time; SOURCE_DATE_EPOCH overrides for tests */
	bool applied;	     /* [Host] Apply=yes was in effect */
	char *config_digest; /* struct config's digest; NULL: no configuration was loaded */
	char **config_files; /* the files that made it, in parse order; NULL-terminated or NULL */
	struct results results;
};

struct summary {
	size_t count[_VERDICT_MAX];
	size_t total;
	enum verdict worst;
	bool ready; /* no fail and no unknown */
};

/* Is s valid UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF)? */
bool text_is_utf8(const char *s);
/*
 * s as it may go into JSON (always valid UTF-8): s itself when it is valid UTF-8; else
 * *buf = s escaped as docs/CONTRACT.md says for messages (every invalid byte \xNN,
 * control characters, backslash), and that is returned. NULL on ENOMEM.
 */
const char *text_json_safe(const char *s, char **buf);
/*
 * s as it may go to a terminal (a table cell): s itself when it is valid UTF-8 without
 * control characters (C0, DEL, C1, bidi controls); else *buf = s escaped as a whole, as
 * text_json_safe() does, so a cell and the report's JSON string read the same. NULL on
 * ENOMEM.
 */
const char *text_terminal_safe(const char *s, char **buf);

/*
 * How much of s (a cell as text_terminal_safe() returns it) fits in cols terminal
 * columns: the number of bytes of s to print. All of s when it fits (*cut false); else
 * (*cut true) the longest prefix of whole units that leaves one column for the caller's
 * "…". A unit is a UTF-8 character (one column) or an escape (\xNN, or a backslash and
 * the character after it), never split.
 */
size_t text_cut(const char *s, size_t cols, bool *cut);

const char *verdict_to_string(enum verdict v);
int verdict_from_string(const char *s); /* -EINVAL if unknown */
int verdict_to_syslog_priority(enum verdict v);

/*
 * What a check found, as the module says it: designated initialisers name each string, so
 * no call can swap two of them. remedy may be NULL (no next step).
 */
struct result_spec {
	enum verdict verdict;
	const char *check;
	const char *object;
	const char *expected;
	const char *actual; /* results_addf(): made from the format instead */
	const char *remedy;
};

/*
 * Copies every string. A string equal to the same field of the previous result is
 * shared with it, not copied (a check of 1400 ports repeats its remedy 1400 times): the
 * strings are read-only and freed by results_done() only.
 */
int results_add(struct results *rs, const struct result_spec *spec);
/* Replace the last result's remedy (n > 0; takes remedy): no later result shares it yet. */
void results_set_last_remedy(struct results *rs, char *remedy);
/* Same, actual as printf format (spec->actual is ignored). */
int results_addf(struct results *rs, const struct result_spec *spec, const char *actual_fmt, ...)
	_printf_(3, 4);
void results_done(struct results *rs);
void results_summarize(const struct results *rs, struct summary *s);
/* The worst verdict of the results from index from on (VERDICT_PASS when there is none). */
enum verdict results_worst_from(const struct results *rs, size_t from);

void report_done(struct report *r);

/* Exit status for a finished run: 0 ready, 1 not ready. */
int summary_exit_status(const struct summary *s);

#define EXIT_READY     0
#define EXIT_NOT_READY 1
#define EXIT_USAGE     2
#define EXIT_INTERNAL  3
