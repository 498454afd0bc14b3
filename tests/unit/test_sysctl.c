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

/*
 * The sysctl verdict's comparison, one row per edge: what the kernel prints (tabs between
 * the words of a multi-value, a trailing newline) against what the config expects.
 */
static void test_equal_table(void **state)
{
	static const struct {
		const char *kernel, *want;
		bool equal;
	} t[] = {
		{ "1\n", "1", true },
		{ "1", "1\n", true },
		{ "1\n", "2", false },
		{ "4096\t87380\t6291456\n", "4096 87380 6291456", true },
		{ "4096\t87380\t6291456\n", "4096  87380\t6291456", true },
		{ "4096\t87380\t6291456\n", "4096 87380 6291457", false },
		{ "4096\t87380\t6291456\n", "4095 87380 6291456", false },
		{ "4096\t87380\t6291456\n", "4096 87380", false },
		{ "4096\t87380\n", "4096 87380 6291456", false },
		{ "4096\t87380\n", "4096 87380 0", false },
		{ " 1 \n", "1", true },
		{ "\t", "", true },
		{ "", "", true },
		{ "", "0", false },
		{ "0", "", false },
		{ "007", "7", true },
		{ "-0", "0", true },
		{ "-1", "1", false },
		{ "+1", "1", false },
		{ "1.0", "1", false },
		{ "0x10", "16", false },
		{ "9223372036854775808", "9223372036854775808", true },
		{ "9223372036854775808", "9223372036854775807", false },
		{ "bbr\n", "bbr", true },
		{ "BBR", "bbr", false },
		{ "bbr", "bb", false },
		{ "1 bbr", "01 bbr", true },
		{ "1 bbr", "1 cubic", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (sysctl_values_equal(t[i].kernel, t[i].want) != t[i].equal)
			fail_msg("'%s' vs '%s': %s, want %s", t[i].kernel, t[i].want,
				 t[i].equal ? "differ" : "equal", t[i].equal ? "equal" : "differ");
		/* symmetric: which side is the kernel's does not matter */
		if (sysctl_values_equal(t[i].want, t[i].kernel) != t[i].equal)
			fail_msg("'%s' vs '%s' (swapped): not symmetric", t[i].want, t[i].kernel);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse_expect),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_equal_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
