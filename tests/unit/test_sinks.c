// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sinks: text table, JSON, report file, summary line, journal, sd_notify.
 * Reports are built in code; every output is compared byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "core/fileio.h"
#include "core/log.h"
#include "report/sinks.h"
#include "scratch.h"

#define T_2026_11_22_0600 1795327200u

/* ---- helpers ---- */

static void report_init(struct report *r, const char *command)
{
	*r = (struct report){
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup("0.1.0"),
		.command = strdup(command),
		.host = strdup("node1"),
		.time_sec = T_2026_11_22_0600,
	};
	assert_non_null(r->version);
	assert_non_null(r->command);
	assert_non_null(r->host);
}

static void add(struct report *r, enum verdict v, const char *check, const char *object,
		const char *expected, const char *actual, const char *remedy)
{
	assert_int_equal(results_add(&r->results,
				     &(const struct result_spec){
					     .verdict = v,
					     .check = check,
					     .object = object,
					     .expected = expected,
					     .actual = actual,
					     .remedy = remedy,
				     }),
			 0);
}

/* A not-ready run with every column and a pass that carries a (never shown) remedy. */
static void report_mixed(struct report *r)
{
	report_init(r, "check");
	add(r, VERDICT_FAIL, "acs", "0000:3a:00.0", "x0x00xx", "0x001d (SV,RR,CR,UF)",
	    "hostprep apply (set Apply=yes in [Host])");
	add(r, VERDICT_PASS, "acs", "0000:5d:00.0", "x0x00xx", "0x0000", "ignored on pass");
	add(r, VERDICT_UNKNOWN, "iommu.mode", "host", "pt", "unreadable (needs root)",
	    "run as root");
	add(r, VERDICT_SKIP, "acs.cmdline", "host", "-", "not requested", NULL);
}

static char *text_of_width(const struct report *r, bool color, size_t width)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(render_text(r, f, color, width), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *text_of(const struct report *r, bool color)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(render_text(r, f, color, TABLE_WIDTH_MAX), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *summary_of(const struct report *r)
{
	char *s = NULL;

	assert_int_equal(summary_line(r, &s), 0);
	return s;
}

static char *json_of(const struct report *r)
{
	char *s = NULL;

	assert_int_equal(report_to_json_string(r, &s), 0);
	return s;
}

/* Redirect stderr into a temp file, so fallbacks and log lines can be asserted. */
struct capture {
	int saved;
	FILE *tmp;
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(STDERR_FILENO);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), STDERR_FILENO) >= 0);
}

static char *capture_end(struct capture *c)
{
	char *buf = calloc(1, 4096);

	fflush(stderr);
	assert_true(dup2(c->saved, STDERR_FILENO) >= 0);
	close(c->saved);
	rewind(c->tmp);
	assert_non_null(buf);
	fread(buf, 1, 4095, c->tmp);
	fclose(c->tmp);
	return buf;
}

/* ---- summary line ---- */

static void test_summary_ready(void **state)
{
	struct report r;
	char *s;

	report_init(&r, "check");
	add(&r, VERDICT_SKIP, "a", "x", "", "", NULL);
	add(&r, VERDICT_PASS, "b", "x", "", "", NULL);
	add(&r, VERDICT_WARN, "c", "x", "", "", NULL);
	add(&r, VERDICT_PASS, "d", "x", "", "", NULL);
	s = summary_of(&r);
	assert_string_equal(s, "READY: 2 pass, 1 warn, 1 skip (warn: c)");
	free(s);
	report_done(&r);
}

static void test_summary_not_ready(void **state)
{
	struct report r;
	char *s;

	report_init(&r, "check");
	add(&r, VERDICT_PASS, "a", "x", "", "", NULL);
	add(&r, VERDICT_UNKNOWN, "b", "x", "", "", NULL);
	add(&r, VERDICT_FAIL, "c", "x", "", "", NULL);
	add(&r, VERDICT_SKIP, "d", "x", "", "", NULL);
	add(&r, VERDICT_FAIL, "e", "x", "", "", NULL);
	add(&r, VERDICT_WARN, "f", "x", "", "", NULL);
	s = summary_of(&r);
	assert_string_equal(s, "NOT READY: 2 fail, 1 unknown, 1 warn, 1 pass, 1 skip (warn: f)");
	free(s);
	report_done(&r);

	/* unknown alone is enough: it could not be shown to be ready */
	report_init(&r, "check");
	add(&r, VERDICT_UNKNOWN, "b", "x", "", "", NULL);
	s = summary_of(&r);
	assert_string_equal(s, "NOT READY: 1 unknown");
	free(s);
	report_done(&r);
}

static void test_summary_empty(void **state)
{
	struct report r;
	char *s;

	report_init(&r, "check");
	s = summary_of(&r);
	assert_string_equal(s, "NOTHING DECLARED: no rule checked this host");
	free(s);
	/* all skip: nothing was checked, never READY (issue 17 item 6) */
	add(&r, VERDICT_SKIP, "iommu.mode", "host", "any", "not declared", NULL);
	add(&r, VERDICT_SKIP, "acs", "rule gpu-paths", "e", "selects no port", NULL);
	s = summary_of(&r);
	assert_string_equal(s, "NOTHING DECLARED: no rule checked this host (2 skip)");
	free(s);
	add(&r, VERDICT_WARN, "acs", "0000:00:01.0", "e", "vendor rule", NULL);
	s = summary_of(&r);
	assert_string_equal(s, "READY: 1 warn, 2 skip (warn: acs)");
	free(s);
	report_done(&r);
}

/* ---- text ---- */

/*
 * A long ACTUAL and remedy wrap at spaces below their column at the table's width (issue
 * 27: never cut); a word wider than the room stays whole; width 0 keeps each on one line.
 */
static void test_text_width(void **state)
{
	char word[200];
	struct report r;
	char *s;

	memset(word, 'w', 60);
	word[60] = '\0';
	report_init(&r, "check");
	add(&r, VERDICT_FAIL, "acs", "0000:3a:00.0", "x0x00xx",
	    "one two three four five six seven eight", "run this then that and the other");
	add(&r, VERDICT_FAIL, "iommu", "host", "pt", word, word);
	s = text_of_width(&r, false, 40);
	assert_string_equal(s, "hostprep check on node1 — 2026-11-22T06…\n"
			       "VERDICT  CHECK  OBJECT        EXPECTED  ACTUAL\n"
			       "FAIL     acs    0000:3a:00.0  x0x00xx   one two\n"
			       "                                        three four\n"
			       "                                        five six\n"
			       "                                        seven\n"
			       "                                        eight\n"
			       "  → run this then that and the other\n"
			       "FAIL     iommu  host          pt        "
			       "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n"
			       "  → wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n"
			       "\nNOT READY: 2 fail\n");
	free(s);
	s = text_of_width(&r, false, 0);
	assert_non_null(strstr(s, "one two three four five six seven eight\n"));
	assert_null(strstr(s, "…"));
	free(s);
	report_done(&r);
}

static void test_text_table(void **state)
{
	struct report r;
	char *s;

	report_mixed(&r);
	s = text_of(&r, false);
	assert_string_equal(
		s, "hostprep check on node1 — 2026-11-22T06:00:00Z\n"
		   "VERDICT  CHECK        OBJECT        EXPECTED  ACTUAL\n"
		   "FAIL     acs          0000:3a:00.0  x0x00xx   0x001d (SV,RR,CR,UF)\n"
		   "  → hostprep apply (set Apply=yes in [Host])\n"
		   "PASS     acs          0000:5d:00.0  x0x00xx   0x0000\n"
		   "UNKNOWN  iommu.mode   host          pt        unreadable (needs root)\n"
		   "  → run as root\n"
		   "SKIP     acs.cmdline  host          -         not requested\n"
		   "\n"
		   "NOT READY: 1 fail, 1 unknown, 1 pass, 1 skip\n");
	free(s);
	report_done(&r);
}

static void test_text_empty(void **state)
{
	struct report r;
	char *s;

	report_init(&r, "apply --dry-run");
	s = text_of(&r, false);
	assert_string_equal(s, "hostprep apply --dry-run on node1 — 2026-11-22T06:00:00Z\n"
			       "no checks configured\n"
			       "\n"
			       "NOTHING DECLARED: no rule checked this host\n");
	free(s);
	report_done(&r);
}

static void test_text_color_only_when_asked(void **state)
{
	struct report r;
	char *plain, *color;

	report_mixed(&r);
	add(&r, VERDICT_WARN, "bond", "bond0", "802.3ad", "balance-rr", NULL);
	plain = text_of(&r, false);
	color = text_of(&r, true);
	assert_null(strchr(plain, '\033'));
	assert_non_null(strstr(color, "\033[1;31mFAIL\033[0m     acs"));
	assert_non_null(strstr(color, "\033[32mPASS\033[0m     acs"));
	assert_non_null(strstr(color, "\033[31mUNKNOWN\033[0m  iommu"));
	assert_non_null(strstr(color, "\033[90mSKIP\033[0m     acs.cmdline"));
	assert_non_null(strstr(color, "\033[33mWARN\033[0m     bond"));
	/* the header row and the summary stay plain */
	assert_non_null(strstr(color, "\nVERDICT  CHECK"));
	assert_non_null(strstr(
		color, "\n\nNOT READY: 1 fail, 1 unknown, 1 warn, 1 pass, 1 skip (warn: bond)\n"));
	free(plain);
	free(color);
	report_done(&r);
}

static void test_text_remedy_only_for_non_pass(void **state)
{
	struct report r;
	char *s;

	report_init(&r, "check");
	add(&r, VERDICT_PASS, "acs", "a", "e", "ok", "never shown");
	add(&r, VERDICT_FAIL, "acs", "b", "e", "bad", NULL);
	add(&r, VERDICT_WARN, "acs", "c", "e", "meh", "tune it");
	s = text_of(&r, false);
	assert_null(strstr(s, "never shown"));
	assert_non_null(strstr(s, "\nWARN     acs    c       e         meh\n  → tune it\n"));
	/* the fail has no remedy: its row is followed directly by the next row */
	assert_non_null(strstr(s, "\nFAIL     acs    b       e         bad\nWARN "));
	assert_int_equal(strstr(s, "→") - s, strstr(s, "  → tune it") - s + 2);
	free(s);
	report_done(&r);
}

static void test_text_long_and_hostile_cells(void **state)
{
	const char *longobj = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/x"; /* 52 */
	struct report r;
	char *s;

	report_init(&r, "check");
	add(&r, VERDICT_FAIL, "acs", longobj, "e",
	    "a\nb\033[31m\xc2\x9b"
	    "c\xff\\",
	    NULL);
	add(&r, VERDICT_PASS, "acs", "café", "e", "ok", NULL);
	s = text_of(&r, false);
	/* OBJECT capped at 24 columns: the long one is whole, the row goes on below */
	/* escaped as docs/CONTRACT.md says, invalid UTF-8 included (issue 17 item 12) */
	assert_non_null(strstr(s, "0000:01:00.0/x\n"
				  "                                          "
				  "e         a\\nb\\x1b[31m\\xc2\\x9bc\\xff\\\\\n"));
	/* the short row pads to the cap; é is one column */
	assert_non_null(strstr(s, "PASS     acs    café"
				  "                    "
				  "  e         ok\n"));
	assert_null(strchr(s, '\033'));
	free(s);
	report_done(&r);
}

/* ---- JSON ---- */

static const char small_json[] =
	"{\n"
	"  \"schema\": 1,\n"
	"  \"version\": \"0.1.0\",\n"
	"  \"command\": \"apply\",\n"
	"  \"host\": \"node1\",\n"
	"  \"time\": \"2026-11-22T06:00:00Z\",\n"
	"  \"apply\": true,\n"
	"  \"config_digest\": null,\n"
	"  \"config_files\": [\n"
	"  ],\n"
	"  \"ready\": false,\n"
	"  \"summary\": {\n"
	"    \"pass\": 1,\n"
	"    \"skip\": 0,\n"
	"    \"warn\": 0,\n"
	"    \"unknown\": 0,\n"
	"    \"fail\": 1,\n"
	"    \"total\": 2\n"
	"  },\n"
	"  \"results\": [\n"
	"    {\n"
	"      \"check\": \"acs.write\",\n"
	"      \"object\": \"0000:3a:00.0\",\n"
	"      \"expected\": \"0x0000\",\n"
	"      \"actual\": \"0x001d after write\",\n"
	"      \"verdict\": \"fail\",\n"
	"      \"severity\": \"critical\",\n"
	"      \"action\": \"none\",\n"
	"      \"cause\": \"acs.write:none\",\n"
	"      \"remedy\": \"check /sys/bus/pci for \\\"locked\\\" ports\"\n"
	"    },\n"
	"    {\n"
	"      \"check\": \"iommu.mode\",\n"
	"      \"object\": \"host\",\n"
	"      \"expected\": \"pt\",\n"
	"      \"actual\": \"pt\",\n"
	"      \"verdict\": \"pass\",\n"
	"      \"severity\": \"none\",\n"
	"      \"action\": \"none\",\n"
	"      \"cause\": null,\n"
	"      \"remedy\": null\n"
	"    }\n"
	"  ]\n"
	"}\n";

static void report_small(struct report *r)
{
	report_init(r, "apply");
	r->applied = true;
	add(r, VERDICT_FAIL, "acs.write", "0000:3a:00.0", "0x0000", "0x001d after write",
	    "check /sys/bus/pci for \"locked\" ports");
	add(r, VERDICT_PASS, "iommu.mode", "host", "pt", "pt", NULL);
}

static void test_json_exact(void **state)
{
	struct report r;
	char *buf = NULL;
	size_t size;
	FILE *f;

	report_small(&r);
	f = open_memstream(&buf, &size);
	assert_non_null(f);
	assert_int_equal(render_json(&r, f), 0);
	fclose(f);
	assert_string_equal(buf, small_json);
	free(buf);
	report_done(&r);
}

static void assert_reports_equal(const struct report *a, const struct report *b)
{
	assert_int_equal(a->schema, b->schema);
	assert_string_equal(a->version, b->version);
	assert_string_equal(a->command, b->command);
	assert_string_equal(a->host, b->host);
	assert_int_equal(a->time_sec, b->time_sec);
	assert_int_equal(a->applied, b->applied);
	assert_int_equal(a->results.n, b->results.n);
	for (size_t i = 0; i < a->results.n; i++) {
		const struct result *x = &a->results.items[i], *y = &b->results.items[i];

		assert_string_equal(x->check, y->check);
		assert_string_equal(x->object, y->object);
		assert_string_equal(x->expected, y->expected);
		assert_string_equal(x->actual, y->actual);
		assert_int_equal(x->verdict, y->verdict);
		if (x->remedy)
			assert_string_equal(x->remedy, y->remedy);
		else
			assert_null(y->remedy);
	}
}

static void test_json_round_trip(void **state)
{
	struct report r, back = {};
	char *s, *again;

	report_mixed(&r);
	add(&r, VERDICT_WARN, "", "", "", "tab\there, ünïcode, \x01 and \"quotes\"", "");
	s = json_of(&r);
	assert_int_equal(report_from_json_string(s, &back), 0);
	assert_reports_equal(&r, &back);
	again = json_of(&back);
	assert_string_equal(s, again);
	free(s);
	free(again);
	report_done(&back);
	report_done(&r);
}

/* The configuration a run used: printed after "apply", read back the same. */
static void test_json_config(void **state)
{
	struct report r, back = {};
	char *s, *again;

	report_mixed(&r);
	r.config_digest =
		strdup("2e6c2298ca92f72f75391780300322517a6ceb5bb8b1d7757eb4bf35c942057b");
	r.config_files = calloc(3, sizeof(char *));
	assert_non_null(r.config_files);
	r.config_files[0] = strdup("/etc/hostprep/hostprep.conf");
	r.config_files[1] = strdup("/etc/hostprep/hostprep.conf.d/50-\"q\".conf");
	s = json_of(&r);
	assert_non_null(strstr(s,
			       "  \"apply\": false,\n"
			       "  \"config_digest\": \"2e6c2298ca92f72f75391780300322517a6ceb5bb8b1"
			       "d7757eb4bf35c942057b\",\n"
			       "  \"config_files\": [\n"
			       "    \"/etc/hostprep/hostprep.conf\",\n"
			       "    \"/etc/hostprep/hostprep.conf.d/50-\\\"q\\\".conf\"\n"
			       "  ],\n"
			       "  \"ready\": false,\n"));
	assert_int_equal(report_from_json_string(s, &back), 0);
	assert_string_equal(back.config_digest, r.config_digest);
	assert_string_equal(back.config_files[0], r.config_files[0]);
	assert_string_equal(back.config_files[1], r.config_files[1]);
	assert_null(back.config_files[2]);
	again = json_of(&back);
	assert_string_equal(s, again);
	free(s);
	free(again);
	report_done(&back);
	report_done(&r);
}

/* A report written before the fields existed reads as "no configuration known". */
static void test_json_config_absent(void **state)
{
	struct json_object *o = json_tokener_parse(small_json);
	struct report back = {};

	assert_non_null(o);
	json_object_object_del(o, "config_digest");
	json_object_object_del(o, "config_files");
	assert_int_equal(report_from_json_string(json_object_to_json_string(o), &back), 0);
	assert_null(back.config_digest);
	assert_null(back.config_files);
	json_object_put(o);
	report_done(&back);
}

static int parse_with(const char *key, const char *value)
{
	struct json_object *o = json_tokener_parse(small_json);
	struct report back = {};
	int r;

	assert_non_null(o);
	json_object_object_add(o, key, json_tokener_parse(value));
	r = report_from_json_string(json_object_to_json_string(o), &back);
	json_object_put(o);
	if (r < 0)
		assert_null(back.config_files);
	report_done(&back);
	return r;
}

/* Present but mistyped: the report is damaged, as for any other field. */
static void test_json_config_bad(void **state)
{
	assert_int_equal(parse_with("config_digest", "\"abc\""), 0);
	assert_int_equal(parse_with("config_digest", "5"), -EBADMSG);
	assert_int_equal(parse_with("config_files", "[]"), 0);
	assert_int_equal(parse_with("config_files", "\"x\""), -EBADMSG);
	assert_int_equal(parse_with("config_files", "[\"a\", 1]"), -EBADMSG);
	assert_int_equal(parse_with("config_files", "null"), -EBADMSG);
}

/* Parse small_json with one edit applied through json-c, expect error. */
static int parse_edited(void (*edit)(struct json_object *o, const char *key), const char *key)
{
	struct json_object *o = json_tokener_parse(small_json);
	struct report back = { .host = NULL };
	int r;

	assert_non_null(o);
	edit(o, key);
	r = report_from_json_string(json_object_to_json_string(o), &back);
	json_object_put(o);
	/* nothing handed back on error */
	if (r < 0)
		assert_null(back.host);
	report_done(&back);
	return r;
}

static void del_top(struct json_object *o, const char *key)
{
	json_object_object_del(o, key);
}

static void del_result(struct json_object *o, const char *key)
{
	struct json_object *a;

	assert_true(json_object_object_get_ex(o, "results", &a));
	json_object_object_del(json_object_array_get_idx(a, 0), key);
}

static void del_summary(struct json_object *o, const char *key)
{
	struct json_object *s;

	assert_true(json_object_object_get_ex(o, "summary", &s));
	json_object_object_del(s, key);
}

static void set_schema(struct json_object *o, const char *value)
{
	json_object_object_add(o, "schema", json_tokener_parse(value));
}

static void test_json_schema_mismatch(void **state)
{
	struct capture c;
	char *err;

	log_set_max_level(LOG_ERR);
	capture_begin(&c);
	assert_int_equal(parse_edited(set_schema, "2"), -EPROTO);
	err = capture_end(&c);
	assert_non_null(strstr(err, "schema 2"));
	free(err);
	log_set_max_level(LOG_CRIT);
	assert_int_equal(parse_edited(set_schema, "\"1\""), -EPROTO);
	assert_int_equal(parse_edited(del_top, "schema"), -EPROTO);
	/* the unedited document parses: the edits above are what failed */
	assert_int_equal(parse_edited(set_schema, "1"), 0);
}

static void test_json_missing_field(void **state)
{
	static const char *const top[] = { "version", "command", "host",    "time",
					   "apply",   "ready",	 "summary", "results" };
	static const char *const res[] = { "check",  "object",	"expected",
					   "actual", "verdict", "remedy" };
	static const char *const sum[] = { "pass", "skip", "warn", "unknown", "fail", "total" };

	log_set_max_level(LOG_CRIT);
	for (size_t i = 0; i < ARRAY_SIZE(top); i++)
		assert_int_equal(parse_edited(del_top, top[i]), -EBADMSG);
	for (size_t i = 0; i < ARRAY_SIZE(res); i++)
		assert_int_equal(parse_edited(del_result, res[i]), -EBADMSG);
	for (size_t i = 0; i < ARRAY_SIZE(sum); i++)
		assert_int_equal(parse_edited(del_summary, sum[i]), -EBADMSG);
	/* unknown extra fields are compatible */
	assert_int_equal(parse_edited(del_top, "no-such-field"), 0);
}

static int parse_replaced(const char *from, const char *to)
{
	struct report back = {};
	char *s, *at;
	int r;

	at = strstr(small_json, from);
	assert_non_null(at);
	assert_true(asprintf(&s, "%.*s%s%s", (int)(at - small_json), small_json, to,
			     at + strlen(from)) > 0);
	r = report_from_json_string(s, &back);
	report_done(&back);
	free(s);
	return r;
}

static void test_json_bad_values(void **state)
{
	struct capture c;
	char *err;

	log_set_max_level(LOG_ERR);
	capture_begin(&c);
	assert_int_equal(parse_replaced("\"verdict\": \"fail\"", "\"verdict\": \"broken\""),
			 -EBADMSG);
	err = capture_end(&c);
	assert_non_null(strstr(err, "results[0].verdict"));
	assert_non_null(strstr(err, "broken"));
	free(err);
	log_set_max_level(LOG_CRIT);
	assert_int_equal(parse_replaced("\"apply\": true", "\"apply\": \"yes\""), -EBADMSG);
	assert_int_equal(parse_replaced("\"remedy\": null", "\"remedy\": 0"), -EBADMSG);
	assert_int_equal(parse_replaced("06:00:00Z", "06:00:00+01:00"), -EBADMSG);
	assert_int_equal(parse_replaced("06:00:00Z", "06:00:00Z tomorrow"), -EBADMSG);
	assert_int_equal(parse_replaced("\"host\": \"node1\"", "\"host\": null"), -EBADMSG);
	/* derived fields must agree with the results */
	assert_int_equal(parse_replaced("\"ready\": false", "\"ready\": true"), -EBADMSG);
	assert_int_equal(parse_replaced("\"fail\": 1", "\"fail\": 0"), -EBADMSG);
	assert_int_equal(parse_replaced("\"total\": 2", "\"total\": 3"), -EBADMSG);
	assert_int_equal(parse_replaced("\"pass\": 1", "\"pass\": 1"), 0);
}

static void test_json_not_a_report(void **state)
{
	struct report back = {};
	char *trunc;

	log_set_max_level(LOG_CRIT);
	assert_int_equal(report_from_json_string("", &back), -EBADMSG);
	assert_int_equal(report_from_json_string("[1]", &back), -EBADMSG);
	assert_true(asprintf(&trunc, "%s {}", small_json) > 0); /* a whole report, then more */
	assert_int_equal(report_from_json_string(trunc, &back), -EBADMSG);
	free(trunc);
	trunc = strndup(small_json, 300);
	assert_int_equal(report_from_json_string(trunc, &back), -EBADMSG);
	free(trunc);
	assert_int_equal(report_from_json_string(small_json, &back), 0);
	report_done(&back);
}

/* ---- report file ---- */

static void rm_rf(const char *dir)
{
	char *cmd;

	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void test_report_write_read(void **state)
{
	char tmpl[] = "/tmp/test_sinks.XXXXXX", *dir, *path, *content, *json;
	struct report r, back = {};
	struct sysroot root;
	struct dirent *de;
	struct stat st;
	size_t entries = 0;
	DIR *d;

	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(sysroot_init(&root, tmpl), 0);
	report_mixed(&r);
	assert_int_equal(report_write(&r, &root), 0);
	assert_int_equal(report_write(&r, &root), 0); /* replaces, leaves nothing behind */

	assert_true(asprintf(&dir, "%s/run/hostprep", tmpl) > 0);
	assert_true(asprintf(&path, "%s/report.json", dir) > 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	content = scratch_read(path);
	assert_non_null(content);
	json = json_of(&r);
	assert_string_equal(content, json);

	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (streq(de->d_name, ".") || streq(de->d_name, ".."))
			continue;
		assert_string_equal(de->d_name, "report.json"); /* no "report.json.tmp-*" */
		entries++;
	}
	closedir(d);
	assert_int_equal(entries, 1);

	assert_int_equal(report_read(&back, &root, geteuid()), 0);
	assert_reports_equal(&r, &back);

	free(content);
	free(json);
	free(path);
	free(dir);
	report_done(&back);
	report_done(&r);
	sysroot_done(&root);
	rm_rf(tmpl);
}

static void test_report_read_errors(void **state)
{
	char tmpl[] = "/tmp/test_sinks.XXXXXX", *dir, *path;
	struct report back = {};
	struct sysroot root;
	struct capture c;
	char *err;

	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(sysroot_init(&root, tmpl), 0);
	log_set_max_level(LOG_DEBUG);
	capture_begin(&c);
	assert_int_equal(report_read(&back, &root, geteuid()), -ENOENT);
	err = capture_end(&c);
	assert_string_equal(err, ""); /* status says "no report yet"; nothing logged here */
	free(err);
	log_set_max_level(LOG_CRIT);

	/* a file from a newer hostprep, and a torn one, are errors, not "no report" */
	assert_true(asprintf(&dir, "%s/run/hostprep", tmpl) > 0);
	assert_true(asprintf(&path, "%s/report.json", dir) > 0);
	scratch_mkdir_p(dir);
	scratch_write(path, "{\"schema\": 2}\n", 14);
	assert_int_equal(report_read(&back, &root, geteuid()), -EPROTO);
	scratch_write(path, small_json, 200);
	assert_int_equal(report_read(&back, &root, geteuid()), -EBADMSG);
	assert_null(back.host);
	/* one anybody could have written is not read at all: never READY */
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(report_read(&back, &root, geteuid()), -EPERM);
	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(report_read(&back, &root, geteuid()), -EPERM);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(report_read(&back, &root, geteuid()), -EBADMSG);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("report.forged", path), 0);
	scratch_write(path, small_json, 200); /* through the link: report.forged */
	assert_int_equal(report_read(&back, &root, geteuid()), -EPERM);
	free(path);
	free(dir);
	sysroot_done(&root);
	rm_rf(tmpl);
}

/* ---- sd_notify ---- */

static int bind_dgram(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_true(strlen(path) < sizeof(sa.sun_path));
	strcpy(sa.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

static char *recv_dgram(int fd)
{
	char *buf = calloc(1, 65536);
	ssize_t n;

	assert_non_null(buf);
	n = recv(fd, buf, 65535, MSG_DONTWAIT);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_sink_notify(void **state)
{
	char tmpl[] = "/tmp/test_sinks.XXXXXX", *path, *msg;
	struct report r;
	int fd;

	report_mixed(&r);
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(sink_notify(&r), 0); /* outside systemd: nothing to do, no error */

	assert_non_null(mkdtemp(tmpl));
	assert_true(asprintf(&path, "%s/notify", tmpl) > 0);
	fd = bind_dgram(path);
	assert_int_equal(setenv("NOTIFY_SOCKET", path, 1), 0);
	assert_int_equal(sink_notify(&r), 0);
	unsetenv("NOTIFY_SOCKET");
	msg = recv_dgram(fd);
	assert_non_null(msg);
	assert_string_equal(msg, "STATUS=NOT READY: 1 fail, 1 unknown, 1 pass, 1 skip");
	free(msg);
	close(fd);
	free(path);
	report_done(&r);
	rm_rf(tmpl);
}

/* ---- journal ---- */

/*
 * sd_journal_send() talks to the fixed /run/systemd/journal/socket, so the
 * journal tests get a private /run (a tmpfs in a private mount namespace).
 * Without the privilege for that they are skipped, not faked.
 */
static int private_run_setup(void **state)
{
	if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") < 0)
		*state = NULL;
	else
		*state = (void *)1;
	return 0;
}

static int private_run_teardown(void **state)
{
	if (*state)
		umount2("/run", MNT_DETACH);
	return 0;
}

/* The datagram holds these consecutive "FIELD=value\n" lines, starting at a line. */
static bool has_fields(const char *dgram, const char *lines)
{
	const char *p = dgram;

	if (!dgram)
		return false;
	while (p) {
		if (strneq(p, lines, strlen(lines)))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static void test_journal_fallback(void **state)
{
	struct report r;
	struct capture c;
	char *err;

	if (!*state)
		skip();
	report_mixed(&r);
	capture_begin(&c);
	assert_int_equal(sink_journal(&r, false), 0); /* no journald: still not a failure */
	err = capture_end(&c);
	assert_string_equal(err, "hostprep: check: NOT READY: 1 fail, 1 unknown, 1 pass, 1 skip\n");
	free(err);
	/* the caller printed the report (summary included) on stdout: not a second time */
	capture_begin(&c);
	assert_int_equal(sink_journal(&r, true), 0);
	err = capture_end(&c);
	assert_string_equal(err, "");
	free(err);

	/* a systemd host whose journald is gone: the socket refuses, same fallback */
	assert_int_equal(mkdir("/run/systemd", 0755), 0);
	assert_int_equal(mkdir("/run/systemd/system", 0755), 0);
	assert_int_equal(mkdir("/run/systemd/journal", 0755), 0);
	close(bind_dgram("/run/systemd/journal/socket"));
	capture_begin(&c);
	assert_int_equal(sink_journal(&r, false), 0);
	err = capture_end(&c);
	assert_string_equal(err, "hostprep: check: NOT READY: 1 fail, 1 unknown, 1 pass, 1 skip\n");
	free(err);
	report_done(&r);
}

static void test_journal_entries(void **state)
{
	char *e[6] = {};
	struct report r;
	struct capture c;
	char *err;
	int fd;

	if (!*state)
		skip();
	/* sd_booted() looks for this: a systemd host, where journald runs */
	assert_int_equal(mkdir("/run/systemd", 0755), 0);
	assert_int_equal(mkdir("/run/systemd/system", 0755), 0);
	assert_int_equal(mkdir("/run/systemd/journal", 0755), 0);
	fd = bind_dgram("/run/systemd/journal/socket");
	report_mixed(&r);
	capture_begin(&c);
	assert_int_equal(sink_journal(&r, false), 0);
	err = capture_end(&c);
	assert_string_equal(err, ""); /* the journal took it: no fallback line */
	for (size_t i = 0; i < ARRAY_SIZE(e); i++)
		e[i] = recv_dgram(fd);
	assert_null(e[5]); /* 4 results + 1 summary */

	assert_true(has_fields(e[0], "MESSAGE=acs 0000:3a:00.0: fail — expected x0x00xx, "
				     "actual 0x001d (SV,RR,CR,UF)\n"));
	assert_true(has_fields(e[0], "PRIORITY=3\n"));
	assert_true(has_fields(e[0], "MESSAGE_ID=" HOSTPREP_RESULT_MESSAGE_ID "\n"));
	assert_true(has_fields(e[0], "HOSTPREP_CHECK=acs\nHOSTPREP_OBJECT=0000:3a:00.0\n"
				     "HOSTPREP_EXPECTED=x0x00xx\n"
				     "HOSTPREP_ACTUAL=0x001d (SV,RR,CR,UF)\nHOSTPREP_VERDICT=fail\n"
				     "HOSTPREP_REMEDY=hostprep apply (set Apply=yes in [Host])\n"
				     "HOSTPREP_COMMAND=check\n"));
	assert_true(has_fields(e[1], "PRIORITY=5\n"));
	assert_true(has_fields(e[2], "PRIORITY=4\nMESSAGE_ID="));
	assert_true(has_fields(e[3], "HOSTPREP_VERDICT=skip\nHOSTPREP_COMMAND=check\n"));
	assert_null(strstr(e[3], "HOSTPREP_REMEDY="));

	assert_true(has_fields(e[4], "MESSAGE=hostprep check: NOT READY: 1 fail, 1 unknown, "
				     "1 pass, 1 skip\nPRIORITY=3\n"
				     "MESSAGE_ID=" HOSTPREP_SUMMARY_MESSAGE_ID "\n"));
	assert_true(has_fields(e[4], "HOSTPREP_READY=0\nHOSTPREP_PASS=1\nHOSTPREP_SKIP=1\n"
				     "HOSTPREP_WARN=0\nHOSTPREP_UNKNOWN=1\nHOSTPREP_FAIL=1\n"
				     "HOSTPREP_TOTAL=4\n"));
	for (size_t i = 0; i < ARRAY_SIZE(e); i++)
		free(e[i]);
	free(err);
	close(fd);
	unlink("/run/systemd/journal/socket");
	report_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_summary_ready),
		cmocka_unit_test(test_summary_not_ready),
		cmocka_unit_test(test_summary_empty),
		cmocka_unit_test(test_text_table),
		cmocka_unit_test(test_text_empty),
		cmocka_unit_test(test_text_color_only_when_asked),
		cmocka_unit_test(test_text_remedy_only_for_non_pass),
		cmocka_unit_test(test_text_long_and_hostile_cells),
		cmocka_unit_test(test_json_exact),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_config),
		cmocka_unit_test(test_json_config_absent),
		cmocka_unit_test(test_json_config_bad),
		cmocka_unit_test(test_json_schema_mismatch),
		cmocka_unit_test(test_json_missing_field),
		cmocka_unit_test(test_json_bad_values),
		cmocka_unit_test(test_json_not_a_report),
		cmocka_unit_test(test_report_write_read),
		cmocka_unit_test(test_report_read_errors),
		cmocka_unit_test(test_sink_notify),
		cmocka_unit_test_setup_teardown(test_journal_fallback, private_run_setup,
						private_run_teardown),
		cmocka_unit_test_setup_teardown(test_journal_entries, private_run_setup,
						private_run_teardown),
	};

	log_set_max_level(LOG_CRIT); /* parse errors are expected here; asserted where it matters */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
