// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU mode from units and group types, and the one "iommu.mode" result. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "iommu/iommu.h"

static char *no_units[] = { NULL };
static char *dmar_units[] = { (char *)"dmar0", (char *)"dmar1", NULL };
static char *ivhd_units[] = { (char *)"ivhd0", NULL };
static char *smmu_units[] = { (char *)"smmu3.0x0000000009050000", NULL };

static struct iommu_state state_of(char **units, size_t identity, size_t dma, size_t dma_fq,
				   size_t other)
{
	struct iommu_state s = { .units = units };

	while (units[s.n_units])
		s.n_units++;
	s.groups[IOMMU_GROUP_IDENTITY] = identity;
	s.groups[IOMMU_GROUP_DMA] = dma;
	s.groups[IOMMU_GROUP_DMA_FQ] = dma_fq;
	s.groups[IOMMU_GROUP_UNMANAGED] = other;
	s.n_groups = identity + dma + dma_fq + other;
	return s;
}

struct fixture {
	struct results rs;
	struct cmdline cmd;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	results_done(&f->rs);
	cmdline_done(&f->cmd);
	free(f);
	return 0;
}

static const struct result *verify(struct fixture *f, const struct iommu_state *s,
				   const char *cmdline, enum iommu_expect e, enum verdict v)
{
	const struct result *r;

	assert_int_equal(cmdline_parse(cmdline, &f->cmd), 0);
	assert_int_equal(iommu_verify(s, &f->cmd, e, &f->rs), 0);
	assert_int_equal(f->rs.n, 1);
	r = &f->rs.items[0];
	assert_string_equal(verdict_to_string(r->verdict), verdict_to_string(v));
	assert_string_equal(r->check, "iommu.mode");
	assert_string_equal(r->object, "host");
	assert_string_equal(r->expected, iommu_expect_to_string(e));
	if (v == VERDICT_PASS)
		assert_null(r->remedy);
	else
		assert_non_null(r->remedy);
	return r;
}

static void test_mode_off(void **state)
{
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);

	assert_int_equal(iommu_mode(&s), IOMMU_MODE_OFF);
	assert_string_equal(iommu_mode_to_string(iommu_mode(&s)), "off");
}

static void test_mode_passthrough(void **state)
{
	struct iommu_state s = state_of(dmar_units, 57, 0, 0, 0);

	assert_int_equal(iommu_mode(&s), IOMMU_MODE_PASSTHROUGH);
	assert_string_equal(iommu_mode_to_string(iommu_mode(&s)), "passthrough");
}

static void test_mode_translated(void **state)
{
	struct iommu_state dma = state_of(dmar_units, 0, 12, 0, 0);
	struct iommu_state fq = state_of(ivhd_units, 0, 0, 40, 0);
	struct iommu_state both = state_of(ivhd_units, 0, 3, 40, 2);

	assert_int_equal(iommu_mode(&dma), IOMMU_MODE_TRANSLATED);
	assert_int_equal(iommu_mode(&fq), IOMMU_MODE_TRANSLATED);
	assert_int_equal(iommu_mode(&both), IOMMU_MODE_TRANSLATED);
	assert_string_equal(iommu_mode_to_string(iommu_mode(&fq)), "translated");
}

static void test_mode_mixed(void **state)
{
	struct iommu_state s = state_of(dmar_units, 50, 0, 7, 0);

	assert_int_equal(iommu_mode(&s), IOMMU_MODE_MIXED);
	s = state_of(dmar_units, 1, 1, 0, 0);
	assert_int_equal(iommu_mode(&s), IOMMU_MODE_MIXED);
}

static void test_mode_unknown(void **state)
{
	/* Units but no groups, or only unmanaged/blocked groups: cannot tell. */
	struct iommu_state units_only = state_of(dmar_units, 0, 0, 0, 0);
	struct iommu_state unmanaged = state_of(dmar_units, 0, 0, 0, 4);

	assert_int_equal(iommu_mode(&units_only), IOMMU_MODE_UNKNOWN);
	assert_int_equal(iommu_mode(&unmanaged), IOMMU_MODE_UNKNOWN);
}

static void test_verify_passthrough_with_dma_fails(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 0, 64, 0);
	const struct result *r =
		verify(f, &s, "ro intel_iommu=on", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_string_equal(
		r->actual,
		"translated (units: dmar0,dmar1; groups: 64 DMA-FQ; cmdline: intel_iommu=on)");
	assert_non_null(strstr(r->remedy, "iommu=pt"));
}

static void test_verify_passthrough_nopt_remedy(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 64, 0, 0);
	const struct result *r =
		verify(f, &s, "iommu=nopt", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	/* only what is there is to be removed */
	assert_string_equal(r->remedy, "remove iommu=nopt and add iommu=pt (x86) or "
				       "iommu.passthrough=1 to the kernel command line, reboot");
}

static void test_verify_passthrough_when_off(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);
	const struct result *r =
		verify(f, &s, "intel_iommu=off", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_string_equal(r->actual, "off (no IOMMU unit, no groups; cmdline: intel_iommu=off)");
	assert_string_equal(r->remedy, "intel_iommu=off turns the IOMMU off: remove it from the "
				       "kernel command line, add iommu=pt (x86) or "
				       "iommu.passthrough=1, reboot");
}

static void test_verify_off_intel(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 57, 0, 0, 0);
	const struct result *r = verify(f, &s, "ro iommu=pt", IOMMU_EXPECT_OFF, VERDICT_FAIL);

	assert_string_equal(r->remedy, "add intel_iommu=off to the kernel command line, reboot");
	assert_string_equal(
		r->actual,
		"passthrough (units: dmar0,dmar1; groups: 57 identity; cmdline: iommu=pt)");
}

static void test_verify_off_amd(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(ivhd_units, 0, 30, 0, 0);
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_OFF, VERDICT_FAIL);

	assert_string_equal(r->remedy, "add amd_iommu=off to the kernel command line, reboot");
	assert_string_equal(r->actual,
			    "translated (units: ivhd0; groups: 30 DMA; cmdline: no IOMMU options)");
}

static void test_verify_off_arm(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(smmu_units, 0, 8, 0, 0);
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_OFF, VERDICT_FAIL);

	assert_true(strneq(r->remedy, "arm-smmu-v3 has no kernel off switch", 36));
}

static void test_verify_off_passes_when_off(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);

	verify(f, &s, "amd_iommu=off", IOMMU_EXPECT_OFF, VERDICT_PASS);
}

/* Expect=any checks nothing: skip, never pass (issue 17 item 6). */
static void test_verify_any_skips(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 5, 0, 7, 0);
	const struct result *r =
		verify(f, &s, "iommu=pt iommu.strict=0", IOMMU_EXPECT_ANY, VERDICT_SKIP);

	/* Group counts in type order; command-line words in key order. */
	assert_string_equal(r->actual, "not declared (Expect=any): mixed (units: dmar0,dmar1; "
				       "groups: 5 identity, 7 DMA-FQ; cmdline: iommu=pt "
				       "iommu.strict=0)");
}

static void test_verify_translated(void **state)
{
	struct fixture *f = *state;
	struct iommu_state dma = state_of(dmar_units, 0, 9, 0, 0);
	struct iommu_state pt = state_of(dmar_units, 9, 0, 0, 0);
	const struct result *r;

	verify(f, &dma, "", IOMMU_EXPECT_TRANSLATED, VERDICT_PASS);
	results_done(&f->rs);
	cmdline_done(&f->cmd);

	r = verify(f, &pt, "iommu=pt", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);
	assert_string_equal(r->remedy, "remove iommu=pt from the kernel command line, reboot");
}

static void test_verify_unknown(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 0, 0, 0);
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_PASSTHROUGH, VERDICT_UNKNOWN);

	assert_string_equal(
		r->actual, "unknown (units: dmar0,dmar1; groups: none; cmdline: no IOMMU options)");
}

/*
 * intel_iommu=on,sm_off (scalable mode off) with VT-d disabled in firmware:
 * there is no intel_iommu=off to remove and intel_iommu=on is there already:
 * the remedy must point at firmware only.
 */
static void test_verify_translated_off_sm_off_remedy(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);
	const struct result *r =
		verify(f, &s, "intel_iommu=on,sm_off", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);

	assert_string_equal(r->remedy, "no IOMMU is active although intel_iommu=on is set: enable "
				       "VT-d (or AMD-Vi) in firmware, reboot");
}

/* ---- every remedy branch: never add what is there, never remove what is not ---- */

static char *dev7[] = { (char *)"0000:18:00.0", NULL };
static char *drv7[] = { (char *)"nvidia", NULL };
static char *dev12[] = { (char *)"0000:37:00.0", (char *)"0000:37:00.1", NULL };
static char *drv12[] = { (char *)"mlx5_core", (char *)"", NULL };
static char *dev3[] = { (char *)"0000:00:14.0", NULL };
static char *drv3[] = { (char *)"xhci_hcd", NULL };

/* Groups 3 (identity), 7 (DMA), 12 (DMA-FQ) with their devices, under a groups dir. */
static struct iommu_group detail[] = {
	{ .name = (char *)"3",
	  .type = IOMMU_GROUP_IDENTITY,
	  .devices = dev3,
	  .drivers = drv3,
	  .n_devices = 1 },
	{ .name = (char *)"7",
	  .type = IOMMU_GROUP_DMA,
	  .devices = dev7,
	  .drivers = drv7,
	  .n_devices = 1 },
	{ .name = (char *)"12",
	  .type = IOMMU_GROUP_DMA_FQ,
	  .devices = dev12,
	  .drivers = drv12,
	  .n_devices = 2 },
};

static struct iommu_state mixed_with_detail(void)
{
	struct iommu_state s = state_of(dmar_units, 1, 1, 1, 0);

	s.group = detail;
	s.n_group = ARRAY_SIZE(detail);
	s.groups_dir = (char *)"/sys/kernel/iommu_groups";
	return s;
}

/* No "add W" for any word W on the command line. */
static void assert_adds_nothing_present(const char *remedy, const char *cmdline)
{
	char *copy = strdup(cmdline), *save = NULL;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *add;

		assert_true(asprintf(&add, "add %s", w) > 0);
		if (strstr(remedy, add))
			fail_msg("remedy adds '%s', which is already there: %s", w, remedy);
		free(add);
	}
	free(copy);
}

/* The issue: mixed with iommu=pt advised "add iommu=pt" and named no group. */
static void test_mixed_with_pt_names_translated_groups(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = mixed_with_detail();
	const struct result *r =
		verify(f, &s, "ro iommu=pt", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "iommu=pt");
	assert_true(strneq(r->remedy, "iommu=pt is already on the kernel command line", 46));
	assert_non_null(strstr(r->remedy, "group 7 (0000:18:00.0 nvidia), group 12 (0000:37:00.0 "
					  "mlx5_core, 0000:37:00.1 unbound)"));
	assert_null(strstr(r->remedy, "group 3")); /* identity: nothing to do there */
	assert_non_null(strstr(r->remedy, "unbind the drivers of its devices, echo identity > "
					  "/sys/kernel/iommu_groups/7/type, bind them again"));
	assert_non_null(strstr(r->remedy, "5.11"));
}

/* iommu.passthrough=1 counts as the passthrough request too. */
static void test_translated_with_passthrough_1(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 9, 0, 0);
	const struct result *r =
		verify(f, &s, "iommu.passthrough=1", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "iommu.passthrough=1");
	assert_true(strneq(r->remedy, "iommu.passthrough=1 is already on", 33));
	assert_non_null(strstr(r->remedy, "9 groups")); /* counts only: no names to give */
}

/* pt first, passthrough=0 later: the later wins; remove it, do not add pt again. */
static void test_nopt_after_pt(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 9, 0, 0);
	const struct result *r = verify(f, &s, "iommu=pt iommu.passthrough=0",
					IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "iommu=pt iommu.passthrough=0");
	assert_true(
		strneq(r->remedy, "remove iommu.passthrough=0 from the kernel command line", 55));
	assert_null(strstr(r->remedy, "nopt"));
}

static void test_unknown_all_unmanaged(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 0, 0, 12);
	const struct result *r =
		verify(f, &s, "iommu=pt", IOMMU_EXPECT_PASSTHROUGH, VERDICT_UNKNOWN);

	assert_adds_nothing_present(r->remedy, "iommu=pt");
	assert_null(strstr(r->remedy, "add "));
	assert_true(strneq(r->remedy, "every IOMMU group is 'unmanaged' or 'blocked'", 45));
	assert_non_null(strstr(r->remedy, "VFIO"));
	/* the same for the other expectations */
	results_done(&f->rs);
	cmdline_done(&f->cmd);
	r = verify(f, &s, "", IOMMU_EXPECT_TRANSLATED, VERDICT_UNKNOWN);
	assert_null(strstr(r->remedy, "add "));
}

static void test_unknown_units_without_groups(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 0, 0, 0);
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_TRANSLATED, VERDICT_UNKNOWN);

	assert_true(strneq(r->remedy, "IOMMU units are active but there is no IOMMU group", 50));
	assert_null(strstr(r->remedy, "add "));
}

static void test_unknown_no_type_file(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 0, 0, 0);
	const struct result *r;

	s.groups[IOMMU_GROUP_OTHER] = 5;
	s.n_groups = 5;
	r = verify(f, &s, "iommu=pt", IOMMU_EXPECT_PASSTHROUGH, VERDICT_UNKNOWN);
	assert_non_null(strstr(r->remedy, "5.11"));
	assert_null(strstr(r->remedy, "add "));
}

/* Expect=off with the off switch already there: the kernel did not honour it. */
static void test_off_switch_present_but_active(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(dmar_units, 0, 9, 0, 0);
	const struct result *r = verify(f, &s, "intel_iommu=off", IOMMU_EXPECT_OFF, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "intel_iommu=off");
	assert_true(strneq(r->remedy, "intel_iommu=off is already on the kernel command line", 53));
	assert_non_null(strstr(r->remedy, "firmware"));
}

/* Expect=translated, IOMMU off by intel_iommu=off: remove that, nothing about amd_iommu. */
static void test_translated_off_names_only_present_switch(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);
	const struct result *r =
		verify(f, &s, "intel_iommu=off", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);

	assert_string_equal(r->remedy, "intel_iommu=off turns the IOMMU off: remove it from the "
				       "kernel command line, reboot");
}

/* Expect=passthrough, no IOMMU, iommu=pt there: do not ask to add it. */
static void test_passthrough_off_with_pt_present(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(no_units, 0, 0, 0, 0);
	const struct result *r = verify(f, &s, "iommu=pt", IOMMU_EXPECT_PASSTHROUGH, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "iommu=pt");
	assert_true(strneq(r->remedy,
			   "no IOMMU is active and nothing on the command line turns "
			   "it off",
			   62));
}

/* Expect=translated, passthrough=0 already there, groups identity: name them. */
static void test_identity_despite_nopt(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = mixed_with_detail();
	const struct result *r =
		verify(f, &s, "iommu.passthrough=0", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);

	assert_adds_nothing_present(r->remedy, "iommu.passthrough=0");
	assert_true(strneq(r->remedy, "iommu.passthrough=0 is already on", 33));
	assert_non_null(strstr(r->remedy, "group 3 (0000:00:14.0 xhci_hcd)"));
	assert_non_null(strstr(r->remedy, "echo DMA-FQ > /sys/kernel/iommu_groups/3/type"));
}

/* Expect=translated, mixed, nothing on the line: name the identity groups, offer both ways. */
static void test_translated_mixed_default(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = mixed_with_detail();
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);

	assert_non_null(strstr(r->remedy, "group 3 (0000:00:14.0 xhci_hcd)"));
	assert_non_null(strstr(r->remedy, "add iommu.passthrough=0"));
	assert_null(strstr(r->remedy, "group 7"));
}

/* Expect=translated, all identity, nothing on the line: the kernel's default is passthrough. */
/* The words as the kernel reads them (audit): kstrtobool, the last word, arm64. */
static void test_remedy_words_as_read(void **state)
{
	static const struct {
		char **units;
		const char *cmdline;
		enum iommu_expect e;
		const char *remedy; /* its start */
	} cases[] = {
		/* kstrtobool refuses "": nothing was asked */
		{ dmar_units, "iommu.passthrough=", IOMMU_EXPECT_PASSTHROUGH,
		  "add iommu=pt (x86) or iommu.passthrough=1 to the kernel command line" },
		/* "on" is a yes: named as written */
		{ dmar_units, "iommu.passthrough=on", IOMMU_EXPECT_PASSTHROUGH,
		  "iommu.passthrough=on is already on the kernel command line" },
		{ dmar_units, "iommu=pt iommu.passthrough=y", IOMMU_EXPECT_PASSTHROUGH,
		  "iommu=pt / iommu.passthrough=y is already on the kernel command line" },
		{ dmar_units, "iommu.passthrough=n", IOMMU_EXPECT_PASSTHROUGH,
		  "remove iommu.passthrough=n and add iommu=pt (x86)" },
		/* the last intel_iommu= wins */
		{ dmar_units, "intel_iommu=off intel_iommu=on", IOMMU_EXPECT_OFF,
		  "remove intel_iommu=on from the kernel command line (it comes after "
		  "intel_iommu=off, and the last one wins), reboot" },
		{ dmar_units, "intel_iommu=on intel_iommu=off", IOMMU_EXPECT_OFF,
		  "intel_iommu=off is already on the kernel command line" },
		/* arm64 reads no iommu= */
		{ smmu_units, "iommu=pt", IOMMU_EXPECT_PASSTHROUGH,
		  "add iommu.passthrough=1 to the kernel command line (arm64 has no iommu=pt)" },
		{ smmu_units, "iommu.passthrough=1", IOMMU_EXPECT_PASSTHROUGH,
		  "iommu.passthrough=1 is already on the kernel command line" },
		{ smmu_units, "iommu=off", IOMMU_EXPECT_OFF, "arm-smmu-v3 has no kernel off switch" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct fixture *f = *state;
		struct iommu_state s = state_of(cases[i].units, 0, 9, 0, 0);
		const struct result *r;

		r = verify(f, &s, cases[i].cmdline, cases[i].e, VERDICT_FAIL);
		if (!strneq(r->remedy, cases[i].remedy, strlen(cases[i].remedy)))
			fail_msg("%s: remedy '%s', want '%s...'", cases[i].cmdline, r->remedy,
				 cases[i].remedy);
		results_done(&f->rs);
		cmdline_done(&f->cmd);
	}
}

static void test_translated_default_passthrough(void **state)
{
	struct fixture *f = *state;
	struct iommu_state s = state_of(ivhd_units, 9, 0, 0, 0);
	const struct result *r = verify(f, &s, "", IOMMU_EXPECT_TRANSLATED, VERDICT_FAIL);

	assert_true(strneq(r->remedy, "add iommu.passthrough=0", 23));
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_off),
		cmocka_unit_test(test_mode_passthrough),
		cmocka_unit_test(test_mode_translated),
		cmocka_unit_test(test_mode_mixed),
		cmocka_unit_test(test_mode_unknown),
		T(test_verify_passthrough_with_dma_fails),
		T(test_verify_passthrough_nopt_remedy),
		T(test_verify_passthrough_when_off),
		T(test_verify_off_intel),
		T(test_verify_off_amd),
		T(test_verify_off_arm),
		T(test_verify_off_passes_when_off),
		T(test_verify_any_skips),
		T(test_verify_translated),
		T(test_verify_unknown),
		T(test_verify_translated_off_sm_off_remedy),
		T(test_mixed_with_pt_names_translated_groups),
		T(test_translated_with_passthrough_1),
		T(test_nopt_after_pt),
		T(test_unknown_all_unmanaged),
		T(test_unknown_units_without_groups),
		T(test_unknown_no_type_file),
		T(test_off_switch_present_but_active),
		T(test_translated_off_names_only_present_switch),
		T(test_passthrough_off_with_pt_present),
		T(test_identity_despite_nopt),
		T(test_translated_mixed_default),
		T(test_translated_default_passthrough),
		T(test_remedy_words_as_read),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
