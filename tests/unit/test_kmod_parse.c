// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers for what the kernel and kmod print about modules. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kmod/kmod-parse.h"

static void test_module_names(void **state)
{
	char out[KMOD_NAME_MAX + 1];
	char longname[KMOD_NAME_MAX + 2];

	assert_int_equal(kmod_name_normalize("mlx5-core", out), 0);
	assert_string_equal(out, "mlx5_core");
	assert_int_equal(kmod_name_normalize("erdma", out), 0);
	assert_string_equal(out, "erdma");
	assert_int_equal(kmod_name_normalize("", out), -EINVAL);
	assert_int_equal(kmod_name_normalize("er dma", out), -EINVAL);
	assert_int_equal(kmod_name_normalize("../erdma", out), -EINVAL);
	assert_int_equal(kmod_name_normalize("erdma.ko", out), -EINVAL);
	memset(longname, 'a', KMOD_NAME_MAX);
	longname[KMOD_NAME_MAX] = '\0';
	assert_int_equal(kmod_name_normalize(longname, out), 0);
	longname[KMOD_NAME_MAX] = 'a';
	longname[KMOD_NAME_MAX + 1] = '\0';
	assert_int_equal(kmod_name_normalize(longname, out), -EINVAL);
}

static void test_param_values(void **state)
{
	char b;

	assert_true(kmod_param_value_valid("Y"));
	assert_true(kmod_param_value_valid("0x10,20"));
	assert_false(kmod_param_value_valid(""));
	assert_false(kmod_param_value_valid("a b"));
	assert_false(kmod_param_value_valid("\"Y\""));
	assert_false(kmod_param_value_valid("a\\b"));
	assert_false(kmod_param_value_valid("a\tb"));
	/* kstrtobool: what param_set_bool accepts; param_get_bool prints Y/N. */
	assert_int_equal(kmod_param_bool("Y", &b), 0);
	assert_int_equal(b, 'Y');
	assert_int_equal(kmod_param_bool("1", &b), 0);
	assert_int_equal(b, 'Y');
	assert_int_equal(kmod_param_bool("on", &b), 0);
	assert_int_equal(b, 'Y');
	assert_int_equal(kmod_param_bool("n", &b), 0);
	assert_int_equal(b, 'N');
	assert_int_equal(kmod_param_bool("off", &b), 0);
	assert_int_equal(b, 'N');
	assert_int_equal(kmod_param_bool("maybe", &b), -EINVAL);
	assert_int_equal(kmod_param_bool("o", &b), -EINVAL);
	assert_int_equal(kmod_param_bool("16", &b), -EINVAL);
	assert_int_equal(kmod_param_bool("", &b), -EINVAL);
	assert_int_equal(kmod_param_bool("yesterday", &b), -EINVAL);
	assert_true(kmod_param_equal("bool", "Y", "1"));
	assert_true(kmod_param_equal("bool", "N", "no"));
	assert_false(kmod_param_equal("bool", "N", "Y"));
	assert_true(kmod_param_equal("uint", "16", "0x10"));
	assert_false(kmod_param_equal("uint", "16", "17"));
	assert_true(kmod_param_equal("charp", "abc", "abc"));
	assert_false(kmod_param_equal("charp", "Y", "1"));
	assert_false(kmod_param_equal(NULL, "Y", "y"));
}

/*
 * Parameter value comparison edges (issue 17): a live value must never pass a wanted one
 * by prefix or by the first character. have is what /sys/module/NAME/parameters/KEY reads
 * (param_get_* output), want what the configuration says.
 */
static const struct param_case {
	const char *type, *have, *want;
	bool equal;
} param_cases[] = {
	/* integers: by value, the whole string */
	{ "int", "1", "16", false },
	{ "int", "16", "1", false },
	{ "uint", "16", "0x10", true },
	{ "uint", "16", "020", true }, /* base 0, as param_set_uint's kstrtouint(s, 0) */
	{ "hexint", "0x10", "16", true },
	{ "ulong", "18446744073709551615", "18446744073709551615", true },
	{ "ulong", "18446744073709551615", "18446744073709551614", false },
	{ "ulong", "18446744073709551615", "-1", false },
	{ "long", "-1", "-1", true },
	{ "int", "0", "-0", true },
	{ "int", "16", "16abc", false },
	{ "int", "", "0", false },
	{ "int", "", "", false },
	{ "int", "1", "", false },
	/* bools: Y/y/1 (and the kernel's words), N/n/0; never a first-character match */
	{ "bool", "Y", "1", true },
	{ "bool", "Y", "y", true },
	{ "bool", "Y", "Y", true },
	{ "bool", "Y", "yes", true },
	{ "bool", "Y", "on", true },
	{ "bool", "Y", "16", false },
	{ "bool", "Y", "10", false },
	{ "bool", "Y", "yesterday", false },
	{ "bool", "N", "0", true },
	{ "bool", "N", "n", true },
	{ "bool", "N", "N", true },
	{ "bool", "N", "no", true },
	{ "bool", "N", "off", true },
	{ "bool", "N", "00", false },
	{ "bool", "N", "nope", false },
	{ "bool", "N", "Y", false },
	{ "bool", "Y", "0", false },
	{ "bool", "N", "", false },
	{ "bool", "", "", false },
	{ "invbool", "N", "n", true },
	/* strings and unknown types: exact */
	{ "charp", "abc", "abc", true },
	{ "charp", "abc", "ab", false },
	{ "charp", "ab", "abc", false },
	{ "charp", "Y", "1", false },
	{ "string", "", "", true },
	{ NULL, "1", "16", false },
	{ NULL, "Y", "y", false },
	{ "", "16", "0x10", false },
	/* arrays: element by element, same count */
	{ "array of int", "1,2,3", "1,2,3", true },
	{ "array of int", "1,2,3", "1,2,30", false },
	{ "array of int", "1,2", "1,2,3", false },
	{ "array of int", "16,0", "0x10,0", true },
	{ "array of bool", "Y,N", "1,0", true },
};

static void test_param_compare(void **state)
{
	size_t bad = 0;

	for (size_t i = 0; i < sizeof(param_cases) / sizeof(param_cases[0]); i++) {
		const struct param_case *c = &param_cases[i];
		bool got = kmod_param_equal(c->type, c->have, c->want);

		if (got == c->equal)
			continue;
		print_error("kmod_param_equal(%s, \"%s\", \"%s\") = %d, want %d\n",
			    c->type ? c->type : "NULL", c->have, c->want, got, c->equal);
		bad++;
	}
	assert_int_equal(bad, 0);
}

static void test_proc_modules(void **state)
{
	struct proc_module m;

	assert_int_equal(proc_module_parse("erdma 147456 0 - Live 0xffffffffc0800000 (OE)", &m), 0);
	assert_string_equal(m.name, "erdma");
	assert_int_equal(m.refcnt, 0);
	assert_string_equal(m.users, "");
	assert_int_equal(m.state, KMOD_STATE_LIVE);
	assert_string_equal(m.taint, "OE");
	proc_module_done(&m);

	assert_int_equal(proc_module_parse("ib_core 376832 6 rdma_ucm,rdma_cm,iw_cm,ib_cm,ib_uverbs,"
					   "erdma, Live 0xffffffffc1400000\n",
					   &m),
			 0);
	assert_int_equal(m.refcnt, 6);
	assert_string_equal(m.users, "rdma_ucm,rdma_cm,iw_cm,ib_cm,ib_uverbs,erdma");
	assert_true(kmod_list_has(m.users, "erdma"));
	assert_false(kmod_list_has(m.users, "rdma"));
	assert_string_equal(m.taint, "");
	proc_module_done(&m);

	assert_int_equal(proc_module_parse("nvidia 56807424 1 - Loading 0x0000000000000000 (POE)", &m),
			 0);
	assert_int_equal(m.state, KMOD_STATE_COMING);
	proc_module_done(&m);
	assert_int_equal(proc_module_parse("x 1 - - Unloading 0x0", &m), 0);
	assert_int_equal(m.refcnt, -1);
	assert_int_equal(m.state, KMOD_STATE_GOING);
	proc_module_done(&m);

	assert_int_equal(proc_module_parse("erdma 147456 0 - Live", &m), -EINVAL);
	assert_int_equal(proc_module_parse("erdma 147456 x - Live 0x0", &m), -EINVAL);
	assert_int_equal(proc_module_parse("erdma 147456 0 - Alive 0x0", &m), -EINVAL);
	assert_int_equal(proc_module_parse("erdma 1 0 - Live 0x0 (OE) extra", &m), -EINVAL);
	assert_int_equal(proc_module_parse("erdma 1 0 - Live 0x0 OE", &m), -EINVAL);
}

static void test_initstate(void **state)
{
	enum kmod_live_state s;

	assert_int_equal(kmod_initstate_parse("live", &s), 0);
	assert_int_equal(s, KMOD_STATE_LIVE);
	assert_int_equal(kmod_initstate_parse("going", &s), 0);
	assert_int_equal(s, KMOD_STATE_GOING);
	assert_int_equal(kmod_initstate_parse("Live", &s), -EINVAL);
	assert_string_equal(kmod_live_state_to_string(KMOD_STATE_COMING), "coming");
}

static void test_modinfo_fields(void **state)
{
	char name[KMOD_PARAM_MAX + 1];
	const char *text;

	assert_int_equal(modinfo_name_value("compat_mode:compat mode support", name, &text), 0);
	assert_string_equal(name, "compat_mode");
	assert_string_equal(text, "compat mode support");
	assert_int_equal(modinfo_name_value("prof_sel:uint", name, &text), 0);
	assert_string_equal(text, "uint");
	assert_int_equal(modinfo_name_value("no-colon", name, &text), -EINVAL);
	assert_int_equal(modinfo_name_value(":bool", name, &text), -EINVAL);
	assert_true(kmod_list_has("mlx_compat,ib_core", "mlx_compat"));
	assert_true(kmod_list_has("ib_core,mlx_compat", "mlx_compat"));
	assert_false(kmod_list_has("", "mlx_compat"));
	assert_false(kmod_list_has("mlx_compat2", "mlx_compat"));
}

static void test_blacklists(void **state)
{
	char name[KMOD_NAME_MAX + 1];

	assert_int_equal(modprobe_blacklist_line("blacklist erdma", name), 1);
	assert_string_equal(name, "erdma");
	assert_int_equal(modprobe_blacklist_line("  blacklist\tmlx5-core  # old", name), 1);
	assert_string_equal(name, "mlx5_core");
	assert_int_equal(modprobe_blacklist_line("# blacklist erdma", name), 0);
	assert_int_equal(modprobe_blacklist_line("options erdma compat_mode=Y", name), 0);
	assert_int_equal(modprobe_blacklist_line("blacklist", name), 0);
	assert_int_equal(modprobe_blacklist_line("blacklist a b", name), 0);
	assert_true(kmod_cmdline_blacklisted("nouveau,erdma", "erdma"));
	assert_true(kmod_cmdline_blacklisted("mlx5-ib", "mlx5_ib"));
	assert_false(kmod_cmdline_blacklisted("erdma2", "erdma"));
	assert_false(kmod_cmdline_blacklisted("", "erdma"));
	assert_true(modules_builtin_has("kernel/drivers/pci/hotplug/pciehp.ko\n"
					"kernel/drivers/input/serio/i8042.ko\n",
					"i8042"));
	assert_true(modules_builtin_has("kernel/drivers/a/b-c.ko", "b_c"));
	assert_false(modules_builtin_has("kernel/drivers/a/pciehp2.ko\n", "pciehp"));
}

static void test_versions(void **state)
{
	assert_true(ofed_version_valid("24.10-1.1.4"));
	assert_true(ofed_version_valid("5.8-OFED.5.8.1.1.2.1"));
	assert_false(ofed_version_valid("v24.10"));
	assert_false(ofed_version_valid("24.10 1"));
	assert_false(ofed_version_valid(""));
	assert_int_equal(ofed_version_cmp("24.10-1.1.4", "24.10-1.1.4"), 0);
	assert_true(ofed_version_cmp("24.10-1.1.4", "24.7-0.6.1") > 0);
	assert_true(ofed_version_cmp("23.10-1.1.9", "24.10-1.1.4") < 0);
	assert_true(ofed_version_cmp("24.10-1.1.10", "24.10-1.1.9") > 0);
	assert_true(ofed_version_cmp("24.10", "24.10-1") < 0);
	assert_int_equal(ofed_version_cmp("24.010", "24.10"), 0);
	assert_true(kernel_at_least("6.1.0-27-amd64", 5, 12));
	assert_true(kernel_at_least("5.12.0", 5, 12));
	assert_false(kernel_at_least("5.11.22", 5, 12));
	assert_false(kernel_at_least("4.19.0", 5, 12));
	assert_false(kernel_at_least("garbage", 5, 12));
	assert_false(kernel_at_least(NULL, 5, 12));
	assert_int_equal(kmod_path_kind("kernel/drivers/x.ko"), KMOD_PATH_INBOX);
	assert_int_equal(kmod_path_kind("updates/dkms/x.ko"), KMOD_PATH_UPDATES);
	assert_int_equal(kmod_path_kind("extra/mlnx-ofa_kernel/x.ko"), KMOD_PATH_EXTRA);
	assert_int_equal(kmod_path_kind("weird/x.ko"), KMOD_PATH_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_names),   cmocka_unit_test(test_param_values),
		cmocka_unit_test(test_proc_modules),   cmocka_unit_test(test_initstate),
		cmocka_unit_test(test_modinfo_fields), cmocka_unit_test(test_blacklists),
		cmocka_unit_test(test_versions),   cmocka_unit_test(test_param_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
