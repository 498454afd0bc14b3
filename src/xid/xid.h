/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "core/result.h"
#include "core/strbuf.h"
#include "run/config.h"

/*
 * [Xid]: what the kernel log of the current boot says about the GPUs, the NVSwitches and
 * the PCIe links, checked only. No [Xid] section (the default): nothing is read.
 *
 *   [Xid]
 *     Ignore=CODE...      Xid codes the site accepts: reported, never judged (a list;
 *                         an empty assignment resets it)
 *     IgnoreSXid=CODE...  the same for NVSwitch SXid codes (a code space of its own)
 *     MaxRecords=N        read at most N records of the log (default 200000): a bound on
 *                         the time a log storm can cost; more records than that is a
 *                         warning naming the bound, never a pass of the unread rest
 *
 * The log: /dev/kmsg, opened O_RDONLY|O_NONBLOCK and read one record per read(2) until
 * EAGAIN (root, or kernel.dmesg_restrict=0). Under --root the same path below the root,
 * a regular file of records as /dev/kmsg gives them ("PRIO,SEQ,USEC,FLAGS;MESSAGE\n",
 * dictionary lines after it begin with a space); `hostprep snapshot` records what the
 * check read there, every message that matched nothing blanked (XID_KMSG below /dev).
 *
 * First, where the root has a journal directory (var/log/journal, run/log/journal), the
 * journal's records of the kernel transport of this boot (_BOOT_ID: the root's
 * proc/sys/kernel/random/boot_id), read through libsystemd (dlopen'd only then): journald
 * keeps the whole boot, /dev/kmsg only what its ring buffer still holds. No record there
 * (no journald, a volatile journal of another boot, no libsystemd, an error): /dev/kmsg,
 * and the results say why. A snapshot keeps the journal's records as a kmsg file (the
 * journal files themselves are not captured), which its replay reads.
 */

#define XID_KMSG "kmsg" /* below SYSROOT_DEV */

#define XID_RECORDS_DEFAULT 200000ULL
#define XID_RECORDS_MAX	    10000000ULL
#define XID_IGNORE_MAX	    64
#define XID_CODE_MAX	    99999U /* Xid codes are < 200 today, SXid codes 5 digits */

struct xid_ignore {
	unsigned code;
	struct origin at;
};

struct xid_config {
	struct config_singleton head; /* must come first */
	struct xid_ignore ignore[XID_IGNORE_MAX];
	size_t n_ignore;
	struct xid_ignore ignore_sxid[XID_IGNORE_MAX];
	size_t n_ignore_sxid;
	uint64_t max_records;
	struct origin max_records_at;
};

extern const struct config_part xid_config_part;
/* c's [Xid] state; NULL when no file gives such a section. */
static inline const struct xid_config *xid_config_get(const struct config *c)
{
	return config_part_state(c, &xid_config_part);
}

/* The Ignore= (sxid false) or IgnoreSXid= entry of code; NULL when it is not ignored. */
const struct xid_ignore *xid_ignored(const struct xid_config *xc, bool sxid, unsigned code);

/*
 * What NVIDIA's catalogue says to do about a code (xid-table.c), as hostprep's actions
 * (src/core/result.h) take it.
 */
enum xid_class {
	XID_CLASS_NONE,	       /* the catalogue's IGNORE: logged, nothing to do */
	XID_CLASS_RESTART_APP, /* the application failed, the GPU did not */
	XID_CLASS_RESET_GPU,   /* reset the GPU (or reboot) */
	XID_CLASS_REBOOT,      /* reboot the node */
	XID_CLASS_SERVICE,     /* field service (the catalogue's CONTACT_SUPPORT) */
	XID_CLASS_UNKNOWN,     /* not in hostprep's table */
	_XID_CLASS_MAX,
};

struct xid_code {
	unsigned code;
	const char *meaning;
	enum xid_class cls;
};

/* The table's entry of an Xid (sxid false) or SXid code; NULL when it has none. */
const struct xid_code *xid_lookup(bool sxid, unsigned code);
/* "none", "restart-app", ...: the class's action name. */
enum action xid_class_action(enum xid_class c);
/* The verdict of a finding of class c that no Ignore= names. */
enum verdict xid_class_verdict(enum xid_class c);
/*
 * Xid 154 carries the action the driver wants in its text ("GPU recovery action changed
 * from 0x0 (None) to 0x1 (GPU Reset Required)"): the class of the action it changed to,
 * XID_CLASS_UNKNOWN when the text says none hostprep knows.
 */
enum xid_class xid_154_class(const char *msg);

/* One record of the kernel log: "PRIO,SEQ,USEC,FLAGS[,...];MESSAGE". */
struct kmsg_record {
	unsigned prio;
	uint64_t seq;
	uint64_t usec; /* since boot (CLOCK_MONOTONIC) */
	const char *msg;
};

/*
 * Parse one record's first line (no newline; the message is what follows the first ';').
 * -EINVAL when the header is not the kernel's (a truncated record included).
 */
int kmsg_parse_record(const char *line, struct kmsg_record *ret);

/* What a message is, for the checks. */
enum kmsg_kind {
	KMSG_XID,	     /* xid.gpu */
	KMSG_SXID,	     /* xid.sxid */
	KMSG_LINK_LIMITED,   /* kernel.log: "available PCIe bandwidth, limited by" */
	KMSG_AER_COR,	     /* kernel.log: AER corrected error received */
	KMSG_AER_NONFATAL,   /* ... uncorrected (non-fatal) */
	KMSG_AER_FATAL,	     /* ... uncorrected (fatal) */
	KMSG_DPC,	     /* kernel.log: DPC containment event */
	KMSG_UNKNOWN_SYMBOL, /* kernel.log: a module's load failed on a symbol */
	_KMSG_KIND_MAX,
};

#define XID_OBJECT_MAX 64

struct kmsg_match {
	enum kmsg_kind kind;
	char object[XID_OBJECT_MAX]; /* a PCI address DDDD:BB:DD.F, or a module name */
	unsigned code;		     /* Xid, SXid; 0 otherwise */
	enum xid_class cls;	     /* Xid, SXid: the table's (154: its text's) */
};

/* Whether msg is one of the signatures (*ret filled), else false. */
bool kmsg_match(const char *msg, struct kmsg_match *ret);

/* Each distinct (kind, object, code) seen, with its first line and times. */
struct xid_finding {
	struct kmsg_match m;
	size_t count;
	uint64_t first_usec, last_usec;
	char *line; /* the first record's message, cut at XID_LINE_MAX */
};

#define XID_LINE_MAX	 240
#define XID_FINDINGS_MAX 512

/* What a read of the log found. */
struct xid_scan {
	uint64_t max_records;
	uint64_t records;   /* well-formed records read */
	uint64_t malformed; /* records not in the kernel's format, skipped */
	uint64_t lost;	    /* records the kernel overwrote while they were read (EPIPE) */
	uint64_t first_seq; /* of the first record read */
	bool capped;	    /* more records than max_records */
	/* the journal's answer: 1 its records were read; else /dev/kmsg's were, the journal
	 * having none of this boot (0), no directory (-ENOENT), or the error */
	int journal;
	struct xid_finding *f;
	size_t n;
	size_t dropped; /* findings past XID_FINDINGS_MAX, counted only */
	/* recording for a snapshot: each record, blanked unless it matched */
	bool record;
	struct strbuf judged;
};

/* Account one record's first line (continuation lines are never passed). -ENOMEM. */
int xid_scan_line(struct xid_scan *s, const char *line);
/*
 * A log file as a replay reads it: records until EOF or the cap (s->max_records; one line
 * more read past it says whether it was hit). Dictionary lines (a leading space) are
 * skipped. -ENOMEM, or a read error.
 */
int xid_scan_file(struct xid_scan *s, FILE *f);
void xid_scan_done(struct xid_scan *s);

struct sysroot;
/*
 * The journal's kernel records of the running boot below root, each scanned as
 * xid_scan_line() (journal.c), at most s->max_records: 1 when it gave records, 0 when none
 * of this boot; -ENOENT when the root has no journal directory, -EOPNOTSUPP without
 * libsystemd, the boot ID's error (gate_boot_id()), -ENOMEM, or the journal's error.
 */
int xid_scan_journal(struct xid_scan *s, const struct sysroot *root);
