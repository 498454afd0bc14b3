// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One glance, one cause, one action (issue 27): a result's action, severity and cause in
 * the model, the JSON and its reader; the text table grouped by cause, with ACTUAL given
 * the room; status --oneline naming causes; the summary line and the metrics naming the
 * areas that warn.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/sink-config.h"
#include "report/sinks.h"

static void report_init(struct report *r)
{
	*r = (struct report){
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup("0.1.0"),
		.command = strdup("check"),
		.host = strdup("node1"),
		.time_sec = 1795327200u,
	};
	assert_non_null(r->command);
}

static void add(struct report *r, enum verdict v, enum action a, const char *cause,
		const char *check, const char *object, const char *actual, const char *remedy)
{
	assert_int_equal(results_add(&r->results,
				     &(const struct result_spec){
					     .verdict = v,
					     .check = check,
					     .object = object,
					     .expected = "e",
					     .actual = actual,
					     .remedy = remedy,
					     .action = a,
					     .cause = cause,
				     }),
			 0);
}

/* 3 ACS ports of one cause, one IB port down, an AllowDown port, an ACS warn elsewhere. */
static void report_hgx(struct report *r)
{
	report_init(r);
	add(r, VERDICT_FAIL, ACTION_APPLY, NULL, "acs", "0000:15:01.0", "0x001d", "hostprep apply");
	add(r, VERDICT_PASS, ACTION_APPLY, "x", "iommu.mode", "host", "pt", "never shown");
	add(r, VERDICT_FAIL, ACTION_APPLY, NULL, "acs", "0000:17:00.0", "0x001d", "hostprep apply");
	add(r, VERDICT_FAIL, ACTION_CABLE, "down", "rdma.port", "mlx5_0/1", "DOWN/Polling",
	    "ibstat mlx5_0 1");
	add(r, VERDICT_FAIL, ACTION_APPLY, NULL, "acs", "0000:17:01.0", "0x005d", "hostprep apply");
	add(r, VERDICT_WARN, ACTION_CONFIG, NULL, "topology.p2p", "GPU0", "via the CPU", NULL);
}

static char *text_of(const struct report *r, size_t width)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(render_text(r, f, false, width), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The model: a pass needs nothing; the cause is "check:word", the action's name by default. */
static void test_model(void **state)
{
	struct report r;
	const struct result *it;

	report_hgx(&r);
	it = r.results.items;
	assert_int_equal(it[0].action, ACTION_APPLY);
	assert_string_equal(it[0].cause, "acs:apply");
	assert_int_equal(it[0].severity, SEVERITY_CRITICAL);
	assert_int_equal(it[1].action, ACTION_NONE); /* a pass, whatever the module said */
	assert_null(it[1].cause);
	assert_int_equal(it[1].severity, SEVERITY_NONE);
	assert_string_equal(it[3].cause, "rdma.port:down");
	assert_int_equal(it[5].severity, SEVERITY_WARNING);
	assert_string_equal(it[5].cause, "topology.p2p:config");
	for (int v = 0; v < _VERDICT_MAX; v++)
		assert_int_equal(severity_from_string(severity_to_string(severity_of_verdict(v))),
				 severity_of_verdict(v));
	for (int a = 0; a < _ACTION_MAX; a++)
		assert_int_equal(action_from_string(action_to_string(a)), a);
	assert_int_equal(action_from_string("rma"), -EINVAL);
	assert_int_equal(severity_of_verdict(VERDICT_UNKNOWN), SEVERITY_ERROR);
	assert_int_equal(severity_of_verdict(VERDICT_SKIP), SEVERITY_INFO);
	report_done(&r);
}

/* The JSON names severity, action and cause; the reader gives back the same report. */
static void test_json_round_trip(void **state)
{
	_cleanup_(freep) char *s = NULL, *again = NULL;
	struct report r, back;

	report_hgx(&r);
	assert_int_equal(report_to_json_string(&r, &s), 0);
	assert_non_null(strstr(s, "\"verdict\": \"fail\",\n"
				  "      \"severity\": \"critical\",\n"
				  "      \"action\": \"cable\",\n"
				  "      \"cause\": \"rdma.port:down\",\n"));
	assert_non_null(strstr(s, "\"verdict\": \"pass\",\n"
				  "      \"severity\": \"none\",\n"
				  "      \"action\": \"none\",\n"
				  "      \"cause\": null,\n"));
	assert_int_equal(report_from_json_string(s, &back), 0);
	assert_int_equal(report_to_json_string(&back, &again), 0);
	assert_string_equal(s, again);
	report_done(&back);
	report_done(&r);
}

static int parse_edited(const char *json, const char *from, const char *to)
{
	_cleanup_(freep) char *e = NULL;
	const char *at = strstr(json, from);
	struct report back;
	int k;

	assert_non_null(at);
	assert_true(asprintf(&e, "%.*s%s%s", (int)(at - json), json, to, at + strlen(from)) > 0);
	k = report_from_json_string(e, &back);
	if (k >= 0)
		report_done(&back);
	return k;
}

/* A cause of another check, an unknown action, a severity against the verdict: damaged. */
static void test_json_reader(void **state)
{
	_cleanup_(freep) char *s = NULL;
	struct report r;

	report_hgx(&r);
	assert_int_equal(report_to_json_string(&r, &s), 0);
	assert_int_equal(
		parse_edited(s, "\"cause\": \"rdma.port:down\"", "\"cause\": \"acs:down\""),
		-EBADMSG);
	assert_int_equal(
		parse_edited(s, "\"cause\": \"rdma.port:down\"", "\"cause\": \"rdma.port:\""),
		-EBADMSG);
	assert_int_equal(parse_edited(s, "\"action\": \"cable\"", "\"action\": \"pray\""),
			 -EBADMSG);
	assert_int_equal(parse_edited(s, "\"severity\": \"critical\"", "\"severity\": \"warning\""),
			 -EBADMSG);
	/* a report written before these fields existed (schema 1 all the same) still reads */
	assert_int_equal(parse_edited(s,
				      "\"severity\": \"critical\",\n      \"action\": \"cable\",\n"
				      "      \"cause\": \"rdma.port:down\",\n",
				      ""),
			 0);
	report_done(&r);
}

/* One row per cause: its other objects on one line, its remedy once; a pass stays its own. */
static void test_text_grouped(void **state)
{
	_cleanup_(freep) char *s = NULL;
	struct report r;

	report_hgx(&r);
	s = text_of(&r, TABLE_WIDTH_MAX);
	assert_string_equal(s, "hostprep check on node1 — 2026-11-22T06:00:00Z\n"
			       "VERDICT  CHECK         OBJECT        EXPECTED  ACTUAL\n"
			       "FAIL     acs           0000:15:01.0  e         0x001d\n"
			       "  + 2 more (acs:apply): 0000:17:00.0, 0000:17:01.0\n"
			       "  → hostprep apply\n"
			       "PASS     iommu.mode    host          e         pt\n"
			       "FAIL     rdma.port     mlx5_0/1      e         DOWN/Polling\n"
			       "  → ibstat mlx5_0 1\n"
			       "WARN     topology.p2p  GPU0          e         via the CPU\n"
			       "\n"
			       "NOT READY: 4 fail, 1 warn, 1 pass (warn: topology)\n");
	free(s);
	/* -v: every result on its own row, each with its remedy */
	s = text_of(&r, 0);
	assert_non_null(strstr(s, "FAIL     acs           0000:17:01.0  e         0x005d\n"
				  "  → hostprep apply\n"));
	assert_null(strstr(s, "more ("));
	report_done(&r);
}

/*
 * At a width, a long OBJECT is printed whole and the row goes on below; a long EXPECTED is
 * cut, and on a narrow terminal gives ACTUAL its columns; ACTUAL and the remedy wrap at
 * spaces below their column, nothing of them cut.
 */
static void test_text_room(void **state)
{
	_cleanup_(freep) char *s = NULL;
	struct report r;

	report_init(&r);
	assert_int_equal(
		results_add(&r.results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "links",
				    .object = "GPU0 (0000:18:00.0) <-> NIC0 (0000:1a:00.0)",
				    .expected = "802.3ad, miimon > 0, every slave up, LACP",
				    .actual = "0x001d -> 0x005d after the write, read back twice",
				    .remedy = "reseat the card in slot 3, then reboot",
				    .action = ACTION_HARDWARE,
			    }),
		0);
	s = text_of(&r, 80);
	assert_string_equal(
		s, "hostprep check on node1 — 2026-11-22T06:00:00Z\n"
		   "VERDICT  CHECK  OBJECT            EXPECTED      ACTUAL\n"
		   "FAIL     links  GPU0 (0000:18:00.0) <-> NIC0 (0000:1a:00.0)\n"
		   "                                  802.3ad, mi…  0x001d -> 0x005d after the\n"
		   "                                                write, read back twice\n"
		   "  → reseat the card in slot 3, then reboot\n"
		   "\n"
		   "NOT READY: 1 fail\n");
	report_done(&r);
}

/* status --oneline: causes, each once with its first object and how many more, no actual. */
static void test_oneline(void **state)
{
	_cleanup_(freep) char *s = NULL, *ready = NULL;
	struct report r;

	report_hgx(&r);
	assert_int_equal(summary_oneline(&r, &s), 0);
	assert_string_equal(s, "NOT READY: acs:apply 0000:15:01.0 +2; rdma.port:down mlx5_0/1");
	report_done(&r);

	report_init(&r);
	add(&r, VERDICT_PASS, ACTION_NONE, NULL, "acs", "0000:15:01.0", "0x0000", NULL);
	add(&r, VERDICT_WARN, ACTION_CONFIG, NULL, "acs.cmdline", "host", "none", NULL);
	add(&r, VERDICT_WARN, ACTION_CONFIG, NULL, "rdma.env", "host", "none", NULL);
	add(&r, VERDICT_PASS, ACTION_NONE, NULL, "rdma.port", "mlx5_0/1", "ACTIVE", NULL);
	assert_int_equal(summary_oneline(&r, &ready), 0);
	assert_string_equal(ready, "READY: 2 pass, 2 warn (warn: acs, rdma)");
	report_done(&r);
}

/* hostprep_area_state: each area once, its worst verdict. */
static void test_prom_areas(void **state)
{
	_cleanup_(freep) char *s = NULL;
	struct report r;

	report_hgx(&r);
	assert_int_equal(prom_render(&r, 0, &s), 0);
	assert_non_null(strstr(s, "# TYPE hostprep_area_state gauge\n"
				  "hostprep_area_state{area=\"acs\",state=\"fail\"} 1\n"
				  "hostprep_area_state{area=\"iommu\",state=\"pass\"} 1\n"
				  "hostprep_area_state{area=\"rdma\",state=\"fail\"} 1\n"
				  "hostprep_area_state{area=\"topology\",state=\"warn\"} 1\n"
				  "# HELP hostprep_last_run_timestamp_seconds"));
	report_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),	    cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_reader), cmocka_unit_test(test_text_grouped),
		cmocka_unit_test(test_text_room),   cmocka_unit_test(test_oneline),
		cmocka_unit_test(test_prom_areas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
