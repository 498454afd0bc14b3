// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Xid module ([Xid]): the kernel log of the current boot, read once at verify time,
 * judged for NVIDIA Xid (xid.gpu, per GPU slot) and SXid (xid.sxid, per NVSwitch) lines
 * and the signatures operators grep for (kernel.log: a PCIe link below its capability,
 * AER errors, DPC containment, a module's unknown symbol). Check only; never blocks: the
 * journal's kernel records of this boot where it has them (journal.c: files, read to their
 * end), else the live log read O_NONBLOCK until EAGAIN; at most MaxRecords= records.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/sysroot.h"
#include "run/run.h"
#include "xid/xid.h"

#define CHECK_GPU  "xid.gpu"
#define CHECK_SXID "xid.sxid"
#define CHECK_KLOG "kernel.log"

static const char remedy_unreadable[] =
	"run hostprep as root (reading the kernel log needs CAP_SYSLOG, or sysctl "
	"kernel.dmesg_restrict=0); under --root, the tree's dev/kmsg is a file of kmsg records "
	"(hostprep snapshot writes it)";
static const char remedy_capped[] =
	"raise MaxRecords= in [Xid] (the kernel log holds more records than it allows); meanwhile "
	"dmesg | grep -e Xid -e SXid -e AER -e DPC";

/* --- reading ------------------------------------------------------------------------------ */

#define RECORD_BUF 16384 /* a record is at most 8 KiB (CONSOLE_EXT_LOG_MAX) */

/* /dev/kmsg: one record per read(2), EAGAIN at the end (O_NONBLOCK), EPIPE for a record the
 * kernel overwrote since the last read (the next read goes on after it). */
static int read_live(int fd, struct xid_scan *s)
{
	char buf[RECORD_BUF];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		char *nl;
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0 && errno != EPIPE)
			return -errno;
		if (n == 0)
			return 0;
		if (s->records + s->malformed + s->lost >= s->max_records) {
			s->capped = true; /* a record (or a loss) past the bound */
			return 0;
		}
		if (n < 0) {
			s->lost++;
			continue;
		}
		buf[n] = '\0';
		nl = strchr(buf, '\n');
		if (nl) /* the dictionary lines after it are not judged */
			*nl = '\0';
		r = xid_scan_line(s, buf);
		if (r < 0)
			return r;
	}
}

static int read_file(int fd, struct xid_scan *s)
{
	_cleanup_(fclosep) FILE *f = fdopen(fd, "re");

	if (!f) {
		close(fd);
		return -errno;
	}
	return xid_scan_file(s, f);
}

/*
 * The host's /dev/kmsg (a character device), or below --root a regular file of records: a
 * device node in a tree is not that tree's log, and a FIFO is no log at all (-EBADFD).
 */
static int read_log(const struct run *run, struct xid_scan *s)
{
	int fd = sysroot_openat(run->root, SYSROOT_DEV, O_RDONLY | O_NONBLOCK, XID_KMSG);
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (S_ISREG(st.st_mode))
		return read_file(fd, s);
	if (S_ISCHR(st.st_mode) && sysroot_is_host(run->root)) {
		int r = read_live(fd, s);

		close(fd);
		return r;
	}
	close(fd);
	return -EBADFD;
}

/* --- results ------------------------------------------------------------------------------ */

struct check_text {
	const char *check;
	const char *expected;
	const char *none; /* "no Xid" */
};

static const struct check_text texts[] = {
	{ CHECK_GPU, "no Xid that needs action", "no Xid" },
	{ CHECK_SXID, "no SXid that needs action", "no SXid" },
	{ CHECK_KLOG, "no degraded link, AER/DPC error, unknown symbol",
	  "no degraded link, AER/DPC error or unknown symbol" },
};

static int check_of(enum kmsg_kind k)
{
	return k == KMSG_XID ? 0 : k == KMSG_SXID ? 1 : 2;
}

static const char *source(const struct xid_scan *s)
{
	return s->journal > 0 ? "journal" : "kmsg";
}

/* Why /dev/kmsg was read although the root has a journal. */
static void journal_note(const struct xid_scan *s, struct strbuf *b)
{
	if (s->journal == 0)
		strbuf_printf(b, "; the journal holds no kernel record of this boot");
	else if (s->journal == -EOPNOTSUPP)
		strbuf_printf(b, "; the journal not read: no libsystemd");
	else if (s->journal < 0 && s->journal != -ENOENT)
		strbuf_printf(b, "; the journal not read: %s", strerror(-s->journal));
}

/* ", from seq S on ..., M records not in the kernel's format": what the count leaves out. */
static void scan_notes(const struct xid_scan *s, struct strbuf *b)
{
	journal_note(s, b);
	if (s->records && s->first_seq)
		strbuf_printf(b,
			      "; from record %" PRIu64 " on: the kernel's buffer no longer holds "
			      "the earlier ones",
			      s->first_seq);
	if (s->lost)
		strbuf_printf(b, "; %" PRIu64 " overwritten while read", s->lost);
	if (s->malformed)
		strbuf_printf(b, "; %" PRIu64 " lines not in the kernel's format, skipped",
			      s->malformed);
	if (s->dropped)
		strbuf_printf(b, "; %zu more findings not itemised", s->dropped);
}

/* The host line of one check: nothing found (pass), or the cap stopped the read (warn). */
static int host_result(struct run *run, const struct xid_config *xc, const struct xid_scan *s,
		       const struct check_text *t)
{
	_cleanup_(strbuf_done) struct strbuf b = {};
	_cleanup_(freep) char *actual = NULL;

	if (s->capped)
		strbuf_printf(&b,
			      "%s in the first %" PRIu64
			      " records (%s); stopped at MaxRecords=%" PRIu64
			      ": the later records of this boot were not read",
			      t->none, s->records + s->malformed, source(s), xc->max_records);
	else
		strbuf_printf(&b, "%s since boot (%s: %" PRIu64 " records read)", t->none,
			      source(s), s->records);
	scan_notes(s, &b);
	if (strbuf_take(&b, &actual) < 0)
		return -ENOMEM;
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = s->capped ? VERDICT_WARN : VERDICT_PASS,
				   .check = t->check,
				   .object = "host",
				   .expected = t->expected,
				   .actual = actual,
				   .remedy = s->capped ? remedy_capped : NULL,
				   .action = ACTION_CONFIG,
				   .cause = "capped",
			   });
}

static void when_text(struct strbuf *b, const struct xid_finding *f)
{
	if (f->count == 1)
		strbuf_printf(b, " at %" PRIu64 ".%06" PRIu64 " s since boot",
			      f->first_usec / 1000000, f->first_usec % 1000000);
	else
		strbuf_printf(b,
			      ", %zu times from %" PRIu64 ".%06" PRIu64 " to %" PRIu64 ".%06" PRIu64
			      " s since boot",
			      f->count, f->first_usec / 1000000, f->first_usec % 1000000,
			      f->last_usec / 1000000, f->last_usec % 1000000);
}

static const char *const kind_names[_KMSG_KIND_MAX] = {
	[KMSG_XID] = "Xid",
	[KMSG_SXID] = "SXid",
	[KMSG_LINK_LIMITED] = "PCIe link below its capability",
	[KMSG_AER_COR] = "AER corrected error",
	[KMSG_AER_NONFATAL] = "AER uncorrected non-fatal error",
	[KMSG_AER_FATAL] = "AER uncorrected fatal error",
	[KMSG_DPC] = "DPC containment event (the link was taken down)",
	[KMSG_UNKNOWN_SYMBOL] = "module load failed on an unknown symbol",
};

/* What the code means: the table's words, the line's severity, or "not in the table". */
static const char *meaning(const struct kmsg_match *m)
{
	const struct xid_code *x = xid_lookup(m->kind == KMSG_SXID, m->code);

	if (m->kind == KMSG_SXID)
		return m->cls == XID_CLASS_NONE	       ? "non-fatal"
		       : m->cls == XID_CLASS_RESET_GPU ? "fatal"
						       : "severity not stated";
	return x ? x->meaning : "not in hostprep's table";
}

static int actual_text(const struct run *run, const struct xid_scan *s, const struct xid_finding *f,
		       const struct xid_ignore *ig, char **ret)
{
	_cleanup_(strbuf_done) struct strbuf b = {};

	if (f->m.kind == KMSG_XID || f->m.kind == KMSG_SXID)
		strbuf_printf(&b, "%s %u", kind_names[f->m.kind], f->m.code);
	else
		strbuf_printf(&b, "%s", kind_names[f->m.kind]);
	when_text(&b, f);
	if (s->journal > 0) /* /dev/kmsg, the source of old, says nothing */
		strbuf_printf(&b, " (journal)");
	if (f->m.kind == KMSG_XID || f->m.kind == KMSG_SXID)
		strbuf_printf(&b, ": %s", meaning(&f->m));
	if (ig)
		strbuf_printf(&b, " (ignored: %s at %s:%u)",
			      f->m.kind == KMSG_SXID ? "IgnoreSXid=" : "Ignore=",
			      sysroot_strip(run->root, ig->at.file), ig->at.line);
	strbuf_printf(&b, " [%s]", f->line);
	return strbuf_take(&b, ret);
}

static const char *const class_remedies[_XID_CLASS_MAX] = {
	[XID_CLASS_RESTART_APP] =
		"the application on GPU %s failed (its pid and name are in the line): restart it; "
		"if other applications fail the same way, run dcgmi diag -r 2 on the GPU",
	[XID_CLASS_RESET_GPU] =
		"drain the GPU's jobs, then nvidia-smi -r -i %s, or reboot; the line stays in this "
		"boot's log: after the reset add its code to Ignore= for this boot, or reboot",
	[XID_CLASS_REBOOT] = "drain and reboot the node; if it returns after the reboot, reseat "
			     "GPU %s and check its riser and power (field service)",
	[XID_CLASS_SERVICE] = "drain the node and open a service case for GPU %s "
			      "(nvidia-bug-report.sh); a reset does not repair it",
	[XID_CLASS_UNKNOWN] = "look the code up in NVIDIA's Xid catalogue "
			      "(docs.nvidia.com/deploy/xid-errors) for GPU %s; if the site "
			      "accepts it, add it to Ignore= (SXid: IgnoreSXid=)",
};

/* Fabric Manager User Guide: a fatal NVSwitch error needs the switches and GPUs reset. */
static const char remedy_sxid_fatal[] =
	"a fatal error on NVSwitch %s: drain the node, stop nvidia-fabricmanager, reset the GPUs "
	"and NVSwitches (nvidia-smi -r) and start it again, or reboot; the line stays in this "
	"boot's log: after the reset add its code to IgnoreSXid= for this boot, or reboot";

static int nv_result(struct run *run, const struct xid_config *xc, const struct xid_scan *s,
		     const struct xid_finding *f)
{
	const struct xid_ignore *ig = xid_ignored(xc, f->m.kind == KMSG_SXID, f->m.code);
	_cleanup_(freep) char *actual = NULL;
	enum xid_class c = f->m.cls;
	char remedy[512] = "";

	if (actual_text(run, s, f, ig, &actual) < 0)
		return -ENOMEM;
	if (f->m.kind == KMSG_SXID && c == XID_CLASS_RESET_GPU)
		snprintf(remedy, sizeof(remedy), remedy_sxid_fatal, f->m.object);
	else if (class_remedies[c])
		snprintf(remedy, sizeof(remedy), class_remedies[c], f->m.object);
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = ig ? VERDICT_PASS : xid_class_verdict(c),
				   .check = texts[check_of(f->m.kind)].check,
				   .object = f->m.object,
				   .expected = texts[check_of(f->m.kind)].expected,
				   .actual = actual,
				   .remedy = ig || !remedy[0] ? NULL : remedy,
				   .action = xid_class_action(c),
			   });
}

/* kernel.log's verdicts: a corrected AER error is evidence only, as the [AER] counters. */
static const struct {
	enum verdict verdict;
	enum action action;
	const char *cause;
	const char *remedy;
} klog[_KMSG_KIND_MAX] = {
	[KMSG_LINK_LIMITED] = { VERDICT_WARN, ACTION_HARDWARE, "link",
				"lspci -vv -s %s (LnkSta against LnkCap): reseat the card, its "
				"riser or retimer; a BIOS slot setting can cap the link" },
	[KMSG_AER_COR] = { VERDICT_PASS, ACTION_NONE, "aer", NULL },
	[KMSG_AER_NONFATAL] = { VERDICT_WARN, ACTION_HARDWARE, "aer",
				"dmesg | grep -A4 'AER.*%s' (the error type and agent): the card, "
				"its slot or its firmware" },
	[KMSG_AER_FATAL] = { VERDICT_FAIL, ACTION_HARDWARE, "aer",
			     "dmesg | grep -A4 'AER.*%s': a fatal PCIe error reset the link; "
			     "drain the node, then the card, its slot or its firmware" },
	[KMSG_DPC] = { VERDICT_FAIL, ACTION_HARDWARE, "dpc",
		       "the port %s took its link down (Downstream Port Containment): what sits "
		       "below it is gone until a reset; drain the node, then the card or slot" },
	[KMSG_UNKNOWN_SYMBOL] = { VERDICT_FAIL, ACTION_DRIVER, "symbol",
				  "%s was built against another kernel or RDMA stack (OFED and "
				  "inbox modules mixed): reinstall it for the running kernel, or "
				  "load the stack it was built for" },
};

static int klog_result(struct run *run, const struct xid_scan *s, const struct xid_finding *f)
{
	_cleanup_(freep) char *actual = NULL;
	char remedy[512] = "";

	if (actual_text(run, s, f, NULL, &actual) < 0)
		return -ENOMEM;
	if (klog[f->m.kind].remedy)
		snprintf(remedy, sizeof(remedy), klog[f->m.kind].remedy, f->m.object);
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = klog[f->m.kind].verdict,
						  .check = CHECK_KLOG,
						  .object = f->m.object,
						  .expected = texts[2].expected,
						  .actual = actual,
						  .remedy = remedy[0] ? remedy : NULL,
						  .action = klog[f->m.kind].action,
						  .cause = klog[f->m.kind].cause,
					  });
}

static int judge(struct run *run, const struct xid_config *xc, const struct xid_scan *s)
{
	int r = 0;

	for (size_t t = 0; r >= 0 && t < ARRAY_SIZE(texts); t++) {
		size_t n = 0;

		for (size_t i = 0; r >= 0 && i < s->n; i++) {
			const struct xid_finding *f = &s->f[i];

			if ((size_t)check_of(f->m.kind) != t)
				continue;
			n++;
			r = t < 2 ? nv_result(run, xc, s, f) : klog_result(run, s, f);
		}
		if (r >= 0 && (n == 0 || s->capped))
			r = host_result(run, xc, s, &texts[t]);
	}
	return r;
}

static int unreadable(struct run *run, int err)
{
	int r = 0;

	for (size_t t = 0; r >= 0 && t < ARRAY_SIZE(texts); t++)
		r = results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_UNKNOWN,
				.check = texts[t].check,
				.object = "host",
				.expected = texts[t].expected,
				.remedy = remedy_unreadable,
				.action = ACTION_INSPECT,
			},
			"cannot read %s: %s",
			sysroot_is_host(run->root) ? "the kernel log" : "the tree's kernel log",
			err == -EBADFD	  ? "not a log (a device node or FIFO)"
			: err == -EBADMSG ? "no line of it is a record in the kernel's format"
					  : strerror(-err));
	return r;
}

/* The journal's records of this boot; else (none, or no journal) a fresh scan of /dev/kmsg. */
static int read_sources(const struct run *run, struct xid_scan *s)
{
	int r = xid_scan_journal(s, run->root);

	if (r > 0 || r == -ENOMEM) {
		s->journal = r;
		return r < 0 ? r : 0;
	}
	/* what a failed read left in the scan is dropped: the log is read whole */
	xid_scan_done(s);
	*s = (struct xid_scan){ .max_records = s->max_records, .record = s->record, .journal = r };
	return read_log(run, s);
}

static int xid_verify(struct run *run)
{
	const struct xid_config *xc = xid_config_get(run->cfg);
	_cleanup_(xid_scan_done) struct xid_scan s = {};
	int r;

	if (!xc)
		return 0; /* no [Xid]: nothing read, nothing reported */
	s.max_records = xc->max_records;
	s.record = sysroot_data_recording();
	r = read_sources(run, &s);
	if (r == -ENOMEM)
		return r;
	if (r == 0 && s.records == 0 && s.malformed > 0)
		r = -EBADMSG; /* a log with nothing in the kernel's format was not read */
	if (r < 0)
		return unreadable(run, r);
	if (s.judged.oom)
		return -ENOMEM;
	if (s.record && s.judged.s) /* what a snapshot's replay reads instead */
		sysroot_note_data(SYSROOT_DEV, XID_KMSG, s.judged.s, s.judged.len);
	return judge(run, xc, &s);
}

const struct run_module run_module_xid = {
	.name = "xid",
	.verify = xid_verify,
};
