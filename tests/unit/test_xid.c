// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * [Xid]: the kernel log's records as /dev/kmsg gives them, the signatures and their classes,
 * the scan (aggregation, continuation lines, truncated records, the cap), the config part.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xid/xid.h"

static void test_parse_record(void **state)
{
	struct kmsg_record r;

	assert_int_equal(kmsg_parse_record("4,812,1234567890,-;NVRM: hello", &r), 0);
	assert_int_equal(r.prio, 4);
	assert_true(r.seq == 812);
	assert_true(r.usec == 1234567890);
	assert_string_equal(r.msg, "NVRM: hello");
	/* later kernels add fields after the flags; the message may hold ';' and be empty */
	assert_int_equal(kmsg_parse_record("6,1,2,c,caller=T12;a;b", &r), 0);
	assert_string_equal(r.msg, "a;b");
	assert_int_equal(kmsg_parse_record("6,1,2,-;", &r), 0);
	assert_string_equal(r.msg, "");

	static const char *const bad[] = {
		"",				   /* nothing */
		"4,812,1234",			   /* a record cut inside its header */
		"4,812,1234,-",			   /* ... before the ';' */
		"4,812,,-;x",			   /* no timestamp */
		"x,812,1,-;x",			   /* no priority */
		"4,812,1;x",			   /* no flags field */
		"4,812,1,;x",			   /* empty flags */
		"4,812,1,- x;y",		   /* a blank in the header */
		" SUBSYSTEM=pci",		   /* a dictionary line */
		"-4,1,1,-;x",			   /* a sign */
		"4,99999999999999999999999,1,-;x", /* past 64 bits */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(kmsg_parse_record(bad[i], &r), -EINVAL);
}

/* one match: kind, object, code, class */
static void want(const char *msg, enum kmsg_kind kind, const char *object, unsigned code,
		 enum xid_class cls)
{
	struct kmsg_match m;

	if (!kmsg_match(msg, &m))
		fail_msg("no match: %s", msg);
	assert_int_equal(m.kind, kind);
	assert_string_equal(m.object, object);
	assert_int_equal(m.code, code);
	assert_int_equal(m.cls, cls);
}

static void test_match_xid(void **state)
{
	struct kmsg_match m;

	want("NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen "
	     "off the bus.",
	     KMSG_XID, "0000:91:00.0", 79, XID_CLASS_REBOOT);
	/* upper-case hex, a function given, no "PCI:" (older drivers), the code last */
	want("NVRM: Xid (0000:AB:00.1): 13", KMSG_XID, "0000:ab:00.1", 13, XID_CLASS_RESTART_APP);
	want("NVRM: Xid (PCI:0000:18:00): 43, pid=1, name=x, Ch 00000008", KMSG_XID, "0000:18:00.0",
	     43, XID_CLASS_NONE);
	want("NVRM: Xid (PCI:0000:18:00): 48, pid=1, DBE", KMSG_XID, "0000:18:00.0", 48,
	     XID_CLASS_RESET_GPU);
	want("NVRM: Xid (PCI:0000:18:00): 64, pid=1", KMSG_XID, "0000:18:00.0", 64,
	     XID_CLASS_SERVICE);
	want("NVRM: Xid (PCI:0000:18:00): 200, pid=1, new", KMSG_XID, "0000:18:00.0", 200,
	     XID_CLASS_UNKNOWN);
	/* a domain of eight digits (VMD) */
	want("NVRM: Xid (PCI:10000:01:00): 13, x", KMSG_XID, "10000:01:00.0", 13,
	     XID_CLASS_RESTART_APP);
	/* Xid 154: the action it changed to */
	want("NVRM: Xid (PCI:0000:18:00): 154, GPU recovery action changed from 0x0 (None) to "
	     "0x1 (GPU Reset Required)",
	     KMSG_XID, "0000:18:00.0", 154, XID_CLASS_RESET_GPU);
	want("NVRM: Xid (PCI:0000:18:00): 154, ... from 0x1 (GPU Reset Required) to 0x2 (Node "
	     "Reboot Required)",
	     KMSG_XID, "0000:18:00.0", 154, XID_CLASS_REBOOT);
	want("NVRM: Xid (PCI:0000:18:00): 154, ... from 0x1 to 0x0 (None)", KMSG_XID,
	     "0000:18:00.0", 154, XID_CLASS_NONE);
	want("NVRM: Xid (PCI:0000:18:00): 154, ... to 0x4 (Drain and Reset)", KMSG_XID,
	     "0000:18:00.0", 154, XID_CLASS_RESET_GPU);
	want("NVRM: Xid (PCI:0000:18:00): 154, ... to 0x7 (System Reboot)", KMSG_XID,
	     "0000:18:00.0", 154, XID_CLASS_UNKNOWN);
	want("NVRM: Xid (PCI:0000:18:00): 154, GPU recovery action changed", KMSG_XID,
	     "0000:18:00.0", 154, XID_CLASS_UNKNOWN);

	static const char *const no[] = {
		"NVRM: Xid (PCI:0000:18:00): 0, zero",	       /* no code 0 */
		"NVRM: Xid (PCI:0000:18:00): x13, word",       /* not a number */
		"NVRM: Xid (PCI:0000:18:00): 13x, word",       /* not followed by a comma */
		"NVRM: Xid (PCI:0000:18:00): 100000, big",     /* past the code space */
		"NVRM: Xid (PCI:0000:18): 13, short",	       /* not an address */
		"NVRM: Xid (PCI:0000:18:00.12): 13, fn",       /* a function of two digits */
		"NVRM: Xid (PCI:0000:18:00) 13, no colon",     /* not the driver's shape */
		"NVRM: GPU at PCI:0000:18:00: GPU-1234",       /* another NVRM line */
		"Xid (PCI:0000:18:00): 13, without NVRM",      /* not the driver's */
		"usb 1-1: new high-speed USB device number 2", /* anything else */
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (kmsg_match(no[i], &m))
			fail_msg("matched: %s", no[i]);
}

static void test_match_sxid(void **state)
{
	want("nvidia-nvswitch3: SXid (PCI:0000:c6:00.0): 20034, Fatal, Link 30 LTSSM Fault Up",
	     KMSG_SXID, "0000:c6:00.0", 20034, XID_CLASS_RESET_GPU);
	want("nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 12028, Non-fatal, Link 44 egress",
	     KMSG_SXID, "0000:06:00.0", 12028, XID_CLASS_NONE);
	want("nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 11004, Severity 3", KMSG_SXID,
	     "0000:06:00.0", 11004, XID_CLASS_UNKNOWN);
}

static void test_match_kernel(void **state)
{
	struct kmsg_match m;

	want("mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s "
	     "PCIe x8 link at 0000:3a:00.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)",
	     KMSG_LINK_LIMITED, "0000:3b:00.0", 0, XID_CLASS_NONE);
	want("mlx5_core 0000:3B:00.1: PCIe bandwidth limited", KMSG_LINK_LIMITED, "0000:3b:00.1", 0,
	     XID_CLASS_NONE);
	/* the AER source the root port names; the old and the Linux 6.x wording */
	want("pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0", KMSG_AER_COR,
	     "0000:01:00.0", 0, XID_CLASS_NONE);
	want("pcieport 0000:00:01.0: AER: Multiple Uncorrected (Non-Fatal) error received: "
	     "0000:01:00.0",
	     KMSG_AER_NONFATAL, "0000:01:00.0", 0, XID_CLASS_NONE);
	want("pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:02:00.0",
	     KMSG_AER_FATAL, "0000:02:00.0", 0, XID_CLASS_NONE);
	want("pcieport 0000:00:01.0: AER: Correctable error message received from 0000:01:00.1",
	     KMSG_AER_COR, "0000:01:00.1", 0, XID_CLASS_NONE);
	want("pcieport 0000:00:01.0: AER: Uncorrectable (Fatal) error message received from "
	     "0000:01:00.0",
	     KMSG_AER_FATAL, "0000:01:00.0", 0, XID_CLASS_NONE);
	/* no source named: the port that printed it */
	want("pcieport 0000:00:01.0: AER: Corrected error received: id=0010", KMSG_AER_COR,
	     "0000:00:01.0", 0, XID_CLASS_NONE);
	want("pcieport 0000:00:03.1: DPC: containment event, status:0x1f01 source:0x0000", KMSG_DPC,
	     "0000:00:03.1", 0, XID_CLASS_NONE);
	want("nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)",
	     KMSG_UNKNOWN_SYMBOL, "nvidia_peermem", 0, XID_CLASS_NONE);

	/* the per-device detail lines of one AER event are not counted again */
	assert_false(kmsg_match("nvidia 0000:01:00.0: AER: PCIe Bus Error: severity=Corrected, "
				"type=Physical Layer, (Receiver ID)",
				&m));
	assert_false(kmsg_match("some words: Unknown symbol foo (err -2)", &m));
	assert_false(kmsg_match(": Unknown symbol foo (err -2)", &m));
}

static void test_classes(void **state)
{
	/* issue 28 §4's codes are all in the table */
	static const unsigned codes[] = { 13, 31, 32, 43, 45, 48,  61,	62,  63,  64,  68, 69,
					  74, 79, 92, 94, 95, 119, 120, 121, 140, 143, 154 };
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		assert_non_null(xid_lookup(false, codes[i]));
	assert_null(xid_lookup(false, 999));
	assert_null(xid_lookup(true, 13)); /* SXid: the line's severity, no table */

	assert_int_equal(xid_class_action(XID_CLASS_NONE), ACTION_NONE);
	assert_int_equal(xid_class_action(XID_CLASS_RESTART_APP), ACTION_RESTART_APP);
	assert_int_equal(xid_class_action(XID_CLASS_RESET_GPU), ACTION_RESET_GPU);
	assert_int_equal(xid_class_action(XID_CLASS_REBOOT), ACTION_REBOOT);
	assert_int_equal(xid_class_action(XID_CLASS_SERVICE), ACTION_HARDWARE);
	assert_int_equal(xid_class_action(XID_CLASS_UNKNOWN), ACTION_INSPECT);
	assert_int_equal(xid_class_verdict(XID_CLASS_NONE), VERDICT_PASS);
	assert_int_equal(xid_class_verdict(XID_CLASS_RESTART_APP), VERDICT_WARN);
	assert_int_equal(xid_class_verdict(XID_CLASS_RESET_GPU), VERDICT_FAIL);
	assert_int_equal(xid_class_verdict(XID_CLASS_REBOOT), VERDICT_FAIL);
	assert_int_equal(xid_class_verdict(XID_CLASS_SERVICE), VERDICT_FAIL);
	assert_int_equal(xid_class_verdict(XID_CLASS_UNKNOWN), VERDICT_WARN);
	assert_string_equal(action_to_string(ACTION_RESTART_APP), "restart-app");
}

/* scan text as a replay reads a file; the scan is left for the caller to look at */
static int scan_text(const char *text, uint64_t max, bool record, struct xid_scan *s)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	assert_non_null(f);
	*s = (struct xid_scan){ .max_records = max, .record = record };
	r = xid_scan_file(s, f);
	fclose(f);
	return r;
}

static const char log_text[] =
	"6,5,100,-;Linux version 6.1.0\n"
	" SUBSYSTEM=cpu\n"
	" DEVICE=+cpu:0\n"
	"4,6,2000000,-;NVRM: Xid (PCI:0000:18:00): 13, pid=1, name=a, first\n"
	"4,7,3500001,-;NVRM: Xid (PCI:0000:18:00): 13, pid=2, name=b, second\n"
	"4,8,4000000,-;NVRM: Xid (PCI:0000:18:00): 154, from 0x0 (None) to 0x1 (GPU Reset)\n"
	"garbage without a header\n"
	"4,9,5000000,-;NVRM: Xid (PCI:0000:18:00): 154, from 0x1 (GPU Reset) to 0x2 (Node Reboot)\n"
	"4,10,6000000,-;NVRM: Xid (PCI:0000:19:00): 13, other GPU\n"
	"4,11,7000000,-;NVRM: Xid (PCI:0000:18:00): 79, pid='<unknown>', GPU has fallen off\n"
	"4,12,7000001"; /* a record cut inside its header: the file ends there */

static void test_scan(void **state)
{
	struct xid_scan s;

	assert_int_equal(scan_text(log_text, 100, false, &s), 0);
	assert_true(s.records == 7);
	assert_true(s.malformed == 2); /* the garbage line and the cut record */
	assert_true(s.first_seq == 5);
	assert_false(s.capped);
	assert_int_equal(s.n, 4);
	/* 0000:18:00.0 Xid 13: twice, its times and its first line */
	assert_int_equal(s.f[0].m.code, 13);
	assert_string_equal(s.f[0].m.object, "0000:18:00.0");
	assert_int_equal(s.f[0].count, 2);
	assert_true(s.f[0].first_usec == 2000000 && s.f[0].last_usec == 3500001);
	assert_string_equal(s.f[0].line, "NVRM: Xid (PCI:0000:18:00): 13, pid=1, name=a, first");
	/* Xid 154: the last action holds */
	assert_int_equal(s.f[1].m.code, 154);
	assert_int_equal(s.f[1].count, 2);
	assert_int_equal(s.f[1].m.cls, XID_CLASS_REBOOT);
	/* another GPU is another finding */
	assert_string_equal(s.f[2].m.object, "0000:19:00.0");
	assert_int_equal(s.f[3].m.code, 79);
	xid_scan_done(&s);

	/* a last record without its newline is still a record */
	assert_int_equal(scan_text("4,1,1,-;NVRM: Xid (PCI:0000:18:00): 13, x", 10, false, &s), 0);
	assert_true(s.records == 1 && s.malformed == 0 && s.n == 1);
	xid_scan_done(&s);
	/*
	 * A program's line written to /dev/kmsg (LOG_USER, prio 12; a daemon's facility 3)
	 * is a record but no driver's Xid; LOG_KERN at any level (prio 0-7) is.
	 */
	assert_int_equal(scan_text("12,1,1,-;NVRM: Xid (PCI:0000:18:00): 79, x\n"
				   "30,2,1,-;NVRM: Xid (PCI:0000:18:00): 79, x\n"
				   "8,3,1,-;NVRM: Xid (PCI:0000:18:00): 79, x\n",
				   10, false, &s),
			 0);
	assert_true(s.records == 3 && s.malformed == 0 && s.n == 0);
	xid_scan_done(&s);
	assert_int_equal(scan_text("7,1,1,-;NVRM: Xid (PCI:0000:18:00): 79, x\n", 10, false, &s),
			 0);
	assert_true(s.records == 1 && s.n == 1);
	xid_scan_done(&s);
		/* an empty log: nothing read, nothing found, not capped */
	assert_int_equal(scan_text("", 10, false, &s), 0);
	assert_true(s.records == 0 && s.n == 0 && !s.capped);
	xid_scan_done(&s);
}

/* An SXid is several lines; only the first says how severe it is. */
static void test_scan_sxid_lines(void **state)
{
	struct xid_scan s;

	assert_int_equal(
		scan_text(
			"4,1,1,-;nvidia-nvswitch2: SXid (PCI:0000:86:00.0): 20034, Fatal, "
			"Link 32 LTSSM Fault Up\n"
			"4,2,1,-;nvidia-nvswitch2: SXid (PCI:0000:86:00.0): 20034, Severity 5 "
			"Engine instance 32 Sub-engine instance 00\n"
			"4,3,1,-;nvidia-nvswitch2: SXid (PCI:0000:86:00.0): 20034, Data "
			"{0x50610002, 0x10100030}\n"
			"4,4,2,-;nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 12028, Non-fatal, "
			"Link 44 egress\n"
			"4,5,2,-;nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 12028, Severity 0\n"
			"4,6,3,-;nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 11004, Severity 1\n"
			"4,7,3,-;nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 11004, Non-fatal, x\n"
			"4,8,3,-;nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 11004, Fatal, y\n"
			"4,9,3,-;nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 11004, Non-fatal, z\n",
			100, false, &s),
		0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.f[0].count, 3);
	assert_int_equal(s.f[0].m.cls, XID_CLASS_RESET_GPU);
	assert_int_equal(s.f[1].m.cls, XID_CLASS_NONE);
	/* stated after a line without it; a fatal line anywhere wins */
	assert_int_equal(s.f[2].m.cls, XID_CLASS_RESET_GPU);
	xid_scan_done(&s);
}

static void test_scan_cap(void **state)
{
	static const char three[] = "6,0,1,-;a\n SUB=x\n6,1,2,-;b\n6,2,3,-;NVRM: Xid "
				    "(PCI:0000:18:00): 79, x\n SUB=y\n";
	struct xid_scan s;

	/* exactly the cap: every record read, not capped (dictionary lines are not records) */
	assert_int_equal(scan_text(three, 3, false, &s), 0);
	assert_true(s.records == 3 && !s.capped && s.n == 1);
	xid_scan_done(&s);
	/* one under: capped, the third never judged */
	assert_int_equal(scan_text(three, 2, false, &s), 0);
	assert_true(s.records == 2 && s.capped && s.n == 0);
	xid_scan_done(&s);
	/* a malformed line counts toward the cap as a record does */
	assert_int_equal(scan_text("x\n6,1,2,-;b\n", 1, false, &s), 0);
	assert_true(s.malformed == 1 && s.records == 0 && s.capped);
	xid_scan_done(&s);
}

static void test_scan_overlong(void **state)
{
	size_t n = 20000;
	char *text = malloc(n + 64);
	struct xid_scan s;

	assert_non_null(text);
	memcpy(text, "6,0,1,-;", 8);
	memset(text + 8, 'a', n - 8);
	strcpy(text + n, "\n6,1,2,-;NVRM: Xid (PCI:0000:18:00): 13, x\n");
	assert_int_equal(scan_text(text, 10, false, &s), 0);
	/* longer than any record: one malformed line, and the next record is read whole */
	assert_true(s.malformed == 1 && s.records == 1 && s.n == 1);
	xid_scan_done(&s);
	free(text);
}

static void test_scan_nul(void **state)
{
	/* a NUL inside a line (the kernel escapes unprintable bytes): not a record, and the
	 * line after it is read whole */
	static const char text[] = "6,0,1,-;NVRM: Xid (PCI:0000:18:00): 13\0, x\n"
				   "6,1,2,-;NVRM: Xid (PCI:0000:19:00): 13, y\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct xid_scan s = { .max_records = 10 };

	assert_non_null(f);
	assert_int_equal(xid_scan_file(&s, f), 0);
	fclose(f);
	assert_true(s.malformed == 1 && s.records == 1 && s.n == 1);
	assert_string_equal(s.f[0].m.object, "0000:19:00.0");
	xid_scan_done(&s);
}

static void test_scan_record(void **state)
{
	struct xid_scan s;

	assert_int_equal(scan_text("6,5,1,-;secret words\n SUB=x\nbad\n4,6,2,c;NVRM: Xid "
				   "(PCI:0000:18:00): 13, y\n",
				   10, true, &s),
			 0);
	/* the records kept, the text of what matched nothing left out */
	assert_string_equal(s.judged.s, "6,5,1,-;\n?\n4,6,2,c;NVRM: Xid (PCI:0000:18:00): 13, y\n");
	xid_scan_done(&s);
}

static void test_scan_findings_bounded(void **state)
{
	struct xid_scan s = { .max_records = 100000 };
	char line[128];

	for (int i = 0; i < XID_FINDINGS_MAX + 3; i++) {
		snprintf(line, sizeof(line), "3,%d,1,-;mod%d: Unknown symbol x (err -2)", i, i);
		assert_int_equal(xid_scan_line(&s, line), 0);
	}
	assert_int_equal(s.n, XID_FINDINGS_MAX);
	assert_int_equal(s.dropped, 3);
	xid_scan_done(&s);
}

static void test_config(void **state)
{
	struct origin at = { "test.conf", 7 };
	const struct xid_config *xc;
	void *st = NULL;
	char many[512] = "";

	assert_int_equal(xid_config_part.section(&st, "Xid", &at, 1), 0);
	xc = st;
	assert_true(xc->max_records == XID_RECORDS_DEFAULT);
	assert_int_equal(xc->n_ignore, 0);
	assert_int_equal(xid_config_part.assign(st, "Ignore", "43  13", &at), 0);
	assert_int_equal(xid_config_part.assign(st, "Ignore", "13", &at), 0); /* once is enough */
	assert_int_equal(xc->n_ignore, 2);
	assert_non_null(xid_ignored(xc, false, 13));
	assert_int_equal(xid_ignored(xc, false, 13)->at.line, 7);
	assert_null(xid_ignored(xc, false, 79));
	assert_null(xid_ignored(xc, true, 13)); /* SXid codes are their own */
	assert_int_equal(xid_config_part.assign(st, "IgnoreSXid", "20034", &at), 0);
	assert_non_null(xid_ignored(xc, true, 20034));
	assert_int_equal(xid_config_part.n_lines(st), 1 + 2 + 1);
	/* an empty assignment empties the list */
	assert_int_equal(xid_config_part.assign(st, "Ignore", "", &at), 0);
	assert_null(xid_ignored(xc, false, 13));
	assert_int_equal(xid_config_part.assign(st, "Ignore", "99999 1", &at), 0);

	static const char *const bad[] = { "0", "-1", "13x", "0x1d", "100000", "013", "1.5", "+3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(xid_config_part.assign(st, "Ignore", bad[i], &at), -EINVAL);
	/* every word is tried: a bad one among good ones is still an error */
	assert_int_equal(xid_config_part.assign(st, "IgnoreSXid", "1 x 2", &at), -EINVAL);
	assert_int_equal(xid_config_part.assign(st, "Ignore", "", &at), 0);
	for (int i = 1; i <= XID_IGNORE_MAX + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%d ", i);
	assert_int_equal(xid_config_part.assign(st, "Ignore", many, &at), -EINVAL);

	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "10000000", &at), 0);
	assert_true(xc->max_records == XID_RECORDS_MAX);
	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "1", &at), 0);
	assert_true(xc->max_records == 1);
	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "", &at), 0);
	assert_true(xc->max_records == XID_RECORDS_DEFAULT);
	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "0", &at), -EINVAL);
	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "10000001", &at), -EINVAL);
	assert_int_equal(xid_config_part.assign(st, "MaxRecords", "many", &at), -EINVAL);
	assert_int_equal(xid_config_part.assign(st, "ignore", "13", &at), -EINVAL);
	assert_int_equal(xid_config_part.finish(st, NULL), 0);
	xid_config_part.free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_record), cmocka_unit_test(test_match_xid),
		cmocka_unit_test(test_match_sxid),   cmocka_unit_test(test_match_kernel),
		cmocka_unit_test(test_classes),	     cmocka_unit_test(test_scan),
		cmocka_unit_test(test_scan_cap),     cmocka_unit_test(test_scan_overlong),
		cmocka_unit_test(test_scan_nul),     cmocka_unit_test(test_scan_sxid_lines),
		cmocka_unit_test(test_scan_record),  cmocka_unit_test(test_scan_findings_bounded),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
