// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log reader of [Xid] (src/xid/kmsg.c): any bytes as the dev/kmsg file a replay
 * reads. What it accepts stays in its bounds (the cap, the findings, each line cut), and
 * what a snapshot records of it (every record, the unjudged text blanked) reads back to the
 * same counts and findings.
 */
#include <stdio.h>

#include "fuzz.h"
#include "xid/xid.h"

#define MAX_RECORDS 512

static void scan(const char *data, size_t size, bool record, struct xid_scan *s)
{
	FILE *f = fmemopen((void *)data, size, "r");

	*s = (struct xid_scan){ .max_records = MAX_RECORDS, .record = record };
	if (!f) /* fmemopen() of 0 bytes */
		return;
	fuzz_assert(xid_scan_file(s, f) == 0);
	fclose(f);
}

static void check_bounds(const struct xid_scan *s)
{
	fuzz_assert(s->records + s->malformed <= MAX_RECORDS);
	fuzz_assert(s->n <= XID_FINDINGS_MAX);
	for (size_t i = 0; i < s->n; i++) {
		fuzz_assert(s->f[i].count > 0);
		fuzz_assert(strlen(s->f[i].line) <= XID_LINE_MAX);
		fuzz_assert(memchr(s->f[i].m.object, '\0', XID_OBJECT_MAX));
		fuzz_assert(s->f[i].m.cls < _XID_CLASS_MAX);
		fuzz_assert(s->f[i].m.kind < _KMSG_KIND_MAX);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(xid_scan_done) struct xid_scan s = {}, again = {};

	scan((const char *)data, size, true, &s);
	check_bounds(&s);
	if (s.judged.oom)
		return 0;
	scan(s.judged.s ? s.judged.s : "", s.judged.len, false, &again);
	fuzz_assert(again.records == s.records && again.malformed == s.malformed);
	fuzz_assert(again.n == s.n && again.first_seq == s.first_seq);
	for (size_t i = 0; i < s.n; i++)
		fuzz_assert(again.f[i].count == s.f[i].count &&
			    again.f[i].m.code == s.f[i].m.code && again.f[i].m.cls == s.f[i].m.cls);
	return 0;
}
