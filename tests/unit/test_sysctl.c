// SPDX-License-Identifier: GPL-2.0-or-later
/* [Sysctl]: name validation, NAME=VALUE parsing, sysctl-like comparison. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sysctl/sysctl.h"

static void test_names(void **state)
{
	static const char *const good[] = {
		"kernel.numa_balancing",
		"vm.zone_reclaim_mode",
		"net.ipv4.conf.all.rp_filter",
		"net.core.rmem_max",
		"kernel",
		"net.ipv6.conf.ens1f0-np0.mtu",
	};
	static const char *const bad[] = {
		"",	  ".kernel", "kernel.",	 "kernel..numa",   "kernel/numa_balancing",
		"../etc", "a b",     "kernel.*", "kernel.numa\tx",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (!sysctl_name_valid(good[i]))
			fail_msg("'%s' refused", good[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (sysctl_name_valid(bad[i]))
			fail_msg("'%s' accepted", bad[i]);
}

static void test_parse_expect(void **state)
{
	char *name = NULL, *value = NULL;
	const char *why = NULL;

	assert_int_equal(sysctl_parse_expect("kernel.numa_balancing=0", &name, &value, &why), 0);
	assert_string_equal(name, "kernel.numa_balancing");
	assert_string_equal(value, "0");
	free(name);
	free(value);
	assert_int_equal(sysctl_parse_expect("net.ipv4.tcp_rmem = 4096\t87380  6291456", &name,
					     &value, &why),
			 0);
	assert_string_equal(name, "net.ipv4.tcp_rmem");
	assert_string_equal(value, "4096 87380 6291456");
	free(name);
	free(value);
	assert_int_equal(sysctl_parse_expect("kernel.numa_balancing", &name, &value, &why),
			 -EINVAL);
	assert_int_equal(sysctl_parse_expect("kernel.numa_balancing=", &name, &value, &why),
			 -EINVAL);
	assert_int_equal(sysctl_parse_expect("kernel/numa_balancing=0", &name, &value, &why),
			 -EINVAL);
	assert_int_equal(sysctl_parse_expect("=0", &name, &value, &why), -EINVAL);
	assert_int_equal(sysctl_parse_expect("a..b=0", &name, &value, &why), -EINVAL);
}

static void test_equal(void **state)
{
	assert_true(sysctl_values_equal("0", "0"));
	assert_true(sysctl_values_equal("0\n", "0"));
	assert_true(sysctl_values_equal("00", "0"));
	assert_true(sysctl_values_equal("4096\t87380\t6291456\n", "4096 87380 6291456"));
	assert_true(sysctl_values_equal("-1", "-1"));
	assert_true(sysctl_values_equal("bbr", "bbr"));
	assert_false(sysctl_values_equal("1", "0"));
	assert_false(sysctl_values_equal("4096 87380", "4096 87380 6291456"));
	assert_false(sysctl_values_equal("4096 87380 6291456", "4096 87380"));
	assert_false(sysctl_values_equal("cubic", "bbr"));
	assert_false(sysctl_values_equal("0x10", "16")); /* sysctl prints decimal only */
	assert_false(sysctl_values_equal("", "0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse_expect),
		cmocka_unit_test(test_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
