// SPDX-License-Identifier: GPL-2.0-or-later
/* [Inventory]: the key parsers, the config part, and every edge of the judgement. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "inventory/inventory-check.h"
#include "inventory/inventory-config.h"
#include "rdma/rdma-check.h"

static void test_parse_count(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+8", "08", "4097", "8 ", " 8", "x", "0x8", "1e3", "99999999999999999999"
	};

	assert_int_equal(inventory_parse_count("0"), 0);
	assert_int_equal(inventory_parse_count("8"), 8);
	assert_int_equal(inventory_parse_count("4096"), 4096);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (inventory_parse_count(bad[i]) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
}

static void test_parse_ports(void **state)
{
	static const char *const bad[] = { "IB:8",	    "InfiniBand",  "InfiniBand:",
					   "InfiniBand:-1", ":8",	   "Ethernet:4097",
					   "RoCE:2",	    "Ethernet :2", "InfiniBand:8:1",
					   "InfiniBandX:8", "Ether:1" };
	enum inventory_count k;
	const char *reason = NULL;
	int n;

	assert_int_equal(inventory_parse_ports_word("InfiniBand:8", &k, &n, &reason), 0);
	assert_int_equal(k, INVENTORY_PORTS_IB);
	assert_int_equal(n, 8);
	assert_int_equal(inventory_parse_ports_word("ethernet:0", &k, &n, &reason), 0);
	assert_int_equal(k, INVENTORY_PORTS_ETH);
	assert_int_equal(n, 0);
	assert_int_equal(inventory_parse_ports_word("INFINIBAND:4096", &k, &n, &reason), 0);
	assert_int_equal(n, 4096);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		reason = NULL;
		if (inventory_parse_ports_word(bad[i], &k, &n, &reason) != -EINVAL || !reason)
			fail_msg("'%s' was accepted", bad[i]);
	}
}

/* The part as the loader drives it: one section, assignments, finish. */
struct part {
	void *state;
	struct origin at;
};

static void part_open(struct part *p)
{
	*p = (struct part){ .at = { "test.conf", 1 } };
	assert_int_equal(inventory_config_part.section(&p->state, "Inventory", &p->at, 1), 0);
	assert_non_null(p->state);
}

static int set(struct part *p, const char *key, const char *value)
{
	p->at.line++;
	return inventory_config_part.assign(p->state, key, value, &p->at);
}

static int finish(struct part *p)
{
	return inventory_config_part.finish(p->state, &(struct config_finish){ .files = (char *[]){ NULL } });
}

static void test_config(void **state)
{
	struct part p;
	const struct inventory_config *ic;

	part_open(&p);
	ic = p.state;
	for (int k = 0; k < _INVENTORY_COUNT_MAX; k++)
		assert_int_equal(ic->count[k], -1); /* nothing expected until a key says so */
	assert_int_equal(set(&p, "GPUs", "8"), 0);
	assert_int_equal(set(&p, "NICs", "4"), 0);
	assert_int_equal(set(&p, "RDMADevices", "0"), 0);
	assert_int_equal(set(&p, "ActivePorts", "InfiniBand:8 Ethernet:2"), 0);
	assert_int_equal(ic->count[INVENTORY_GPUS], 8);
	assert_int_equal(ic->count[INVENTORY_NICS], 4);
	assert_int_equal(ic->count[INVENTORY_RDMA], 0);
	assert_int_equal(ic->count[INVENTORY_PORTS_IB], 8);
	assert_int_equal(ic->count[INVENTORY_PORTS_ETH], 2);
	/* a later line sets its layer only; an empty one unsets both */
	assert_int_equal(set(&p, "ActivePorts", "Ethernet:1"), 0);
	assert_int_equal(ic->count[INVENTORY_PORTS_IB], 8);
	assert_int_equal(ic->count[INVENTORY_PORTS_ETH], 1);
	assert_int_equal(set(&p, "ActivePorts", ""), 0);
	assert_int_equal(ic->count[INVENTORY_PORTS_IB], -1);
	assert_int_equal(ic->count[INVENTORY_PORTS_ETH], -1);
	assert_int_equal(set(&p, "GPUs", ""), 0);
	assert_int_equal(ic->count[INVENTORY_GPUS], -1);
	/* addresses are canonical; the domain defaults to 0000 */
	assert_int_equal(set(&p, "GPUAddresses", "18:00.0 0000:19:00.0"), 0);
	assert_int_equal(ic->n_addrs[TOPO_GPU], 2);
	assert_string_equal(ic->addrs[TOPO_GPU][0].addr, "0000:18:00.0");
	assert_int_equal(set(&p, "NICAddresses", "0001:1A:00.1"), 0);
	assert_string_equal(ic->addrs[TOPO_NIC][0].addr, "0001:1a:00.1");
	assert_int_equal(finish(&p), 0);
	assert_int_equal(set(&p, "GPUAddresses", ""), 0);
	assert_int_equal(ic->n_addrs[TOPO_GPU], 0);
	inventory_config_part.free(p.state);
}

static void test_config_errors(void **state)
{
	static const struct {
		const char *key, *value;
	} bad[] = {
		{ "GPUs", "eight" },
		{ "GPUs", "-1" },
		{ "NICs", "4097" },
		{ "RDMADevices", "8 9" },
		{ "ActivePorts", "InfiniBand:8 InfiniBand:4" },
		{ "ActivePorts", "IB:8" },
		{ "ActivePorts", "InfiniBand:8 Ethernet" },
		{ "GPUAddresses", "18:00" },
		{ "GPUAddresses", "18:00.0 0000:18:00.0" },
		{ "NICAddresses", "1:2:3:4" },
		{ "GPUs8", "8" },
		{ "gpus", "8" },
	};
	struct part p;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		part_open(&p);
		if (set(&p, bad[i].key, bad[i].value) != -EINVAL)
			fail_msg("%s=%s was accepted", bad[i].key, bad[i].value);
		inventory_config_part.free(p.state);
	}
	/* more addresses than the count: a contradiction, found once all files are read */
	part_open(&p);
	assert_int_equal(set(&p, "GPUs", "1"), 0);
	assert_int_equal(set(&p, "GPUAddresses", "18:00.0 19:00.0"), 0);
	assert_int_equal(finish(&p), -EINVAL);
	assert_int_equal(set(&p, "GPUs", "2"), 0);
	assert_int_equal(finish(&p), 0);
	assert_int_equal(set(&p, "NICs", "0"), 0);
	assert_int_equal(set(&p, "NICAddresses", "1a:00.0"), 0);
	assert_int_equal(finish(&p), -EINVAL);
	inventory_config_part.free(p.state);
}

static void test_fn_judge(void **state)
{
	/* the PCI state first: a dead function is missing whatever its driver link says */
	assert_int_equal(inventory_fn_judge(TOPO_GPU, PCI_DEV_DEAD, 0, true),
			 INVENTORY_FN_NOT_RESPONDING);
	assert_int_equal(inventory_fn_judge(TOPO_NIC, PCI_DEV_GONE, -ENOENT, false),
			 INVENTORY_FN_GONE);
	assert_int_equal(inventory_fn_judge(TOPO_GPU, PCI_DEV_OK, -ENOENT, false),
			 INVENTORY_FN_NO_DRIVER);
	assert_int_equal(inventory_fn_judge(TOPO_NIC, PCI_DEV_OK, -ENOENT, true),
			 INVENTORY_FN_NO_DRIVER);
	assert_int_equal(inventory_fn_judge(TOPO_GPU, PCI_DEV_OK, -EACCES, true),
			 INVENTORY_FN_UNKNOWN);
	/* a GPU needs a driver only; a NIC also an RDMA device or netdev */
	assert_int_equal(inventory_fn_judge(TOPO_GPU, PCI_DEV_OK, 0, false), INVENTORY_FN_OK);
	assert_int_equal(inventory_fn_judge(TOPO_NIC, PCI_DEV_OK, 0, false),
			 INVENTORY_FN_NO_DEVICE);
	assert_int_equal(inventory_fn_judge(TOPO_NIC, PCI_DEV_OK, 0, true), INVENTORY_FN_OK);

	assert_true(inventory_fn_present(INVENTORY_FN_OK));
	assert_true(inventory_fn_present(INVENTORY_FN_NO_DRIVER));
	assert_true(inventory_fn_present(INVENTORY_FN_NO_DEVICE));
	assert_true(inventory_fn_present(INVENTORY_FN_UNKNOWN));
	assert_false(inventory_fn_present(INVENTORY_FN_NOT_RESPONDING));
	assert_false(inventory_fn_present(INVENTORY_FN_GONE));
	assert_string_equal(inventory_fn_state_to_string(INVENTORY_FN_NOT_RESPONDING),
			    "not responding");
}

static void test_count_verdict(void **state)
{
	assert_int_equal(inventory_count_verdict(8, 8, 0), VERDICT_PASS);
	assert_int_equal(inventory_count_verdict(8, 9, 0), VERDICT_PASS);
	assert_int_equal(inventory_count_verdict(8, 7, 0), VERDICT_FAIL);
	assert_int_equal(inventory_count_verdict(8, 7, 1), VERDICT_UNKNOWN);
	assert_int_equal(inventory_count_verdict(8, 6, 1), VERDICT_FAIL);
	assert_int_equal(inventory_count_verdict(8, 0, 8), VERDICT_UNKNOWN);
	assert_int_equal(inventory_count_verdict(0, 0, 0), VERDICT_PASS);
	assert_int_equal(inventory_count_verdict(1, 0, 0), VERDICT_FAIL);
	assert_int_equal(inventory_count_verdict(-1, 0, 0), VERDICT_PASS); /* not asked */
}

static void test_slot_address(void **state)
{
	static const char *const bad[] = { "000:3b:00",	  "0000:3b:20",	 "0000:3b:00.0", "0000:3b",
					   "0000:3g:00",  "0000:3b:0",	 "0000:3b:000",	 "",
					   "0000::3b:00", "0000:3b:00:", "100000:3b:00" };
	uint32_t dom;
	uint8_t bus, dev;

	assert_int_equal(inventory_parse_slot_address("0000:3b:00", &dom, &bus, &dev), 0);
	assert_int_equal(dom, 0);
	assert_int_equal(bus, 0x3b);
	assert_int_equal(dev, 0);
	assert_int_equal(inventory_parse_slot_address("10000:E1:1f", &dom, &bus, &dev), 0);
	assert_int_equal(dom, 0x10000);
	assert_int_equal(bus, 0xe1);
	assert_int_equal(dev, 0x1f);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (inventory_parse_slot_address(bad[i], &dom, &bus, &dev) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
}

/*
 * Root port 0 -> upstream 1 -> downstream 2 (GPU 5), 3 (empty), 4 (NIC 6); root port 7
 * (empty, on the root bus); an NVMe 8 on the root bus.
 */
#define BRIDGE 0x060400
static struct pci_dev_info devs[] = {
	{ .addr = "0000:15:01.0", .id = { .class_code = BRIDGE }, .parent = -1 },
	{ .addr = "0000:16:00.0", .id = { .class_code = BRIDGE }, .parent = 0 },
	{ .addr = "0000:17:00.0", .id = { .class_code = BRIDGE }, .parent = 1 },
	{ .addr = "0000:17:01.0", .id = { .class_code = BRIDGE }, .parent = 1 },
	{ .addr = "0000:17:02.0", .id = { .class_code = BRIDGE }, .parent = 1 },
	{ .addr = "0000:18:00.0", .id = { .class_code = 0x030200 }, .parent = 2 },
	{ .addr = "0000:1a:00.0", .id = { .class_code = 0x020700 }, .parent = 4 },
	{ .addr = "0000:20:01.0", .id = { .class_code = BRIDGE }, .parent = -1 },
	{ .addr = "0000:20:02.0", .id = { .class_code = 0x010802 }, .parent = -1 },
};

static bool empty(const struct pci_inventory *inv, const bool *is_kind, size_t i)
{
	size_t below[ARRAY_SIZE(devs)];
	bool holds[ARRAY_SIZE(devs)];

	inventory_mark_tree(inv, is_kind, below, holds);
	return inventory_empty_port(inv, below, holds, i);
}

static void test_empty_port(void **state)
{
	struct pci_inventory inv = { .devs = devs, .n = ARRAY_SIZE(devs) };
	bool gpu[ARRAY_SIZE(devs)] = { [5] = true }, nic[ARRAY_SIZE(devs)] = { [6] = true };
	bool none[ARRAY_SIZE(devs)] = {};
	size_t below[ARRAY_SIZE(devs)];
	bool holds[ARRAY_SIZE(devs)];

	assert_true(empty(&inv, gpu, 3));
	assert_true(empty(&inv, nic, 3));
	assert_false(empty(&inv, none, 3)); /* siblings hold nothing of the kind */
	assert_false(empty(&inv, gpu, 2));  /* holds the GPU */
	assert_false(empty(&inv, gpu, 4));  /* holds the NIC */
	assert_false(empty(&inv, gpu, 0));  /* a root port, not a switch port */
	assert_false(empty(&inv, gpu, 7));  /* an empty root port */
	assert_false(empty(&inv, gpu, 5));  /* not a bridge */
	assert_false(empty(&inv, gpu, 1));  /* has ports below */

	/* the marks: functions below each, and who holds the GPU (it and every bridge above) */
	inventory_mark_tree(&inv, gpu, below, holds);
	assert_int_equal(below[0], 1);
	assert_int_equal(below[1], 3);
	assert_int_equal(below[3], 0);
	assert_int_equal(below[7], 0);
	assert_true(holds[5] && holds[2] && holds[1] && holds[0]);
	assert_false(holds[3] || holds[4] || holds[6] || holds[7] || holds[8]);

	assert_true(inventory_slot_occupied(&inv, 0, 0x18, 0));
	assert_false(inventory_slot_occupied(&inv, 0, 0x18, 1));
	assert_false(inventory_slot_occupied(&inv, 1, 0x18, 0));
	assert_false(inventory_slot_occupied(&inv, 0, 0x19, 0));
}

/* rdma.port's verdict of one port under a rule that selects every mlx5 port. */
static enum verdict rdma_port_verdict(struct rdma_device *d)
{
	static const struct origin at = { "test.conf", 1 };
	struct port_config *pc = NULL;
	struct rdma_run rr = { .inv = { .devs = d, .n_devs = 1 } };
	struct results rs = {};
	enum verdict v;

	assert_int_equal(port_config_section(&pc, "Port:all", &at, 0), 0);
	assert_int_equal(port_config_assign(pc, "Select", "mlx5_*", &at), 0);
	assert_int_equal(port_config_finish(pc), 0);
	rr.pc = pc;
	assert_int_equal(rdma_run_check(&rr, &rs), 0);
	assert_true(rs.n >= 1 && streq(rs.items[0].check, "rdma.port"));
	v = rs.items[0].verdict;
	results_done(&rs);
	port_config_free(pc);
	return v;
}

/*
 * ActivePorts= counts a port exactly when rdma.port passes it, for every logical state
 * against every physical state: up only ACTIVE/LinkUp (ACTIVE/Disabled, INIT/LinkUp and
 * the rest are down, named); ACTIVE over an unread physical state is unreadable (it
 * could be up); the other layer's count never sees the port.
 */
static void test_ports_states(void **state)
{
	for (int st = RDMA_PORT_NOP; st < _RDMA_PORT_STATE_MAX; st++)
		for (int ph = RDMA_PHYS_UNKNOWN; ph < _RDMA_PHYS_MAX; ph++) {
			struct rdma_port p = { .num = 1,
					       .state = st,
					       .phys_state = ph,
					       .link_layer = RDMA_LL_INFINIBAND };
			struct rdma_device d = { .name = (char *)"mlx5_0", .ports = &p, .n_ports = 1 };
			struct rdma_inventory rd = { .devs = &d, .n_devs = 1 };
			_cleanup_(strbuf_done) struct strbuf down = {};
			struct inventory_ports t;
			bool up = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_LINK_UP;
			bool unread = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_UNKNOWN;
			enum verdict v = rdma_port_verdict(&d);
			char want[64];

			inventory_ports_tally(&rd, NULL, RDMA_LL_INFINIBAND, &t, &down);
			if (t.active != up || t.unreadable != unread || !down.s != (up || unread))
				fail_msg("%s/%s: active %zu, unreadable %zu, down '%s'",
					 rdma_port_state_to_string(st), rdma_phys_state_to_string(ph),
					 t.active, t.unreadable, strempty(down.s));
			/* one judgement: the count's and rdma.port's */
			assert_int_equal(v, up ? VERDICT_PASS : unread ? VERDICT_UNKNOWN : VERDICT_FAIL);
			snprintf(want, sizeof(want), "; mlx5_0/1 %s (%s)", rdma_port_state_to_string(st),
				 rdma_phys_state_to_string(ph));
			if (down.s)
				assert_string_equal(down.s, want);
			inventory_ports_tally(&rd, NULL, RDMA_LL_ETHERNET, &t, &down);
			assert_int_equal(t.active + t.unreadable, 0);
		}
}

/* What could be an up port is unreadable, never active, never left out. */
static void test_ports_unreadable(void **state)
{
	struct rdma_port p[] = {
		{ .num = 1, .state = RDMA_PORT_ACTIVE, .phys_state = RDMA_PHYS_LINK_UP,
		  .link_layer = RDMA_LL_INFINIBAND },
		{ .num = 2, .state = RDMA_PORT_ACTIVE, .phys_state = RDMA_PHYS_LINK_UP,
		  .link_layer = RDMA_LL_ETHERNET },
		{ .num = 3, .state = RDMA_PORT_ACTIVE, .phys_state = RDMA_PHYS_LINK_UP,
		  .link_layer = RDMA_LL_UNKNOWN },
		{ .num = 4, .err = -EACCES, .link_layer = RDMA_LL_INFINIBAND },
	};
	struct rdma_device d[] = {
		{ .name = (char *)"mlx5_0", .ports = p, .n_ports = 4 },
		{ .name = (char *)"mlx5_1", .err = -EIO, .ports = p, .n_ports = 1 },
	};
	struct rdma_inventory rd = { .devs = d, .n_devs = 2 };
	_cleanup_(strbuf_done) struct strbuf down = {};
	struct inventory_ports t;

	/* one judgement: a port of a device that could not be read is unread, up or not */
	assert_int_equal(rdma_port_judge(&d[0], &p[0]), RDMA_PORT_JUDGED_UP);
	assert_int_equal(rdma_port_judge(&d[1], &p[0]), RDMA_PORT_JUDGED_UNREAD);
	assert_int_equal(rdma_port_judge(&d[0], &p[3]), RDMA_PORT_JUDGED_UNREAD);
	inventory_ports_tally(&rd, NULL, RDMA_LL_INFINIBAND, &t, &down);
	assert_int_equal(t.active, 1);	   /* mlx5_0/1 */
	assert_int_equal(t.unreadable, 3); /* layer unknown, port unreadable, device unreadable */
	assert_null(down.s);
	inventory_ports_tally(&rd, NULL, RDMA_LL_ETHERNET, &t, &down);
	assert_int_equal(t.active, 1); /* mlx5_0/2 */
	assert_int_equal(t.unreadable, 3);
}

/* What the device link says: only a physfn link there makes a VF; what cannot be read is unknown. */
static void test_rdma_role(void **state)
{
	assert_int_equal(inventory_rdma_role(true, 0, 0), INVENTORY_RDMA_COUNTED);
	assert_int_equal(inventory_rdma_role(true, 0, 1), INVENTORY_RDMA_VF);
	assert_int_equal(inventory_rdma_role(true, 0, -EACCES), INVENTORY_RDMA_UNKNOWN);
	/* no link: no PCI function (rxe, siw), a device of its own */
	assert_int_equal(inventory_rdma_role(false, 0, 0), INVENTORY_RDMA_COUNTED);
	/* a link that leads nowhere, or that cannot be looked at */
	assert_int_equal(inventory_rdma_role(true, -ENOENT, 0), INVENTORY_RDMA_UNKNOWN);
	assert_int_equal(inventory_rdma_role(true, -EACCES, 0), INVENTORY_RDMA_UNKNOWN);
	assert_int_equal(inventory_rdma_role(false, -EACCES, 0), INVENTORY_RDMA_UNKNOWN);
}

/*
 * The ports of a VF's device are not counted, up or down; an up port of a device whose
 * role is unknown could be padding or real: unreadable, never active.
 */
static void test_ports_roles(void **state)
{
	struct rdma_port up = { .num = 1,
				.state = RDMA_PORT_ACTIVE,
				.phys_state = RDMA_PHYS_LINK_UP,
				.link_layer = RDMA_LL_INFINIBAND };
	struct rdma_port down = up;
	struct rdma_device d[] = {
		{ .name = (char *)"mlx5_0", .ports = &up, .n_ports = 1 },
		{ .name = (char *)"mlx5_1", .ports = &up, .n_ports = 1 },
		{ .name = (char *)"mlx5_2", .ports = &up, .n_ports = 1 },
		{ .name = (char *)"mlx5_3", .ports = &down, .n_ports = 1 },
		{ .name = (char *)"mlx5_4", .ports = &down, .n_ports = 1 },
		{ .name = (char *)"mlx5_5", .err = -EIO, .ports = &up, .n_ports = 1 },
	};
	enum inventory_rdma_role role[] = { INVENTORY_RDMA_COUNTED, INVENTORY_RDMA_VF,
					    INVENTORY_RDMA_UNKNOWN, INVENTORY_RDMA_VF,
					    INVENTORY_RDMA_UNKNOWN, INVENTORY_RDMA_VF };
	struct rdma_inventory rd = { .devs = d, .n_devs = 6 };
	_cleanup_(strbuf_done) struct strbuf names = {};
	struct inventory_ports t;

	down.phys_state = RDMA_PHYS_POLLING;
	inventory_ports_tally(&rd, role, RDMA_LL_INFINIBAND, &t, &names);
	assert_int_equal(t.active, 1);	   /* mlx5_0 */
	assert_int_equal(t.unreadable, 1); /* mlx5_2; the VF mlx5_5 unreadable is not counted */
	assert_string_equal(names.s, "; mlx5_4/1 ACTIVE (Polling)");
	/* without roles, all of them */
	inventory_ports_tally(&rd, NULL, RDMA_LL_INFINIBAND, &t, &names);
	assert_int_equal(t.active, 3);
	assert_int_equal(t.unreadable, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_count),  cmocka_unit_test(test_parse_ports),
		cmocka_unit_test(test_config),	     cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_fn_judge),     cmocka_unit_test(test_count_verdict),
		cmocka_unit_test(test_slot_address), cmocka_unit_test(test_empty_port),
		cmocka_unit_test(test_ports_states), cmocka_unit_test(test_ports_unreadable),
		cmocka_unit_test(test_rdma_role),    cmocka_unit_test(test_ports_roles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
