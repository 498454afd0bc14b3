// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload verdicts, one table row per edge: MinMemlock= against a unit's soft limit
 * (equal, one below, infinity on either side), and a /dev/infiniband node's mode and owner
 * against the stock ones (verbs and rdma_cm 0666: must allow at least that; umad and issm
 * 0600 root: must not allow more).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "workload/workload.h"

#define INF WORKLOAD_INFINITY

static void test_memlock(void **state)
{
	static const struct {
		uint64_t soft, min;
		bool enough;
	} t[] = {
		{ 65536, 65536, true },		/* equal */
		{ 65535, 65536, false },	/* one below */
		{ 65537, 65536, true },		/* one above */
		{ 0, 0, true },
		{ 0, 1, false },
		{ INF, 65536, true },		/* unlimited meets any size */
		{ INF, INF, true },		/* MinMemlock=infinity, LimitMEMLOCK=infinity */
		{ INF - 1, INF, false },	/* the largest finite limit is not infinity */
		{ 8ull << 20, INF, false },	/* 8M (the default of many distributions) */
		{ 64ull << 10, 8ull << 20, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (workload_memlock_enough(t[i].soft, t[i].min) != t[i].enough)
			fail_msg("soft %llu, min %llu: %s, want %s", (unsigned long long)t[i].soft,
				 (unsigned long long)t[i].min, t[i].enough ? "below" : "enough",
				 t[i].enough ? "enough" : "below");
}

/* As the config writes them: the parsed sizes meet at the same boundary. */
static void test_memlock_parsed(void **state)
{
	uint64_t k64, b65536, inf;

	assert_int_equal(workload_parse_size("64K", &k64), 0);
	assert_int_equal(workload_parse_size("65536", &b65536), 0);
	assert_int_equal(workload_parse_size("infinity", &inf), 0);
	assert_true(workload_memlock_enough(b65536, k64));
	assert_false(workload_memlock_enough(b65536 - 1, k64));
	assert_true(workload_memlock_enough(inf, inf));
	assert_false(workload_memlock_enough(k64, inf));
}

static void test_node_mode(void **state)
{
	static const struct {
		unsigned mode, uid, want;
		bool strict_open;
		enum verdict v;
	} t[] = {
		/* verbs, rdma_cm: 0666, at least */
		{ 0666, 0, 0666, true, VERDICT_PASS },
		{ S_IFCHR | 0666, 0, 0666, true, VERDICT_PASS }, /* the file type is not a mode bit */
		{ 0777, 0, 0666, true, VERDICT_PASS },		  /* more is not the check's business */
		{ 0666, 1000, 0666, true, VERDICT_PASS },	  /* nor the owner */
		{ 0664, 0, 0666, true, VERDICT_FAIL },		  /* others cannot write */
		{ 0662, 0, 0666, true, VERDICT_FAIL },		  /* others cannot read */
		{ 0660, 0, 0666, true, VERDICT_FAIL },
		{ 0646, 0, 0666, true, VERDICT_FAIL },		  /* group cannot write */
		{ 0466, 0, 0666, true, VERDICT_FAIL },		  /* owner cannot write */
		{ 0600, 0, 0666, true, VERDICT_FAIL },
		{ 0, 0, 0666, true, VERDICT_FAIL },
		/* umad, issm: 0600 root, at most */
		{ 0600, 0, 0600, false, VERDICT_PASS },
		{ S_IFCHR | 0600, 0, 0600, false, VERDICT_PASS },
		{ 0400, 0, 0600, false, VERDICT_PASS }, /* less is not a security smell */
		{ 0, 0, 0600, false, VERDICT_PASS },
		{ 0600, 1000, 0600, false, VERDICT_WARN }, /* not root's */
		{ 0601, 0, 0600, false, VERDICT_WARN },	   /* one bit more: others execute */
		{ 0604, 0, 0600, false, VERDICT_WARN },
		{ 0640, 0, 0600, false, VERDICT_WARN },
		{ 0660, 0, 0600, false, VERDICT_WARN },
		{ 0666, 0, 0600, false, VERDICT_WARN },
		{ 0700, 0, 0600, false, VERDICT_WARN },
		{ 04600, 0, 0600, false, VERDICT_PASS }, /* setuid on a node: not a permission */
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		enum verdict v = workload_node_mode_verdict(t[i].mode, t[i].uid, t[i].want,
							    t[i].strict_open);

		if (v != t[i].v)
			fail_msg("mode %06o uid %u against %04o (%s): %s, want %s", t[i].mode,
				 t[i].uid, t[i].want, t[i].strict_open ? "at least" : "at most",
				 verdict_to_string(v), verdict_to_string(t[i].v));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_memlock_parsed),
		cmocka_unit_test(test_node_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
