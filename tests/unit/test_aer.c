// SPDX-License-Identifier: GPL-2.0-or-later
/* [AER]: the counter files as the kernel prints them, the thresholds, the config part. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "aer/aer.h"

/* drivers/pci/pcie/aer.c aer_stats_dev_attr(): "%s %llu\n" per counter, the total last */
static const char cor_text[] = "RxErr 3\nBadTLP 0\nBadDLLP 1\nRollover 0\nTimeout 0\n"
			       "NonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 4\n";

static void test_parse_dev(void **state)
{
	struct aer_counts c;

	assert_int_equal(aer_parse_dev(cor_text, AER_COR, &c), 0);
	assert_int_equal(c.total, 4);
	assert_string_equal(c.detail, "RxErr 3, BadDLLP 1");
	assert_int_equal(aer_parse_dev("Undefined 0\nDLP 0\nTOTAL_ERR_FATAL 0\n", AER_FATAL, &c),
			 0);
	assert_int_equal(c.total, 0);
	assert_string_equal(c.detail, "");
	/* an unnamed bit, as the kernel prints one that is set */
	assert_int_equal(
		aer_parse_dev("uncorrectable_bit[2] 5\nTOTAL_ERR_NONFATAL 5", AER_NONFATAL, &c), 0);
	assert_int_equal(c.total, 5);
	assert_string_equal(c.detail, "uncorrectable_bit[2] 5");
	assert_int_equal(aer_parse_dev("TOTAL_ERR_FATAL 18446744073709551615\n", AER_FATAL, &c), 0);
	assert_int_equal(c.total, UINT64_MAX);
	/* a counter up to the total; one error may set several bits: their sum may pass it */
	assert_int_equal(aer_parse_dev("RxErr 4\nTOTAL_ERR_COR 4\n", AER_COR, &c), 0);
	assert_int_equal(aer_parse_dev("RxErr 3\nBadTLP 3\nTOTAL_ERR_COR 3\n", AER_COR, &c), 0);
	assert_string_equal(c.detail, "RxErr 3, BadTLP 3");
	/* 4.19-5.x: names with blanks (Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats) */
	assert_int_equal(aer_parse_dev("Receiver Error 2\nBad TLP 0\nRELAY_NUM Rollover 1\n"
				       "TOTAL_ERR_COR 3\n",
				       AER_COR, &c),
			 0);
	assert_int_equal(c.total, 3);
	assert_string_equal(c.detail, "Receiver Error 2, RELAY_NUM Rollover 1");
	assert_int_equal(aer_parse_dev("Surprise Down Error 1\nTOTAL_ERR_FATAL 1", AER_FATAL, &c), 0);
	assert_string_equal(c.detail, "Surprise Down Error 1");
}

static void test_parse_dev_bad(void **state)
{
	static const struct {
		const char *text;
		enum aer_kind k;
	} bad[] = {
		{ "", AER_COR },
		{ "RxErr 3\n", AER_COR },			     /* no total */
		{ "RxErr 3\nTOTAL_ERR_FATAL 3\n", AER_COR },	     /* another kind's total */
		{ "TOTAL_ERR_COR 1\nRxErr 1\n", AER_COR },	     /* the total is not last */
		{ "RxErr -1\nTOTAL_ERR_COR 0\n", AER_COR },	     /* no sign */
		{ "RxErr\t3\nTOTAL_ERR_COR 3\n", AER_COR },	     /* one blank */
		{ "RxErr  3\nTOTAL_ERR_COR 3\n", AER_COR },	     /* one blank */
		{ "RxErr 3x\nTOTAL_ERR_COR 3\n", AER_COR },	     /* digits only */
		{ "\nTOTAL_ERR_COR 3\n", AER_COR },		     /* an empty line */
		{ "TOTAL_ERR_COR 18446744073709551616\n", AER_COR }, /* past 64 bits */
		{ "TOTAL_ERR_COR\n", AER_COR },
		{ "TOTAL_ERR_COR 1 2\n", AER_COR },
		{ "TOTAL_ERR_NONFATAL 0\n", AER_FATAL },
		{ "RxErr 5\nTOTAL_ERR_COR 4\n", AER_COR },	     /* a counter above the total */
		{ "DLP 5\nSDES 2\nTOTAL_ERR_FATAL 0\n", AER_FATAL }, /* errors under a zero total */
		{ " RxErr 3\nTOTAL_ERR_COR 3\n", AER_COR },	     /* a leading blank */
		{ "Bad  TLP 3\nTOTAL_ERR_COR 3\n", AER_COR },	     /* two blanks inside */
		{ "Bad\tTLP 3\nTOTAL_ERR_COR 3\n", AER_COR },     /* a tab inside */
		{ "3\nTOTAL_ERR_COR 3\n", AER_COR },		     /* no name */
	};
	struct aer_counts c;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (aer_parse_dev(bad[i].text, bad[i].k, &c) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i].text);
}

static void test_detail_bounded(void **state)
{
	char text[4096] = "";
	struct aer_counts c;
	size_t o = 0;

	for (int i = 0; i < 40; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "LongCounterName%02d 1\n", i);
	snprintf(text + o, sizeof(text) - o, "TOTAL_ERR_COR 40\n");
	assert_int_equal(aer_parse_dev(text, AER_COR, &c), 0);
	assert_int_equal(c.total, 40);
	assert_true(strlen(c.detail) < sizeof(c.detail));
	assert_true(strncmp(c.detail, "LongCounterName00 1, ", 21) == 0);
}

static void test_parse_total(void **state)
{
	uint64_t v;

	assert_int_equal(aer_parse_total("0\n", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(aer_parse_total("12", &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(aer_parse_total("", &v), -EINVAL);
	assert_int_equal(aer_parse_total("-1\n", &v), -EINVAL);
	assert_int_equal(aer_parse_total("1 2\n", &v), -EINVAL);
	assert_int_equal(aer_parse_total("1\n\n", &v), -EINVAL);
	assert_int_equal(aer_parse_total("TOTAL_ERR_COR 1\n", &v), -EINVAL);
}

static void test_limits(void **state)
{
	uint64_t v;

	assert_int_equal(aer_parse_limit("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(aer_parse_limit("1000000000000", &v), 0);
	assert_int_equal(v, AER_COUNT_MAX);
	assert_int_equal(aer_parse_limit("OFF", &v), 0);
	assert_true(v == AER_OFF);
	assert_int_equal(aer_parse_limit("1000000000001", &v), -EINVAL);
	assert_int_equal(aer_parse_limit("", &v), -EINVAL);
	assert_int_equal(aer_parse_limit("05", &v), -EINVAL);
	assert_int_equal(aer_parse_limit("-1", &v), -EINVAL);
	assert_int_equal(aer_parse_limit("5 ", &v), -EINVAL);
	assert_int_equal(aer_parse_limit("no", &v), -EINVAL);

	assert_false(aer_exceeds(0, 0));
	assert_true(aer_exceeds(1, 0));
	assert_false(aer_exceeds(10, 10));
	assert_true(aer_exceeds(11, 10));
	assert_false(aer_exceeds(UINT64_MAX, AER_OFF));
	assert_false(aer_exceeds(0, AER_OFF));
}

/*
 * Every set of counter files a function can show, for each kind of port: all or none
 * decide, anything between is partial (never "no AER", never a pass). The totals of a
 * root port of unread type may be missing together only (the kernel does not take it for
 * a root port); on a function that is no root port they are not part of the set.
 */
static void test_files_judge(void **state)
{
	static const int kinds[] = { 0, 1, -1 };

	for (unsigned dev = 0; dev <= AER_FILES_ALL; dev++)
		for (unsigned rp = 0; rp <= AER_FILES_ALL; rp++)
			for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
				int kind = kinds[i];
				enum aer_set want = AER_SET_PARTIAL;

				if (kind == 0)
					want = dev == 0	  ? AER_SET_NONE
					       : dev == 7 ? AER_SET_DEV
							  : AER_SET_PARTIAL;
				else if (dev == 0 && rp == 0)
					want = AER_SET_NONE;
				else if (dev == 7 && rp == 7)
					want = AER_SET_ROOT_PORT;
				else if (dev == 7 && rp == 0 && kind < 0)
					want = AER_SET_DEV;
				if (aer_files_judge(dev, rp, kind) != want)
					fail_msg("dev %u rp %u root port %d: %d, want %d", dev, rp,
						 kind, aer_files_judge(dev, rp, kind), want);
			}
	/* the cases the issue names, spelled out */
	assert_int_equal(aer_files_judge(1u << AER_FATAL, 0, 0), AER_SET_PARTIAL);
	assert_int_equal(aer_files_judge(7, 1u << AER_FATAL, 1), AER_SET_PARTIAL);
	assert_int_equal(aer_files_judge(7, 1u << AER_FATAL, -1), AER_SET_PARTIAL);
	assert_int_equal(aer_files_judge(7, 0, 1), AER_SET_PARTIAL);
	assert_int_equal(aer_files_judge(0, 7, 1), AER_SET_PARTIAL);
}

static void test_config(void **state)
{
	struct origin at = { "test.conf", 1 };
	const struct aer_config *ac;
	void *st = NULL;

	assert_int_equal(aer_config_part.section(&st, "AER", &at, 1), 0);
	ac = st;
	/* the defaults: fatal and non-fatal > 0 flagged, correctable reported only, warn */
	assert_true(ac->limit[AER_FATAL] == 0);
	assert_true(ac->limit[AER_NONFATAL] == 0);
	assert_true(ac->limit[AER_COR] == AER_OFF);
	assert_int_equal(ac->exceeded, AER_EXCEEDED_WARN);
	assert_int_equal(aer_config_part.assign(st, "Correctable", "100", &at), 0);
	assert_true(ac->limit[AER_COR] == 100);
	assert_int_equal(aer_config_part.assign(st, "NonFatal", "off", &at), 0);
	assert_true(ac->limit[AER_NONFATAL] == AER_OFF);
	assert_int_equal(aer_config_part.assign(st, "Fatal", "2", &at), 0);
	assert_true(ac->limit[AER_FATAL] == 2);
	assert_int_equal(aer_config_part.assign(st, "Exceeded", "FAIL", &at), 0);
	assert_int_equal(ac->exceeded, AER_EXCEEDED_FAIL);
	/* an empty value is the default again */
	assert_int_equal(aer_config_part.assign(st, "Correctable", "", &at), 0);
	assert_true(ac->limit[AER_COR] == AER_OFF);
	assert_int_equal(aer_config_part.assign(st, "Fatal", "", &at), 0);
	assert_true(ac->limit[AER_FATAL] == 0);
	assert_int_equal(aer_config_part.assign(st, "Exceeded", "", &at), 0);
	assert_int_equal(ac->exceeded, AER_EXCEEDED_WARN);

	assert_int_equal(aer_config_part.assign(st, "Fatal", "-1", &at), -EINVAL);
	assert_int_equal(aer_config_part.assign(st, "NonFatal", "yes", &at), -EINVAL);
	assert_int_equal(aer_config_part.assign(st, "Correctable", "1e3", &at), -EINVAL);
	assert_int_equal(aer_config_part.assign(st, "Exceeded", "ignore", &at), -EINVAL);
	assert_int_equal(aer_config_part.assign(st, "Nonfatal", "1", &at), -EINVAL);
	assert_int_equal(aer_config_part.finish(st, NULL), 0);
	aer_config_part.free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_dev),      cmocka_unit_test(test_parse_dev_bad),
		cmocka_unit_test(test_detail_bounded), cmocka_unit_test(test_parse_total),
		cmocka_unit_test(test_limits),	       cmocka_unit_test(test_config),
		cmocka_unit_test(test_files_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
