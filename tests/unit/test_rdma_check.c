// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The [Port:*] judgement on hand-made inventories: every logical state against every
 * physical state (ready only as ACTIVE + LinkUp), and the rdma.env content (only ports
 * that pass their rule, Env=no, names unsafe for a shell left out).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>

#include "rdma/rdma-check.h"

static const struct origin here = { "test.conf", 1 };

static struct port_config *rules(const char *const *lines)
{
	struct port_config *pc = NULL;

	for (; *lines; lines++) {
		char key[64];
		const char *eq = strchr(*lines, '=');

		if (!eq) {
			assert_int_equal(port_config_section(&pc, *lines, &here, 0), 0);
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *lines), *lines);
		assert_int_equal(port_config_assign(pc, key, eq + 1, &here), 0);
	}
	assert_int_equal(port_config_finish(pc), 0);
	return pc;
}

static const struct result *find(const struct results *rs, const char *check, const char *obj)
{
	for (size_t i = 0; i < rs->n; i++)
		if (streq(rs->items[i].check, check) && streq(rs->items[i].object, obj))
			return &rs->items[i];
	fail_msg("no %s %s", check, obj);
	return NULL;
}

static struct rdma_port ib_port(enum rdma_port_state st, enum rdma_phys_state ph)
{
	return (struct rdma_port){ .num = 1,
				   .state = st,
				   .phys_state = ph,
				   .link_layer = RDMA_LL_INFINIBAND,
				   .rate = { .mbps = 400000, .width = 4, .speed = "NDR" } };
}

static enum verdict judge_one(struct port_config *pc, struct rdma_port *p)
{
	struct rdma_device d = { .name = (char *)"mlx5_0", .ports = p, .n_ports = 1 };
	struct rdma_run rr = { .pc = pc, .inv = { .devs = &d, .n_devs = 1 } };
	struct results rs = {};
	enum verdict v;

	assert_int_equal(rdma_run_check(&rr, &rs), 0);
	v = find(&rs, "rdma.port", "mlx5_0/1")->verdict;
	results_done(&rs);
	return v;
}

/* state x phys_state: ready only when ACTIVE and LinkUp; ACTIVE over an unread link is unknown. */
static void test_state_table(void **state)
{
	static const char *const strict[] = { "Port:rails", "Select=mlx5_*", NULL };
	static const char *const lenient[] = { "Port:rails", "Select=mlx5_*", "AllowDown=yes",
					       NULL };
	struct port_config *s = rules(strict), *l = rules(lenient);

	for (int st = RDMA_PORT_NOP; st < _RDMA_PORT_STATE_MAX; st++)
		for (int ph = RDMA_PHYS_UNKNOWN; ph < _RDMA_PHYS_MAX; ph++) {
			struct rdma_port p = ib_port(st, ph);
			bool up = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_LINK_UP;
			bool unread = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_UNKNOWN;
			enum verdict want = up	     ? VERDICT_PASS
					    : unread ? VERDICT_UNKNOWN
						     : VERDICT_FAIL;

			print_message("state %s phys %s\n", rdma_port_state_to_string(st),
				      rdma_phys_state_to_string(ph));
			assert_int_equal(rdma_port_ready(st, ph), up ? 1 : unread ? -ENODATA : 0);
			assert_int_equal(judge_one(s, &p), want);
			/* AllowDown=yes turns "down" into a warning, never "unknown" into one */
			assert_int_equal(judge_one(l, &p),
					 want == VERDICT_FAIL ? VERDICT_WARN : want);
		}
	port_config_free(s);
	port_config_free(l);
}

/* MinActive counts only ready ports: INIT, ARMED, ACTIVE/Disabled are not active. */
static void test_min_active(void **state)
{
	static const char *const conf[] = { "Port:rails", "Select=mlx5_*", "AllowDown=yes",
					    "MinActive=2", NULL };
	struct port_config *pc = rules(conf);
	struct rdma_port p[] = { ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_INIT, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_ARMED, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_DISABLED),
				 ib_port(RDMA_PORT_ACTIVE_DEFER, RDMA_PHYS_LINK_UP) };
	struct rdma_device d = { .name = (char *)"mlx5_0", .ports = p, .n_ports = 5 };
	struct rdma_run rr = { .pc = pc, .inv = { .devs = &d, .n_devs = 1 } };
	struct results rs = {};
	const struct result *x;

	for (unsigned i = 0; i < 5; i++)
		p[i].num = i + 1;
	assert_int_equal(rdma_run_check(&rr, &rs), 0);
	x = find(&rs, "rdma.ports", "Port:rails");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "1 of 5 selected ports active"));
	x = find(&rs, "rdma.port", "mlx5_0/4");
	assert_non_null(strstr(x->actual, "ACTIVE/Disabled — admin down"));
	results_done(&rs);
	port_config_free(pc);
}

/* The rdma.port result of one ACTIVE/LinkUp port under one rule given as a key line. */
static const struct result *judge_rule(const char *line, struct rdma_port *p, struct results *rs)
{
	const char *const conf[] = { "Port:rails", "Select=mlx5_*", line, NULL };
	struct port_config *pc = rules(conf);
	struct rdma_device d = { .name = (char *)"mlx5_0", .ports = p, .n_ports = 1 };
	struct rdma_run rr = { .pc = pc, .inv = { .devs = &d, .n_devs = 1 } };

	assert_int_equal(rdma_run_check(&rr, rs), 0);
	port_config_free(pc);
	return find(rs, "rdma.port", "mlx5_0/1");
}

/*
 * MinWidth=: every width a port trains at against every width a rule can ask, both sides
 * of each boundary (the width asked passes, one step below fails); a width the kernel or
 * verbs did not give is unknown, never "0X below".
 */
static void test_min_width(void **state)
{
	static const unsigned widths[] = { 0, 1, 2, 4, 8, 12 };

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		for (size_t k = 1; k < sizeof(widths) / sizeof(widths[0]); k++) {
			struct rdma_port p = ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP);
			struct results rs = {};
			char line[32];
			enum verdict want = widths[i] == 0	     ? VERDICT_UNKNOWN
					    : widths[i] >= widths[k] ? VERDICT_PASS
								     : VERDICT_FAIL;
			const struct result *x;

			p.rate.width = widths[i];
			snprintf(line, sizeof(line), "MinWidth=%uX", widths[k]);
			x = judge_rule(line, &p, &rs);
			if (x->verdict != want)
				fail_msg("width %uX, %s: %s", widths[i], line, x->actual);
			if (want == VERDICT_FAIL)
				assert_non_null(strstr(x->actual, "below MinWidth="));
			results_done(&rs);
		}
}

/* MinRate=: the rate asked passes, one Mb/s less fails. */
static void test_min_rate(void **state)
{
	static const struct {
		uint32_t mbps;
		const char *line;
		enum verdict want;
	} t[] = {
		{ 400000, "MinRate=400", VERDICT_PASS },
		{ 399999, "MinRate=400", VERDICT_FAIL },
		{ 200000, "MinRate=200", VERDICT_PASS },
		{ 200000, "MinRate=200.001", VERDICT_FAIL },
		{ 53125, "MinRate=53.125", VERDICT_PASS },
		{ 53124, "MinRate=53.125", VERDICT_FAIL },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rdma_port p = ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP);
		struct results rs = {};
		const struct result *x;

		p.rate.mbps = t[i].mbps;
		x = judge_rule(t[i].line, &p, &rs);
		if (x->verdict != t[i].want)
			fail_msg("%u Mb/s, %s: %s", t[i].mbps, t[i].line, x->actual);
		results_done(&rs);
	}
}

static struct rdma_gid v2_gid(unsigned idx, const char *ndev)
{
	struct rdma_gid g = { .index = idx, .type = RDMA_GID_ROCE_V2 };

	g.raw[10] = g.raw[11] = 0xff;
	g.raw[12] = 10;
	g.raw[15] = (uint8_t)idx;
	snprintf(g.ndev, sizeof(g.ndev), "%s", ndev);
	return g;
}

static struct rdma_port roce_port(struct rdma_gid *g, size_t n, const char *netdev)
{
	struct rdma_port p = ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP);

	p.link_layer = RDMA_LL_ETHERNET;
	p.gids = g;
	p.n_gids = n;
	p.gids_read = true;
	p.netdev = (char *)netdev;
	p.netdev_up = true;
	return p;
}

/*
 * LinkLayer=: every layer a port reports against every layer a rule asks: the same passes,
 * another fails (a wrong LINK_TYPE), one not read is unknown, never that fail.
 */
static void test_link_layer(void **state)
{
	static const struct {
		enum rdma_link_layer port;
		const char *line;
		enum verdict want;
	} t[] = {
		{ RDMA_LL_INFINIBAND, "LinkLayer=InfiniBand", VERDICT_PASS },
		{ RDMA_LL_ETHERNET, "LinkLayer=InfiniBand", VERDICT_FAIL },
		{ RDMA_LL_UNKNOWN, "LinkLayer=InfiniBand", VERDICT_UNKNOWN },
		{ RDMA_LL_INFINIBAND, "LinkLayer=Ethernet", VERDICT_FAIL },
		{ RDMA_LL_UNKNOWN, "LinkLayer=Ethernet", VERDICT_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rdma_port p = ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP);
		struct results rs = {};
		const struct result *x;

		p.link_layer = t[i].port;
		x = judge_rule(t[i].line, &p, &rs);
		if (x->verdict != t[i].want)
			fail_msg("%s port, %s: %s", rdma_link_layer_to_string(t[i].port), t[i].line,
				 x->actual);
		if (t[i].want == VERDICT_UNKNOWN)
			assert_string_equal(x->cause, "rdma.port:unreadable");
		results_done(&rs);
	}
}

/*
 * rdma.env: only ports that pass every Env=yes rule selecting them; Env=no keeps the
 * frontend RoCE bond out of NCCL_IB_HCA; a name outside [A-Za-z0-9_.:-] is left out and
 * counted, never written; the values carry no quote and no shell character.
 */
static void test_env(void **state)
{
	static const char *const conf[] = { "Port:rails",
					    "Select=mlx5_[0-3]* i*",
					    "LinkLayer=InfiniBand",
					    "Port:erdma",
					    "Select=erdma_*",
					    "RoCEv2=yes",
					    "Port:frontend",
					    "Select=mlx5_bond_*",
					    "RoCEv2=yes",
					    "Env=no",
					    "Port:roce",
					    "Select=roce*",
					    "RoCEv2=yes",
					    NULL };
	struct port_config *pc = rules(conf);
	struct rdma_gid g_bond[] = { v2_gid(3, "bond0") }, g_roce[] = { v2_gid(3, "eth`id`") };
	struct rdma_port ib[] = { ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP),
				  ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_DISABLED),
				  ib_port(RDMA_PORT_INIT, RDMA_PHYS_LINK_UP),
				  ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP) };
	struct rdma_port erdma = roce_port(NULL, 0, "eth0");
	struct rdma_port bond = roce_port(g_bond, 1, "bond0");
	struct rdma_port roce = roce_port(g_roce, 1, "eth`id`");
	struct rdma_device d[] = {
		{ .name = (char *)"erdma_0", .ports = &erdma, .n_ports = 1 },
		{ .name = (char *)"i`id`$(id)", .ports = &ib[3], .n_ports = 1 },
		{ .name = (char *)"mlx5_0", .ports = &ib[0], .n_ports = 1 },
		{ .name = (char *)"mlx5_1", .ports = &ib[1], .n_ports = 1 },
		{ .name = (char *)"mlx5_2", .ports = &ib[2], .n_ports = 1 },
		{ .name = (char *)"mlx5_3\xff", .ports = &ib[3], .n_ports = 1 },
		{ .name = (char *)"mlx5_bond_0", .ports = &bond, .n_ports = 1 },
		{ .name = (char *)"roce_0", .ports = &roce, .n_ports = 1 },
	};
	char dir[] = "/tmp/test_rdma_env.XXXXXX";
	struct sysroot root = {};
	struct rdma_run rr = { .root = &root, .pc = pc, .inv = { .devs = d, .n_devs = 8 } };
	_cleanup_(freep) char *env = NULL;
	char *save = NULL;

	/* an empty root: no address record (netdevs listed unchecked), no umad: HCOLL off */
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sysroot_init(&root, dir), 0);
	assert_int_equal(rdma_env_format(&rr, &env), 0);
	sysroot_done(&root);
	rmdir(dir);
	assert_non_null(strstr(env, "\nOMPI_MCA_coll_hcoll_enable=0\n"));
	print_message("%s", env);
	assert_non_null(strstr(env, "\nNCCL_IB_HCA==mlx5_0:1,roce_0:1\n"));
	assert_non_null(strstr(env, "\nUCX_NET_DEVICES=mlx5_0:1,roce_0:1\n"));
	assert_null(strstr(env, "NCCL_SOCKET_IFNAME=")); /* eth`id` is the only netdev */
	assert_non_null(strstr(env, "\nNCCL_IB_GID_INDEX=3\n"));
	assert_non_null(strstr(env, "# 3 name(s) left out"));
	assert_non_null(strstr(env, "\nHOSTPREP_P2P_ENV=/run/hostprep/p2p.env\n"));
	for (char *l = strtok_r(env, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '#') {
			assert_null(strchr(l, '\\')); /* systemd continues a comment at \ */
			continue;
		}
		print_message("line %s\n", l);
		/* a name sh, systemd and docker take (Open MPI's MCA names are lower case;
		 * HOSTPREP_P2P_ENV has a digit), a value with nothing they read differently
		 * (a path's slash is safe) */
		assert_true(strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") > 0);
		l += strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		assert_int_equal(*l, '=');
		assert_int_equal(strspn(l, "=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789_.:,-/"),
				 strlen(l));
	}
	port_config_free(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_table), cmocka_unit_test(test_min_active),
		cmocka_unit_test(test_min_width),   cmocka_unit_test(test_min_rate),
		cmocka_unit_test(test_link_layer),  cmocka_unit_test(test_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
