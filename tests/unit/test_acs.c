// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ACS Control policy masks in the kernel's pci=config_acs= notation and the
 * masked read-modify-write computed from them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acs/acs.h"

#define SV 0x0001u
#define TB 0x0002u
#define RR 0x0004u
#define CR 0x0008u
#define UF 0x0010u
#define EC 0x0020u
#define DT 0x0040u

static struct acs_mask parse_ok(const char *text)
{
	struct acs_mask m = { .clear = 0xdead, .set = 0xbeef };

	assert_int_equal(acs_mask_parse(text, &m), 0);
	return m;
}

static void assert_round_trip(const char *text, uint16_t clear, uint16_t set)
{
	struct acs_mask m = parse_ok(text);
	char buf[ACS_MASK_BITS + 1];

	assert_int_equal(m.clear, clear);
	assert_int_equal(m.set, set);
	acs_mask_format(&m, buf);
	assert_string_equal(buf, text);
}

static void test_round_trip_default(void **state)
{
	/* x0x00xx: EC (bit 5), CR (bit 3), RR (bit 2) off. */
	assert_round_trip("x0x00xx", EC | CR | RR, 0);
	assert_string_equal(ACS_MASK_DEFAULT, "x0x00xx");
}

static void test_round_trip_all_off(void **state)
{
	assert_round_trip("0000000", 0x007f, 0);
}

static void test_round_trip_all_on(void **state)
{
	assert_round_trip("1111111", 0, 0x007f);
}

static void test_round_trip_leave_all(void **state)
{
	assert_round_trip("xxxxxxx", 0, 0);
}

static void test_uppercase_x_accepted(void **state)
{
	struct acs_mask m = parse_ok("X0X00XX");
	char buf[ACS_MASK_BITS + 1];

	assert_int_equal(m.clear, EC | CR | RR);
	assert_int_equal(m.set, 0);
	acs_mask_format(&m, buf);
	assert_string_equal(buf, "x0x00xx"); /* canonical form is lowercase */
}

static void test_bit_order(void **state)
{
	/* First character is bit 6 (DT), last is bit 0 (SV). */
	assert_int_equal(parse_ok("1xxxxxx").set, DT);
	assert_int_equal(parse_ok("x1xxxxx").set, EC);
	assert_int_equal(parse_ok("xx1xxxx").set, UF);
	assert_int_equal(parse_ok("xxx1xxx").set, CR);
	assert_int_equal(parse_ok("xxxx1xx").set, RR);
	assert_int_equal(parse_ok("xxxxx1x").set, TB);
	assert_int_equal(parse_ok("xxxxxx1").set, SV);
	assert_int_equal(parse_ok("0xxxxxx").clear, DT);
	assert_int_equal(parse_ok("xxxxxx0").clear, SV);
	/* Mixed: xx000x0 clears SV, RR, CR, UF (the field notes' example). */
	assert_int_equal(parse_ok("xx000x0").clear, SV | RR | CR | UF);
	assert_int_equal(parse_ok("10x1x0x").set, DT | CR);
	assert_int_equal(parse_ok("10x1x0x").clear, EC | TB);
}

static void test_bad_length_rejected(void **state)
{
	struct acs_mask m = { .clear = 0x1234, .set = 0x4321 };

	assert_int_equal(acs_mask_parse("", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("x0x00x", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("x0x00xxx", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("x0x00xx ", &m), -EINVAL);
	/* Nothing written on failure. */
	assert_int_equal(m.clear, 0x1234);
	assert_int_equal(m.set, 0x4321);
}

static void test_bad_chars_rejected(void **state)
{
	struct acs_mask m = { .clear = 0x1234, .set = 0x4321 };

	assert_int_equal(acs_mask_parse("x0x00x2", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("y0x00xx", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("x0x-0xx", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("x0x 0xx", &m), -EINVAL);
	assert_int_equal(acs_mask_parse("0x001d0", &m), -EINVAL);
	assert_int_equal(m.clear, 0x1234);
	assert_int_equal(m.set, 0x4321);
}

static void test_target_default_mask(void **state)
{
	struct acs_mask m = parse_ok("x0x00xx");

	/* SV|RR|CR|UF as the kernel leaves it with an IOMMU → SV|UF. */
	assert_int_equal(acs_ctrl_target(0x001d, 0x005f, &m), 0x0011);
	assert_false(acs_ctrl_matches(0x001d, 0x005f, &m));
	assert_true(acs_ctrl_matches(0x0011, 0x005f, &m));
	/* Already clear: nothing to do. */
	assert_int_equal(acs_ctrl_target(0x0000, 0x005f, &m), 0x0000);
	assert_true(acs_ctrl_matches(0x0000, 0x005f, &m));
}

static void test_target_all_off(void **state)
{
	struct acs_mask m = parse_ok("0000000");

	assert_int_equal(acs_ctrl_target(0x007f, 0x007f, &m), 0x0000);
	assert_int_equal(acs_ctrl_target(0x001d, 0x005f, &m), 0x0000);
}

static void test_target_preserves_enhanced_bits(void **state)
{
	struct acs_mask clear = parse_ok("x0x00xx");
	struct acs_mask all_off = parse_ok("0000000");
	struct acs_mask all_on = parse_ok("1111111");

	/* Bits 7..12 (Enhanced fields) are never touched. */
	assert_int_equal(acs_ctrl_target(0x1f9d, 0x00ff, &clear), 0x1f91);
	assert_int_equal(acs_ctrl_target(0x1f9d, 0x00ff, &all_off), 0x1f80);
	assert_int_equal(acs_ctrl_target(0x1f80, 0x00ff, &all_on), 0x1fff);
	/* Even a mask struct with bits above 6 cannot reach them. */
	struct acs_mask wide = { .clear = 0xff80, .set = 0 };
	assert_int_equal(acs_ctrl_target(0x1f9d, 0xffff, &wide), 0x1f9d);
	struct acs_mask wide_set = { .clear = 0, .set = 0xff80 };
	assert_int_equal(acs_ctrl_target(0x001d, 0xffff, &wide_set), 0x001d);
}

static void test_target_set_only_where_capable(void **state)
{
	struct acs_mask ec_on = parse_ok("x1xxxxx");
	struct acs_mask dt_on = parse_ok("1xxxxxx");
	struct acs_mask all_on = parse_ok("1111111");

	/* cap 0x001f has no EC: forcing EC on leaves it 0. */
	assert_int_equal(acs_ctrl_target(0x0000, 0x001f, &ec_on), 0x0000);
	assert_true(acs_ctrl_matches(0x0000, 0x001f, &ec_on));
	/* cap 0x007f has EC. */
	assert_int_equal(acs_ctrl_target(0x0000, 0x007f, &ec_on), 0x0020);
	/* cap 0x001f has no DT either. */
	assert_int_equal(acs_ctrl_target(0x0011, 0x001f, &dt_on), 0x0011);
	/* cap 0x005f (AMD GPP): everything but EC. */
	assert_int_equal(acs_ctrl_target(0x0000, 0x005f, &all_on), 0x005f);
}

static void test_merge_compatible(void **state)
{
	struct acs_mask a = parse_ok("xxxx0xx");
	struct acs_mask b = parse_ok("xxx0xx1");
	char buf[ACS_MASK_BITS + 1];

	assert_int_equal(acs_mask_merge(&a, &b), 0);
	acs_mask_format(&a, buf);
	assert_string_equal(buf, "xxx00x1");
	/* Same bit the same way twice is fine. */
	b = parse_ok("xxxx0xx");
	assert_int_equal(acs_mask_merge(&a, &b), 0);
	acs_mask_format(&a, buf);
	assert_string_equal(buf, "xxx00x1");
}

static void test_merge_conflict(void **state)
{
	struct acs_mask a = parse_ok("x0x00xx");
	struct acs_mask b = parse_ok("xxxx1xx"); /* RR on vs off */
	struct acs_mask c = parse_ok("xxxxxx1");
	struct acs_mask d = parse_ok("xxxxxx0"); /* SV off vs on */
	char buf[ACS_MASK_BITS + 1];

	assert_int_equal(acs_mask_merge(&a, &b), -EEXIST);
	/* a is left untouched. */
	acs_mask_format(&a, buf);
	assert_string_equal(buf, "x0x00xx");
	assert_int_equal(acs_mask_merge(&c, &d), -EEXIST);
	acs_mask_format(&c, buf);
	assert_string_equal(buf, "xxxxxx1");
}

static void test_mask_equal(void **state)
{
	struct acs_mask a = parse_ok("x0x00xx"), b = parse_ok("X0X00XX"), c = parse_ok("x0x00x0");

	assert_true(acs_mask_equal(&a, &b));
	assert_false(acs_mask_equal(&a, &c));
}

static void test_describe(void **state)
{
	char buf[64];

	acs_ctrl_describe(0x001d, buf, sizeof(buf));
	assert_string_equal(buf, "SV,RR,CR,UF");
	acs_ctrl_describe(0x0000, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	acs_ctrl_describe(0x007f, buf, sizeof(buf));
	assert_string_equal(buf, "SV,TB,RR,CR,UF,EC,DT");
	acs_ctrl_describe(0x0011, buf, sizeof(buf));
	assert_string_equal(buf, "SV,UF");
	/* Enhanced bits are not policy bits: not named. */
	acs_ctrl_describe(0x1f80, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	acs_ctrl_describe(0x1f91, buf, sizeof(buf));
	assert_string_equal(buf, "SV,UF");
}

static void test_describe_truncates_safely(void **state)
{
	char buf[8];

	memset(buf, 'Z', sizeof(buf));
	acs_ctrl_describe(0x007f, buf, sizeof(buf));
	assert_string_equal(buf, "SV,TB,R");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_default),
		cmocka_unit_test(test_round_trip_all_off),
		cmocka_unit_test(test_round_trip_all_on),
		cmocka_unit_test(test_round_trip_leave_all),
		cmocka_unit_test(test_uppercase_x_accepted),
		cmocka_unit_test(test_bit_order),
		cmocka_unit_test(test_bad_length_rejected),
		cmocka_unit_test(test_bad_chars_rejected),
		cmocka_unit_test(test_target_default_mask),
		cmocka_unit_test(test_target_all_off),
		cmocka_unit_test(test_target_preserves_enhanced_bits),
		cmocka_unit_test(test_target_set_only_where_capable),
		cmocka_unit_test(test_merge_compatible),
		cmocka_unit_test(test_merge_conflict),
		cmocka_unit_test(test_mask_equal),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_describe_truncates_safely),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
