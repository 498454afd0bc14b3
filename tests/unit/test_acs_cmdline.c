// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pci=config_acs= / pci=disable_acs_redir= evaluated as drivers/pci/pci.c
 * does: pci_dev_str_match*(), __pci_config_acs() (first match wins, a
 * malformed entry stops the walk), the pre-9cf8a952d57b parse, and the
 * acs.cmdline verdicts built on them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acs/acs-cmdline.h"

/* 0000:00:01.0 root port -> 0000:01:00.0 switch up -> 0000:02:08.0, 0000:02:10.0 down */
enum { RP, USP, DSP8, DSP10, N_DEVS };

static struct pci_dev_info devs[N_DEVS];
static struct pci_inventory inv = { .devs = devs, .n = N_DEVS };

static void dev(int i, unsigned bus, unsigned slot, unsigned fn, uint16_t vendor, int parent,
		bool acs)
{
	devs[i] = (struct pci_dev_info){
		.id = { .bus = bus, .dev = slot, .func = fn, .vendor = vendor, .device = 0x8796 },
		.parent = parent,
		.pcie_type = -1,
		.has_acs = acs,
	};
	snprintf(devs[i].addr, sizeof(devs[i].addr), "0000:%02x:%02x.%x", bus, slot, fn);
}

static int setup(void **state)
{
	dev(RP, 0x00, 0x01, 0, 0x8086, -1, true);
	dev(USP, 0x01, 0x00, 0, 0x10b5, RP, false);
	dev(DSP8, 0x02, 0x08, 0, 0x10b5, USP, true);
	dev(DSP10, 0x02, 0x10, 0, 0x10b5, USP, true);
	return 0;
}

static int match(int d, const char *s)
{
	const char *end = NULL;

	return kacs_dev_str_match(&inv, &devs[d], s, &end);
}

static void test_dev_str_match_forms(void **state)
{
	assert_int_equal(match(RP, "0000:00:01.0"), 1);
	assert_int_equal(match(RP, "00:01.0"), 1); /* domain-less: domain 0 */
	assert_int_equal(match(RP, "0001:00:01.0"), 0);
	assert_int_equal(match(DSP8, "0000:00:01.0/00.0/08.0"), 1);
	assert_int_equal(match(DSP8, "00:01.0/00.0/08.0;junk"), 1); /* the entry ends at ';' */
	assert_int_equal(match(DSP10, "0000:00:01.0/00.0/08.0"), 0);
	assert_int_equal(match(DSP8, "0000:02:08.0"), 1);
	/* PCI_DEVFN() masks the slot to 5 bits and the function to 3. */
	assert_int_equal(match(RP, "00:21.8"), 1);
	/* vsscanf %x takes a 0x prefix, leading white space, but no sign. */
	assert_int_equal(match(RP, "0x0:0x00:0x01.0x0"), 1);
	assert_int_equal(match(RP, "0: 00: 01. 0"), 1);
	assert_int_equal(match(RP, "+0:00:01.0"), -EINVAL);
	/* Anything after the function is an error, not a mismatch. */
	assert_int_equal(match(RP, "0000:00:01.0y"), -EINVAL);
	/* ... except "x" after a 0: simple_strntoull() eats "0x" as a prefix. */
	assert_int_equal(match(RP, "0000:00:01.0x"), 1);
	assert_int_equal(match(RP, "\"0000:00:01.0"), -EINVAL);
	/* A hop that does not fit ends the match before the rest is parsed. */
	assert_int_equal(match(RP, "zz/08.0"), 0);
	assert_int_equal(match(DSP8, "zz/08.0"), -EINVAL);
	assert_int_equal(match(DSP8, "00:01.0/00.0/08.0y"), -EINVAL);
	/* Past the root bus: no match. */
	assert_int_equal(match(RP, "00:00.0/01.0"), 0);
}

static void test_dev_str_match_ids(void **state)
{
	const char *end = NULL;

	assert_int_equal(match(DSP8, "pci:10b5:8796"), 1);
	assert_int_equal(match(RP, "pci:10b5:8796"), 0);
	assert_int_equal(match(RP, "pci:0:0"), 1); /* 0 is a wildcard */
	assert_int_equal(match(DSP8, "pci:10b5:8796:1234:5678"), -ENODATA);
	assert_int_equal(match(RP, "pci:10b5:8796:1234:5678"), 0);
	assert_int_equal(match(DSP8, "pci:10b5"), -EINVAL);
	assert_int_equal(kacs_dev_str_match(&inv, &devs[RP], "pci:10b5:8796zz;x", &end), 0);
	assert_string_equal(end, "zz;x");
}

static void eval(const char *param, bool config, bool buggy, int d, struct kacs_eval *e)
{
	kacs_evaluate(param, config, buggy, 0, &inv, &devs[d], e);
}

static void test_first_entry_wins(void **state)
{
	struct kacs_eval e;

	eval("xx000x0@00:01.0;x0x00xx@0000:00:01.0", true, false, RP, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.entry, 1);
	assert_int_equal(e.mask, 0x1d);
	assert_int_equal(e.flags, 0);
	kacs_evaluate("xx000x0@00:01.0;x0x00xx@0000:00:01.0", true, false, 1, &inv, &devs[RP], &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.entry, 2);
	assert_int_equal(e.mask, 0x2c);
	/* '1' sets flags; fewer than 7 characters are the low bits. */
	eval("1x0@0000:02:10.0", true, false, DSP10, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.mask, 0x5);
	assert_int_equal(e.flags, 0x4);
	/* A leading 'x' beyond 7 characters is harmless, a '0' there is not. */
	eval("xx0x00xx@00:01.0", true, false, RP, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	eval("0x0x00xx@00:01.0", true, false, RP, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	assert_string_equal(e.why, "more than 7 flags");
}

/* One malformed entry stops the walk for exactly the devices not named before it. */
static void test_malformed_entry_stops(void **state)
{
	const char *p = "x0x00xx@00:01.0;x0q00xx@02:08.0;x0x00xx@02:10.0";
	struct kacs_eval e;

	eval(p, true, false, RP, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	eval(p, true, false, DSP10, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	assert_int_equal(e.entry, 2);
	assert_string_equal(e.why, "'q' is not a flag (0, 1, x)");
	/* Fatal only for the device whose path reaches the bad part. */
	p = "x0x00xx@zz/08.0;x0x00xx@00:01.0";
	eval(p, true, false, DSP8, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	assert_int_equal(e.entry, 1);
	eval(p, true, false, RP, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.entry, 2);
	/* No '@': the flags are missing (strstr finds a later entry's '@'). */
	eval("00:01.0;x0x00xx@02:08.0", true, false, DSP8, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	/* Text after the device ends the walk silently. */
	eval("x0x00xx@pci:10b5:8796zz;x0x00xx@00:01.0", true, false, RP, &e);
	assert_int_equal(e.state, KACS_ENDED);
	/* The quoted value as systemd-boot passes it. */
	eval("\"x0x00xx@00:01.0\"", true, false, RP, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	assert_int_equal(e.entry, 1);
	eval("\"00:01.0;02:08.0\"", false, false, RP, &e);
	assert_int_equal(e.state, KACS_STOPPED);
}

/* Before 9cf8a952d57b the flags were read only while no entry had set one. */
static void test_buggy_parse(void **state)
{
	const char *p = "x0x00xx@00:01.0;xx000x0@02:08.0";
	struct kacs_eval e;

	eval(p, true, true, RP, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	eval(p, true, true, DSP8, &e);
	assert_int_equal(e.state, KACS_STOPPED);
	assert_int_equal(e.entry, 2);
	eval(p, true, false, DSP8, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.mask, 0x1d);
	eval("xxxxxxx@00:01.0;x0x00xx@02:08.0", true, true, DSP8, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.mask, 0x2c);
	/* A later entry without '@' is read whole as the device (found by tests/fuzz). */
	eval("x0x00xx@00:01.0;02:08.0", true, true, DSP8, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.entry, 2);
	assert_string_equal(e.dev, "02:08.0");
}

static void test_disable_acs_redir_form(void **state)
{
	struct kacs_eval e;

	eval("00:01.0;0000:00:01.0/00.0/08.0", false, false, DSP8, &e);
	assert_int_equal(e.state, KACS_MATCHED);
	assert_int_equal(e.entry, 2);
	assert_int_equal(e.mask, 0x2c);
	assert_int_equal(e.flags, 0);
	eval("00:01.0;0000:00:01.0/00.0/08.0", false, false, DSP10, &e);
	assert_int_equal(e.state, KACS_NOT_NAMED);
}

static void test_params_last_wins(void **state)
{
	struct kacs_params k = {};
	struct cmdline c = {};

	assert_int_equal(cmdline_parse("pci=config_acs=a@b,noaer pci=noats,disable_acs_redir=x,"
				       "config_acs=c@d pci pci= config_acs=e@f",
				       &c),
			 0);
	assert_int_equal(kacs_params_get(&c, &k), 0);
	assert_string_equal(k.config_acs, "c@d");
	assert_string_equal(k.disable_acs_redir, "x");
	kacs_params_done(&k);
	cmdline_done(&c);
}

static void test_kernel_versions(void **state)
{
	assert_int_equal(kernel_acs_param("4.14.300"), KERNEL_ACS_NONE);
	assert_int_equal(kernel_acs_param("4.19.0-26-amd64"), KERNEL_ACS_REDIR);
	assert_int_equal(kernel_acs_param("6.1.0-27-amd64"), KERNEL_ACS_REDIR);
	assert_int_equal(kernel_acs_param("6.10.14"), KERNEL_ACS_REDIR);
	assert_int_equal(kernel_acs_param("6.11.11"), KERNEL_ACS_CONFIG_BUGGY);
	assert_int_equal(kernel_acs_param("6.12.22"), KERNEL_ACS_CONFIG_BUGGY);
	assert_int_equal(kernel_acs_param("6.12.23"), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param("6.13.10"), KERNEL_ACS_CONFIG_BUGGY);
	assert_int_equal(kernel_acs_param("6.13.11"), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param("6.14.1"), KERNEL_ACS_CONFIG_BUGGY);
	assert_int_equal(kernel_acs_param("6.14.2"), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param("6.15.0"), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param("7.0.0"), KERNEL_ACS_CONFIG);
	/* unknown: 'acs cmdline' refuses; the checks take a current kernel */
	assert_int_equal(kernel_acs_param("garbage"), KERNEL_ACS_UNKNOWN);
	assert_int_equal(kernel_acs_param("6"), KERNEL_ACS_UNKNOWN);
	assert_int_equal(kernel_acs_param(NULL), KERNEL_ACS_UNKNOWN);
	assert_int_equal(kernel_acs_param_assumed(NULL), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param_assumed("garbage"), KERNEL_ACS_CONFIG);
	assert_int_equal(kernel_acs_param_assumed("6.1.0"), KERNEL_ACS_REDIR);
}

/* ---- acs.cmdline verdicts ---- */

static struct acs_target targets[2];
static struct plan plan = { .targets = targets, .n_targets = 2 };

static const struct result *verify(const char *line, const char *rel, const char *mask,
				   struct results *rs)
{
	struct cmdline c = {};

	for (int i = 0; i < 2; i++) {
		targets[i] = (struct acs_target){};
		strcpy(targets[i].addr, devs[i ? DSP8 : RP].addr);
		assert_int_equal(acs_mask_parse(mask, &targets[i].mask), 0);
	}
	*rs = (struct results){};
	assert_int_equal(cmdline_parse(line, &c), 0);
	assert_int_equal(acs_cmdline_verify(&plan, &inv, &c, rel, rs), 0);
	cmdline_done(&c);
	assert_int_equal(rs->n, 1);
	assert_string_equal(rs->items[0].check, "acs.cmdline");
	return &rs->items[0];
}

#define GOOD "x0x00xx@0000:00:01.0;x0x00xx@0000:00:01.0/00.0/08.0"

static void test_verify_verdicts(void **state)
{
	struct results rs;
	const struct result *x;

	x = verify("ro pci=config_acs=" GOOD, "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_PASS);
	results_done(&rs);
	/* (a) the quoted form as systemd-boot passes it */
	x = verify("ro pci=config_acs=\"" GOOD "\"", "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_non_null(strstr(x->actual, "quoted value passed verbatim: the kernel keeps the "
					  "quotes and rejects the flags"));
	assert_non_null(strstr(x->remedy, "pci=config_acs=" GOOD));
	assert_null(strstr(x->remedy, GOOD "\""));
	results_done(&rs);
	/* ... and the whole word or the value quoted, which the kernel strips */
	x = verify("ro \"pci=config_acs=" GOOD "\"", "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_PASS);
	results_done(&rs);
	x = verify("ro pci=\"config_acs=" GOOD "\"", "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_PASS);
	results_done(&rs);
	/* (b) an earlier entry for the same device wins */
	x = verify("pci=config_acs=xx000x0@00:01.0;" GOOD, "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_string_equal(x->actual, "not applied for 1 of 2 ports: 0000:00:01.0: entry #1 for "
				       "00:01.0 (xx000x0) wins over entry #2");
	results_done(&rs);
	/* (c) a malformed entry stops the walk for the devices after it */
	x = verify("pci=config_acs=x0x00xx@0000:00:01.0;x0x00x@@0000:02:08.0", "6.15.0", "x0x00xx",
		   &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_string_equal(x->actual,
			    "not applied for 1 of 2 ports: 0000:02:08.0: pci=config_acs= entry "
			    "#2 (x0x00x@@0000:02:08.0): the kernel cannot parse the device; the "
			    "kernel reads no further");
	results_done(&rs);
	/* the last config_acs= counts, over several pci= words */
	x = verify("pci=config_acs=" GOOD " pci=noaer,config_acs=x0x00xx@00:01.0", "6.15.0",
		   "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	results_done(&rs);
	/* disable_acs_redir is x0x00xx on a fixed kernel too */
	x = verify("pci=disable_acs_redir=00:01.0;0000:02:08.0", "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_PASS);
	results_done(&rs);
	x = verify("pci=disable_acs_redir=00:01.0;0000:02:08.0", "6.15.0", "xx000x0", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	results_done(&rs);
	/* subsystem IDs hostprep does not read */
	x = verify("pci=config_acs=x0x00xx@pci:10b5:8796:1:2;" GOOD, "6.15.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_true(strneq(x->actual, "cannot tell for 1 of 2 ports:", 29));
	results_done(&rs);
}

static void test_verify_kernel_versions(void **state)
{
	struct results rs;
	const struct result *x;

	/* without the 2025 fix a list is only partly honoured */
	x = verify("pci=config_acs=" GOOD, "6.12.9", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_true(strneq(x->actual, "kernel 6.12.9 may lack the 2025 pci=config_acs fix", 50));
	assert_non_null(strstr(x->remedy, "6.12.23"));
	results_done(&rs);
	/* before 6.11: disable_acs_redir is evaluated, config_acs means nothing */
	x = verify("pci=disable_acs_redir=00:01.0;00:01.0/00.0/08.0", "6.1.0-27-amd64", "x0x00xx",
		   &rs);
	assert_int_equal(x->verdict, VERDICT_PASS);
	assert_string_equal(x->expected, "pci=disable_acs_redir= at boot");
	results_done(&rs);
	x = verify("pci=config_acs=" GOOD, "6.1.0-27-amd64", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_non_null(strstr(x->actual, "no pci=disable_acs_redir= on the command line"));
	assert_non_null(
		strstr(x->remedy, "pci=disable_acs_redir=\"0000:00:01.0;0000:00:01.0/00.0/08.0\""));
	results_done(&rs);
	x = verify("pci=disable_acs_redir=\"00:01.0;00:01.0/00.0/08.0\"", "6.1.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_WARN);
	assert_non_null(strstr(x->actual, "quoted value passed verbatim"));
	results_done(&rs);
	/* a policy disable_acs_redir cannot express: no boot-time form, no remedy */
	x = verify("ro", "6.1.0-27-amd64", "xx000x0", &rs);
	assert_int_equal(x->verdict, VERDICT_SKIP);
	assert_null(x->remedy);
	assert_non_null(strstr(x->actual, "0000:00:01.0 wants xx000x0"));
	results_done(&rs);
	x = verify("ro", "4.14.0", "x0x00xx", &rs);
	assert_int_equal(x->verdict, VERDICT_SKIP);
	assert_null(x->remedy);
	results_done(&rs);
}

static void test_format_redir(void **state)
{
	_cleanup_(freep) char *arg = NULL;
	const struct acs_target *bad = NULL;
	struct results rs;

	verify("ro", "6.15.0", "x0x00xx", &rs);
	results_done(&rs);
	assert_int_equal(acs_cmdline_format_redir(&plan, &inv, &arg, &bad), 0);
	assert_string_equal(arg, "pci=disable_acs_redir=\"0000:00:01.0;0000:00:01.0/00.0/08.0\"");
	assert_int_equal(acs_mask_parse("xx000x0", &targets[1].mask), 0);
	assert_int_equal(acs_cmdline_format_redir(&plan, &inv, &arg, &bad), -EDOM);
	assert_ptr_equal(bad, &targets[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_dev_str_match_forms, setup),
		cmocka_unit_test_setup(test_dev_str_match_ids, setup),
		cmocka_unit_test_setup(test_first_entry_wins, setup),
		cmocka_unit_test_setup(test_malformed_entry_stops, setup),
		cmocka_unit_test_setup(test_buggy_parse, setup),
		cmocka_unit_test_setup(test_disable_acs_redir_form, setup),
		cmocka_unit_test_setup(test_params_last_wins, setup),
		cmocka_unit_test_setup(test_kernel_versions, setup),
		cmocka_unit_test_setup(test_verify_verdicts, setup),
		cmocka_unit_test_setup(test_verify_kernel_versions, setup),
		cmocka_unit_test_setup(test_format_redir, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
