/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/fact.h"
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

/*
 * What fixes a result that is not a pass, for repair controllers (Slurm drain reasons, NPD
 * conditions, node auto-repair): docs/report-schema.md. New members go before _ACTION_MAX
 * (issue 28's GPU classes: reset-gpu, restart-app, service); the JSON names them, never
 * their numbers.
 */
enum action {
	ACTION_NONE,	  /* nothing to do: a pass, a skip, a note */
	ACTION_APPLY,	  /* hostprep apply fixes it */
	ACTION_CONFIG,	  /* the admin's configuration (hostprep's or the system's) is wrong */
	ACTION_REBOOT,	  /* the next boot fixes it: a persisted option, a boot argument */
	ACTION_DRIVER,	  /* install or upgrade a driver, firmware or package */
	ACTION_CABLE,	  /* field service: a cable, a transceiver, the switch port */
	ACTION_HARDWARE,  /* field service: the board, a slot, the BIOS */
	ACTION_INSPECT,	  /* a person must look: hostprep cannot tell what fixes it */
	ACTION_RESET_GPU, /* reset the GPU (nvidia-smi -r) when idle, or reboot: no service yet */
	/* the application failed, not the host: restart it (an Xid 13 in the kernel log) */
	ACTION_RESTART_APP,
	_ACTION_MAX,
};

/*
 * How much a result matters to a job: the verdict's, named for controllers that key on
 * severity (severity_of_verdict()); one place to refine it per result later.
 */
enum severity {
	SEVERITY_NONE,	   /* pass */
	SEVERITY_INFO,	   /* skip: nothing declared here */
	SEVERITY_WARNING,  /* warn: the host runs jobs, slower or with less margin */
	SEVERITY_ERROR,	   /* unknown: not checked, so not ready */
	SEVERITY_CRITICAL, /* fail: not ready */
	_SEVERITY_MAX,
};

struct result {
	char *check;	/* dotted name: "acs", "acs.write", "acs.cmdline", "iommu.mode" */
	char *object;	/* what was checked: a PCI address, "host", ... */
	char *expected; /* what the config asks for, human-readable */
	char *actual;	/* what was seen */
	enum verdict verdict;
	char *remedy; /* exact next step for the operator; NULL when none */
	char *cause;  /* "check:reason": results with one cause share it (one line, one fix) */
	enum action action;
	enum severity severity;
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
	struct facts facts; /* what the host is (core/fact.h): the Prometheus and NFD sinks' */
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
const char *action_to_string(enum action a);
int action_from_string(const char *s); /* -EINVAL if unknown */
const char *severity_to_string(enum severity s);
int severity_from_string(const char *s); /* -EINVAL if unknown */
enum severity severity_of_verdict(enum verdict v);
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
	/*
	 * Every result that can be other than a pass names its action (tests/lint checks
	 * it); a pass is ACTION_NONE whatever is given, a skip without one too.
	 */
	enum action action;
	/* A word that tells this check's causes apart ("down", "rate"); NULL: the action's name. */
	const char *cause;
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

/*
 * An area: a check's name up to its first '.' ("acs" for acs, acs.cmdline, acs.grub), and
 * the worst verdict of its results. The summary line and the metrics name the areas that
 * warn: a READY host whose P2P detours through the root complex says where.
 */
struct result_area {
	const char *name; /* the first result's check; len bytes of it */
	size_t len;
	enum verdict worst;
};

/* The areas of rs in the order of their first result; *ret malloc'd (NULL when n is 0). */
int results_areas(const struct results *rs, struct result_area **ret, size_t *n);

void report_done(struct report *r);

/* Exit status for a finished run: 0 ready, 1 not ready. */
int summary_exit_status(const struct summary *s);

#define EXIT_READY     0
#define EXIT_NOT_READY 1
#define EXIT_USAGE     2
#define EXIT_INTERNAL  3
