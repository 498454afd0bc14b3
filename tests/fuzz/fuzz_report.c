// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.json as `hostprep status` reads it (src/report/report-file.c: report_read() is
 * sysroot_read_file() and report_from_json_string(); the target calls the latter, since under
 * ASan the former's 16 MiB read buffer costs 10 ms per input) and renders it
 * (text with and without colour, JSON, the summary line). A report that is accepted is
 * written back as JSON and must read back to the same JSON: status never shows less than
 * what was stored.
 */
#include "fuzz.h"
#include "report/sinks.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_set_max_level(LOG_DEBUG);
	return 0;
}

static void render_all(const struct report *rep)
{
	_cleanup_(freep) char *buf = NULL, *line = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	fuzz_assert(f);
	fuzz_assert(render_text(rep, f, false, TABLE_WIDTH_MAX) >= 0);
	fuzz_assert(render_text(rep, f, true, 0) >= 0);
	fuzz_assert(render_json(rep, f) >= 0);
	fuzz_assert(fclose(f) == 0);
	fuzz_assert(summary_line(rep, &line) >= 0 && line);
}

static void check_round_trip(const struct report *rep)
{
	_cleanup_(freep) char *first = NULL, *second = NULL;
	_cleanup_(report_done) struct report again = {};

	fuzz_assert(report_to_json_string(rep, &first) == 0);
	fuzz_assert(report_from_json_string(first, &again) == 0);
	fuzz_assert(report_to_json_string(&again, &second) == 0);
	fuzz_assert(streq(first, second));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);
	_cleanup_(report_done) struct report rep = {};

	if (report_from_json_string(s, &rep) < 0)
		return 0;
	render_all(&rep);
	check_round_trip(&rep);
	return 0;
}
