// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The [Sinks] renderers: Prometheus label escaping and series, NFD names within
 * Kubernetes' label rules. Reports are built in code; outputs compared byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/sink-config.h"

static void report_init(struct report *r)
{
	*r = (struct report){ .schema = 1, .time_sec = 1795327200u };
}

static void add(struct report *r, enum verdict v, const char *check, const char *object)
{
	assert_int_equal(results_add(&r->results, &(const struct result_spec){ .verdict = v, .check = check, .object = object, .expected = "e", .actual = "a", }), 0);
}

/* The lines of s that start with prefix, concatenated. */
static char *lines_with(const char *s, const char *prefix)
{
	char *out = calloc(1, strlen(s) + 1);

	assert_non_null(out);
	for (const char *l = s; *l; l = strchr(l, '\n') + 1) {
		if (strneq(l, prefix, strlen(prefix)))
			strncat(out, l, strcspn(l, "\n") + 1);
		if (!strchr(l, '\n'))
			break;
	}
	return out;
}

static void test_prom_escape(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL, *checks = NULL;

	report_init(&r);
	add(&r, VERDICT_FAIL, "x.quote", "a\"b\\c\nd");
	add(&r, VERDICT_PASS, "x.utf8", "caf\xc3\xa9 \xff\xc0\xaf end");
	assert_int_equal(prom_render(&r, 1234567, &text), 0);
	checks = lines_with(text, "hostprep_check{");
	assert_string_equal(checks,
			    "hostprep_check{check=\"x.quote\",object=\"a\\\"b\\\\c\\nd\",verdict="
			    "\"fail\"} 1\n"
			    "hostprep_check{check=\"x.utf8\",object=\"caf\xc3\xa9 \\\\xff\\\\xc0\\\\xaf "
			    "end\",verdict=\"pass\"} 1\n");
	assert_non_null(strstr(text, "\nhostprep_ready 0\n"));
	assert_non_null(strstr(text, "\nhostprep_last_run_duration_seconds 1.234567\n"));
	assert_non_null(strstr(text, "\nhostprep_last_run_timestamp_seconds 1795327200\n"));
}

/* hostprep_info: version and config digest as labels, escaped like any label value. */
static void test_prom_info(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL, *info = NULL;

	report_init(&r);
	r.version = strdup("1.2\"x");
	r.config_digest = strdup("0c4f01bd");
	assert_int_equal(prom_render(&r, 0, &text), 0);
	info = lines_with(text, "hostprep_info");
	assert_string_equal(info, "hostprep_info{version=\"1.2\\\"x\",config_digest=\"0c4f01bd\"} 1\n");
	assert_true(strneq(text, "# HELP hostprep_info ", strlen("# HELP hostprep_info ")));
	free(TAKE_PTR(text));
	free(TAKE_PTR(info));
	free(TAKE_PTR(r.config_digest)); /* no configuration loaded: an empty label */
	assert_int_equal(prom_render(&r, 0, &text), 0);
	info = lines_with(text, "hostprep_info{");
	assert_string_equal(info, "hostprep_info{version=\"1.2\\\"x\",config_digest=\"\"} 1\n");
}

/* Same labels twice: one series counting both (promtool rejects duplicate series). */
static void test_prom_dedup(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL, *checks = NULL;

	report_init(&r);
	add(&r, VERDICT_PASS, "module", "mlx5_core");
	add(&r, VERDICT_WARN, "module", "mlx5_core");
	add(&r, VERDICT_PASS, "module", "mlx5_core");
	assert_int_equal(prom_render(&r, 0, &text), 0);
	checks = lines_with(text, "hostprep_check{");
	assert_string_equal(
		checks,
		"hostprep_check{check=\"module\",object=\"mlx5_core\",verdict=\"pass\"} 2\n"
		"hostprep_check{check=\"module\",object=\"mlx5_core\",verdict=\"warn\"} 1\n");
	assert_non_null(strstr(text, "\nhostprep_ready 1\n"));
}

/*
 * Series are told apart by their label values as written (the report's JSON escapes):
 * names that differ only in bytes that are not UTF-8 stay two series, in result order.
 */
static void test_prom_dedup_escaped(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL, *checks = NULL;

	report_init(&r);
	add(&r, VERDICT_PASS, "rdma.port", "nic\xff/1");
	add(&r, VERDICT_PASS, "rdma.port", "nic\xfe/1");
	add(&r, VERDICT_PASS, "rdma.port", "nic\xff/1");
	assert_int_equal(prom_render(&r, 0, &text), 0);
	checks = lines_with(text, "hostprep_check{");
	assert_string_equal(
		checks,
		"hostprep_check{check=\"rdma.port\",object=\"nic\\\\xff/1\",verdict=\"pass\"} 2\n"
		"hostprep_check{check=\"rdma.port\",object=\"nic\\\\xfe/1\",verdict=\"pass\"} 1\n");
}

/* Area = check up to the first '.', worst verdict; names outside the label rules dropped. */
static void test_nfd_areas(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL;

	report_init(&r);
	add(&r, VERDICT_PASS, "acs", "0000:15:01.0");
	add(&r, VERDICT_WARN, "acs.cmdline", "host");
	add(&r, VERDICT_PASS, "iommu.mode", "host");
	add(&r, VERDICT_UNKNOWN, "rdma.port", "mlx5_0/1");
	add(&r, VERDICT_FAIL, "Bad Area.x", "host");
	add(&r, VERDICT_FAIL, ".lead", "host");
	add(&r, VERDICT_FAIL, "a-very-long-area-name-that-cannot-fit-into-one-label-name", "h");
	add(&r, VERDICT_PASS, "module.load", "mlx5_ib");
	add(&r, VERDICT_FAIL, "module.param", "nvidia");
	assert_int_equal(nfd_render(&r, &text), 0);
	assert_string_equal(text, "feature.node.kubernetes.io/hostprep.ready=false\n"
				  "feature.node.kubernetes.io/hostprep.acs=warn\n"
				  "feature.node.kubernetes.io/hostprep.iommu=pass\n"
				  "feature.node.kubernetes.io/hostprep.rdma=unknown\n"
				  "feature.node.kubernetes.io/hostprep.module=fail\n");
}

static void test_nfd_empty(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL;

	report_init(&r);
	assert_int_equal(nfd_render(&r, &text), 0);
	assert_string_equal(text, "feature.node.kubernetes.io/hostprep.ready=true\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prom_escape),
		cmocka_unit_test(test_prom_dedup),
		cmocka_unit_test(test_prom_dedup_escaped),
		cmocka_unit_test(test_prom_info),
		cmocka_unit_test(test_nfd_areas),
		cmocka_unit_test(test_nfd_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
