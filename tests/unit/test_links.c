// SPDX-License-Identifier: GPL-2.0-or-later
/* PCIe links: the sysfs value parsers, the per-hop judgement, which ports face down. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
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
	struct pci_inventory inv = { .devs = devs, .n = ARRAY_SIZE(devs) };

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

/*
 * The hops follow the device tree: root port 00:01.0 -> switch upstream 01:00.0 ->
 * downstream 02:00.0 (in sys/devices, missing from bus/pci/devices and so from the
 * inventory, where the function below then sits on a root bus) -> NIC 03:00.0.
 */
static char tree[] = "/tmp/test_links.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *rel)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", tree, rel);
	assert_int_equal(system(cmd), 0);
}

#define D0 "sys/devices/pci0000:00/0000:00:01.0"
#define D1 D0 "/0000:01:00.0"
#define D2 D1 "/0000:02:00.0"
#define D3 D2 "/0000:03:00.0"

static void attrs(const char *dir, const char *speed, const char *width)
{
	static const char *const names[][2] = {
		{ "current_link_speed", "s" }, { "max_link_speed", "s" },
		{ "current_link_width", "w" }, { "max_link_width", "w" },
	};
	char rel[300];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, names[i][0]);
		put(rel, names[i][1][0] == 's' ? speed : width);
	}
}

/* sys/bus/pci/devices/ADDR -> ../../../devices/... as the kernel links it (dir: "sys/...") */
static void link_to(const char *addr, const char *dir)
{
	char target[400], path[400];

	assert_int_equal(strncmp(dir, "sys/", 4), 0);
	snprintf(target, sizeof(target), "../../../%s", dir + 4);
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/%s", tree, addr);
	assert_int_equal(symlink(target, path), 0);
}

static void test_hops_tree(void **state)
{
	struct pci_dev_info devs[] = {
		dev("0000:00:01.0", BRIDGE, -1, 4),
		dev("0000:01:00.0", BRIDGE, 0, 5),
		dev("0000:03:00.0", 0x020000, -1, 0), /* its parent is not listed */
	};
	struct pci_inventory inv = { .devs = devs, .n = ARRAY_SIZE(devs) };
	struct link_hop *hops = NULL;
	struct sysroot root;
	size_t n = 0;
	char cmd[300];

	assert_non_null(mkdtemp(tree));
	mkdirs(D3);
	mkdirs("sys/bus/pci/devices");
	attrs(D0, "8.0 GT/s PCIe", "16");
	attrs(D1, "8.0 GT/s PCIe", "16");
	attrs(D2, "8.0 GT/s PCIe", "8");
	attrs(D3, "8.0 GT/s PCIe", "8");
	link_to("0000:00:01.0", D0);
	link_to("0000:01:00.0", D1);
	link_to("0000:03:00.0", D3);
	assert_int_equal(sysroot_init(&root, tree), 0);

	assert_int_equal(link_hops_collect(&root, &inv, 2, &hops, &n), 0);
	assert_int_equal(n, 2); /* below the unlisted port, and above the switch */
	assert_string_equal(hops[0].port, "0000:02:00.0");
	assert_string_equal(hops[0].dev, "0000:03:00.0");
	assert_true(hops[0].port_unlisted);
	assert_false(hops[0].dev_unlisted);
	assert_int_equal(hops[0].state, HOP_OK);
	assert_int_equal(hops[0].cap_width, 8);
	assert_string_equal(hops[1].port, "0000:00:01.0");
	assert_string_equal(hops[1].dev, "0000:01:00.0");
	assert_false(hops[1].port_unlisted);
	/* again: the hops are known, nothing is added twice */
	assert_int_equal(link_hops_collect(&root, &inv, 2, &hops, &n), 0);
	assert_int_equal(n, 2);

	/* the unlisted port's attributes unreadable: its hop is unknown, still shown */
	snprintf(cmd, sizeof(cmd), "rm %s/" D2 "/*link*", tree);
	assert_int_equal(system(cmd), 0);
	n = 0;
	assert_int_equal(link_hops_collect(&root, &inv, 2, &hops, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(hops[0].state, HOP_UNKNOWN);
	assert_true(hops[0].port_unlisted);

	/* no link in bus/pci/devices (a plain directory): the inventory's parents, none here */
	snprintf(cmd, sizeof(cmd), "rm %s/sys/bus/pci/devices/0000:03:00.0 && mkdir %s/sys/bus/pci/devices/0000:03:00.0", tree, tree);
	assert_int_equal(system(cmd), 0);
	n = 0;
	assert_int_equal(link_hops_collect(&root, &inv, 2, &hops, &n), 0);
	assert_int_equal(n, 0);

	free(hops);
	sysroot_done(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_speed), cmocka_unit_test(test_parse_width),
		cmocka_unit_test(test_judge),	    cmocka_unit_test(test_judge_one_end),
		cmocka_unit_test(test_judge_table), cmocka_unit_test(test_faces_down),
		cmocka_unit_test(test_hops_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
