// SPDX-License-Identifier: GPL-2.0-or-later
/* PCIe links: the sysfs value parsers, the per-hop judgement, which ports face down. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "topo/links.h"

static void test_parse_speed(void **state)
{
	static const struct {
		const char *s;
		int gen;
	} good[] = {
		{ "2.5 GT/s PCIe", 1 },	 { "5.0 GT/s PCIe", 2 },  { "8.0 GT/s PCIe", 3 },
		{ "16.0 GT/s PCIe", 4 }, { "32.0 GT/s PCIe", 5 }, { "64.0 GT/s PCIe", 6 },
		{ "2.5 GT/s", 1 },	 { "5 GT/s", 2 },	  { "8 GT/s", 3 },
		{ "16 GT/s", 4 },	 { "Unknown", 0 },
	};
	static const char *const bad[] = {
		"",	      "16.0",	 "16.0 GT/s PCIe x", "128.0 GT/s PCIe",
		"33 MHz PCI", "unknown", "1.0 GT/s",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (link_parse_speed(good[i].s) != good[i].gen)
			fail_msg("'%s' parsed as %d", good[i].s, link_parse_speed(good[i].s));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (link_parse_speed(bad[i]) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
	assert_string_equal(link_gen_to_string(4), "16.0 GT/s");
	assert_string_equal(link_gen_to_string(0), "unknown speed");
}

static void test_parse_width(void **state)
{
	assert_int_equal(link_parse_width("16"), 16);
	assert_int_equal(link_parse_width("0"), 0);
	assert_int_equal(link_parse_width("1"), 1);
	assert_int_equal(link_parse_width(""), -EINVAL);
	assert_int_equal(link_parse_width("x16"), -EINVAL);
	assert_int_equal(link_parse_width("-1"), -EINVAL);
	assert_int_equal(link_parse_width("16 "), -EINVAL);
	assert_int_equal(link_parse_width("64"), -EINVAL);
}

/* port (max gen, max width), device (max gen, max width), current gen/width on both ends */
static enum hop_state judge(int pg, int pw, int dg, int dw, int cg, int cw)
{
	struct link_hop h = {
		.port_link = { true, cg, pg, cw, pw },
		.dev_link = { true, cg, dg, cw, dw },
	};

	link_hop_judge(&h);
	return h.state;
}

static void test_judge(void **state)
{
	/* the slot is the limit: a x16 Gen4 card in a x8 slot at x8 is fine */
	assert_int_equal(judge(4, 8, 4, 16, 4, 8), HOP_OK);
	/* a Gen4 card in a Gen3 slot at Gen3 is fine too */
	assert_int_equal(judge(3, 16, 4, 16, 3, 16), HOP_OK);
	/* a x16 card in a x16 slot trained at x8: degraded */
	assert_int_equal(judge(4, 16, 4, 16, 4, 8), HOP_DEGRADED);
	/* narrower and slower: degraded (the width decides) */
	assert_int_equal(judge(4, 16, 4, 16, 3, 8), HOP_DEGRADED);
	/* full width at Gen3 where both ends do Gen4: slow */
	assert_int_equal(judge(4, 16, 4, 16, 3, 16), HOP_SLOW);
	/* a Gen5 card in a Gen4 slot at Gen4: fine */
	assert_int_equal(judge(4, 16, 5, 16, 4, 16), HOP_OK);
	/* link down or unreadable: unknown, never "ok" */
	assert_int_equal(judge(4, 16, 4, 16, 0, 0), HOP_UNKNOWN);
	assert_int_equal(judge(0, 0, 0, 0, 4, 16), HOP_UNKNOWN);
}

static void test_judge_one_end(void **state)
{
	/* the device end is unreadable (asleep): the port's view decides */
	struct link_hop h = {
		.port_link = { true, 4, 4, 8, 16 },
		.dev_link = { true, 0, 0, 0, 0 },
	};
	char buf[256];

	link_hop_judge(&h);
	assert_int_equal(h.state, HOP_DEGRADED);
	assert_int_equal(h.cap_width, 16);
	snprintf(h.port, sizeof(h.port), "0000:40:01.1");
	link_hop_describe(&h, buf, sizeof(buf));
	assert_string_equal(buf, "16.0 GT/s x8, link can do 16.0 GT/s x16 (port 0000:40:01.1: "
				 "16.0 GT/s x16, device: unknown speed x?)");
}

/*
 * Every edge of the hop verdict, one row each: both ends' capability (max gen, max
 * width) and what each end says the link runs at (0: unknown, link down, unreadable).
 */
static void test_judge_table(void **state)
{
	static const struct {
		const char *what;
		struct link_attrs port, dev; /* present, cur_gen, max_gen, cur_width, max_width */
		enum hop_state want;
		int cur_gen, cur_width, cap_gen, cap_width;
	} t[] = {
		{ "all equal",
		  { true, 4, 4, 16, 16 },
		  { true, 4, 4, 16, 16 },
		  HOP_OK,
		  4,
		  16,
		  4,
		  16 },
		{ "one lane below the parent's max (child wider)",
		  { true, 4, 4, 15, 16 },
		  { true, 4, 4, 15, 32 },
		  HOP_DEGRADED,
		  4,
		  15,
		  4,
		  16 },
		{ "one lane below the child's max (parent wider)",
		  { true, 4, 4, 7, 16 },
		  { true, 4, 4, 7, 8 },
		  HOP_DEGRADED,
		  4,
		  7,
		  4,
		  8 },
		{ "at the child's max, below the parent's",
		  { true, 4, 4, 8, 16 },
		  { true, 4, 4, 8, 8 },
		  HOP_OK,
		  4,
		  8,
		  4,
		  8 },
		{ "one gen below the parent's max (child faster)",
		  { true, 3, 4, 16, 16 },
		  { true, 3, 5, 16, 16 },
		  HOP_SLOW,
		  3,
		  16,
		  4,
		  16 },
		{ "one gen below the child's max (parent faster)",
		  { true, 3, 5, 16, 16 },
		  { true, 3, 4, 16, 16 },
		  HOP_SLOW,
		  3,
		  16,
		  4,
		  16 },
		{ "at the parent's max gen, below the child's",
		  { true, 4, 4, 16, 16 },
		  { true, 4, 5, 16, 16 },
		  HOP_OK,
		  4,
		  16,
		  4,
		  16 },
		{ "above both maxima (a reading mid-retrain): not degraded",
		  { true, 5, 4, 32, 16 },
		  { true, 5, 4, 32, 16 },
		  HOP_OK,
		  5,
		  32,
		  4,
		  16 },
		{ "ends disagree on the current width: the lower counts",
		  { true, 4, 4, 16, 16 },
		  { true, 4, 4, 8, 16 },
		  HOP_DEGRADED,
		  4,
		  8,
		  4,
		  16 },
		{ "ends disagree on the current gen: the lower counts",
		  { true, 3, 4, 16, 16 },
		  { true, 4, 4, 16, 16 },
		  HOP_SLOW,
		  3,
		  16,
		  4,
		  16 },
		{ "width and gen both low: degraded wins",
		  { true, 1, 4, 1, 16 },
		  { true, 1, 4, 1, 16 },
		  HOP_DEGRADED,
		  1,
		  1,
		  4,
		  16 },
		{ "current gen unknown on both ends",
		  { true, 0, 4, 16, 16 },
		  { true, 0, 4, 16, 16 },
		  HOP_UNKNOWN,
		  0,
		  16,
		  4,
		  16 },
		{ "current width unknown on both ends",
		  { true, 4, 4, 0, 16 },
		  { true, 4, 4, 0, 16 },
		  HOP_UNKNOWN,
		  4,
		  0,
		  4,
		  16 },
		{ "max gen unknown on both ends",
		  { true, 4, 0, 16, 16 },
		  { true, 4, 0, 16, 16 },
		  HOP_UNKNOWN,
		  4,
		  16,
		  0,
		  16 },
		{ "max width unknown on both ends",
		  { true, 4, 4, 16, 0 },
		  { true, 4, 4, 16, 0 },
		  HOP_UNKNOWN,
		  4,
		  16,
		  4,
		  0 },
		{ "the port alone knows (device asleep)",
		  { true, 4, 4, 16, 16 },
		  { false, 0, 0, 0, 0 },
		  HOP_OK,
		  4,
		  16,
		  4,
		  16 },
		{ "the device alone knows (port unreadable)",
		  { false, 0, 0, 0, 0 },
		  { true, 2, 3, 4, 4 },
		  HOP_SLOW,
		  2,
		  4,
		  3,
		  4 },
		{ "nothing known",
		  { false, 0, 0, 0, 0 },
		  { false, 0, 0, 0, 0 },
		  HOP_UNKNOWN,
		  0,
		  0,
		  0,
		  0 },
		{ "Gen1 x1 at its max",
		  { true, 1, 1, 1, 1 },
		  { true, 1, 1, 1, 1 },
		  HOP_OK,
		  1,
		  1,
		  1,
		  1 },
		{ "Gen6 one below",
		  { true, 5, 6, 16, 16 },
		  { true, 5, 6, 16, 16 },
		  HOP_SLOW,
		  5,
		  16,
		  6,
		  16 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct link_hop h = { .port_link = t[i].port, .dev_link = t[i].dev };

		link_hop_judge(&h);
		if (h.state != t[i].want || h.cur_gen != t[i].cur_gen ||
		    h.cur_width != t[i].cur_width || h.cap_gen != t[i].cap_gen ||
		    h.cap_width != t[i].cap_width)
			fail_msg("%s: state %d gen %d x%d cap %d x%d, want state %d gen %d x%d cap "
				 "%d x%d",
				 t[i].what, h.state, h.cur_gen, h.cur_width, h.cap_gen, h.cap_width,
				 t[i].want, t[i].cur_gen, t[i].cur_width, t[i].cap_gen,
				 t[i].cap_width);
	}
}

#define BRIDGE 0x060400

static struct pci_dev_info dev(const char *addr, uint32_t cls, int parent, int type)
{
	struct pci_dev_info d = { .parent = parent, .pcie_type = type };

	snprintf(d.addr, sizeof(d.addr), "%s", addr);
	d.id.class_code = cls;
	return d;
}

static void test_faces_down(void **state)
{
	/* root port -> switch up -> switch down -> GPU; no config space (types unknown) */
	struct pci_dev_info devs[] = {
		dev("0000:15:01.0", BRIDGE, -1, -1),   dev("0000:16:00.0", BRIDGE, 0, -1),
		dev("0000:17:00.0", BRIDGE, 1, -1),    dev("0000:18:00.0", 0x030200, 2, -1),
		dev("0000:00:1f.0", 0x060100, -1, -1),
	};
	struct pci_inventory inv = { devs, ARRAY_SIZE(devs) };

	assert_true(link_port_faces_down(&inv, 0));
	assert_false(link_port_faces_down(&inv, 1));
	assert_true(link_port_faces_down(&inv, 2));
	assert_false(link_port_faces_down(&inv, 3)); /* not a bridge */
	assert_false(link_port_faces_down(&inv, 4)); /* an ISA bridge */
	/* the PCIe type wins over the tree when config space told it */
	devs[1].pcie_type = 6;
	assert_true(link_port_faces_down(&inv, 1));
	devs[1].pcie_type = 5;
	devs[0].pcie_type = 4;
	assert_false(link_port_faces_down(&inv, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_speed), cmocka_unit_test(test_parse_width),
		cmocka_unit_test(test_judge),	    cmocka_unit_test(test_judge_one_end),
		cmocka_unit_test(test_judge_table), cmocka_unit_test(test_faces_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
