// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MinFirmware=/Firmware= (rdma.firmware): what a version is, how two compare (each number,
 * a missing one is 0), and the keys' validation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rdma/rdma-config.h"

static int cmp(const char *a, const char *b)
{
	int r = 99;

	assert_int_equal(rdma_fw_compare(a, b, &r), 0);
	return r;
}

static void test_valid(void **state)
{
	assert_true(rdma_fw_valid("28.39.1002"));
	assert_true(rdma_fw_valid("7"));
	assert_false(rdma_fw_valid(""));
	assert_false(rdma_fw_valid("28."));
	assert_false(rdma_fw_valid(".28"));
	assert_false(rdma_fw_valid("28..39"));
	assert_false(rdma_fw_valid("28.a"));
	assert_false(rdma_fw_valid("28.39.1002 "));
	assert_false(rdma_fw_valid("v28"));
}

static void test_compare(void **state)
{
	/* below, at and above the minimum in each position */
	assert_int_equal(cmp("28.39.1001", "28.39.1002"), -1);
	assert_int_equal(cmp("28.39.1002", "28.39.1002"), 0);
	assert_int_equal(cmp("28.39.1003", "28.39.1002"), 1);
	assert_int_equal(cmp("28.38.9999", "28.39.1002"), -1);
	assert_int_equal(cmp("28.40.0", "28.39.1002"), 1);
	assert_int_equal(cmp("27.99.9999", "28.39.1002"), -1);
	/* numbers, not text: 100 is more than 99 */
	assert_int_equal(cmp("28.100.0", "28.99.0"), 1);
	/* a missing number is 0 */
	assert_int_equal(cmp("28.39", "28.39.0"), 0);
	assert_int_equal(cmp("28.39", "28.39.1"), -1);
}

static void test_keys(void **state)
{
	static const struct origin here = { "test.conf", 3 };
	struct port_config *pc = NULL;

	assert_int_equal(port_config_section(&pc, "Port:fw", &here, 0), 0);
	assert_int_equal(port_config_assign(pc, "MinFirmware", "28.39.1002", &here), 0);
	assert_string_equal(pc->rules[0].min_fw, "28.39.1002");
	assert_int_equal(port_config_assign(pc, "MinFirmware", "28.a", &here), -EINVAL);
	assert_int_equal(port_config_assign(pc, "MinFirmware", "", &here), 0);
	assert_string_equal(pc->rules[0].min_fw, "");
	assert_int_equal(port_config_assign(pc, "Firmware", "28.39.1002 28.40.1000", &here), 0);
	assert_int_equal(pc->rules[0].n_fw, 2);
	assert_string_equal(pc->rules[0].fw[1], "28.40.1000");
	assert_int_equal(port_config_assign(pc, "Firmware", "", &here), 0);
	assert_int_equal(pc->rules[0].n_fw, 0);
	port_config_free(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
