// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bond judgement on hand-made inventories (pure), and bond_wait_ready() re-reading a
 * small sysfs tree written here: what it waits for, what it does not, its status text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bond/bond-check.h"
#include "core/fileio.h"
#include "run/run.h"
#include "scratch.h"

static struct bond_rule rule(const char *name, int mode, unsigned min)
{
	struct bond_rule r = { .mode = mode, .min_slaves_up = min, .miimon = true };

	strcpy(r.name, name);
	return r;
}

static void slave(struct bond_slave_seen *s, const char *name, enum bond_mii mii, unsigned agg,
		  uint8_t actor)
{
	*s = (struct bond_slave_seen){ .mii = mii,
				       .aggregator = agg,
				       .actor_state = actor,
				       .partner_state = 0x3d, /* the switch: in sync, coll, dist */
				       .link_failures = mii == BOND_MII_UP ? 0 : 3 };
	strcpy(s->name, name);
}

/* A negotiated 802.3ad bond0 over two slaves; callers break it. */
static void lacp_bond(struct bond_seen *b, const struct bond_rule *r, struct bond_slave_seen *s)
{
	*b = (struct bond_seen){ .rule = r,
				 .operstate = "up",
				 .flags = 0x1403,
				 .mode = BOND_MODE_8023AD,
				 .miimon = 100,
				 .ad_aggregator = 1,
				 .ad_num_ports = 2,
				 .slave = s,
				 .n_slaves = 2,
				 .partner_mac = { .b = { 0, 0x1c, 0x73, 0xaa, 0xbb, 0xcc },
						  .len = 6 } };
	slave(&s[0], "ens1f0np0", BOND_MII_UP, 1, 0x3d);
	slave(&s[1], "ens1f1np1", BOND_MII_UP, 1, 0x3d);
}

static const struct result *find(const struct results *rs, const char *check, const char *obj)
{
	for (size_t i = 0; i < rs->n; i++)
		if (streq(rs->items[i].check, check) && streq(rs->items[i].object, obj))
			return &rs->items[i];
	fail_msg("no %s %s", check, obj);
	return NULL;
}

static void test_lacp(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_8023AD, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b;
	struct results rs = {};
	const struct result *x;

	lacp_bond(&b, &r, s);
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(rs.n, 3);
	for (size_t i = 0; i < rs.n; i++)
		assert_int_equal(rs.items[i].verdict, VERDICT_PASS);
	results_done(&rs);

	/* the second slave alone in aggregator 2, not distributing */
	s[1].aggregator = 2;
	s[1].actor_state = 0x47;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond", "bond0");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "ens1f1np1 out of aggregator 1"));
	x = find(&rs, "bond.slave", "bond0/ens1f1np1");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual,
			       "ens1f1np1: in aggregator 2, the bond uses 1 — its switch "
			       "port is not in the same LAG / LACP not negotiated on it"));
	assert_int_equal(find(&rs, "bond.slave", "bond0/ens1f0np0")->verdict, VERDICT_PASS);
	results_done(&rs);

	/* partner hidden without CAP_NET_ADMIN: unknown, saying so */
	lacp_bond(&b, &r, s);
	b.partner_err = -EACCES;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond", "bond0");
	assert_int_equal(x->verdict, VERDICT_UNKNOWN);
	assert_non_null(strstr(x->actual, "CAP_NET_ADMIN"));
	results_done(&rs);

	/* a defaulted partner */
	lacp_bond(&b, &r, s);
	memset(b.partner_mac.b, 0, sizeof(b.partner_mac.b));
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(find(&rs, "bond", "bond0")->verdict, VERDICT_FAIL);
	results_done(&rs);
}

/*
 * Every value of the actor's LACP state byte on one slave: it counts in the LAG only when
 * both Collecting and Distributing are set (a slave collecting but not distributing
 * carries nothing out); the bond and the slave fail otherwise, naming what is missing.
 */
static void test_lacp_actor_bits(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_8023AD, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b;

	for (unsigned bits = 0; bits < 256; bits++) {
		bool in = (bits & LACP_STATE_COLL_DIST) == LACP_STATE_COLL_DIST;
		struct results rs = {};
		const struct result *x;

		print_message("actor state 0x%02x\n", bits);
		lacp_bond(&b, &r, s);
		s[1].actor_state = (uint8_t)bits;
		assert_int_equal(bond_evaluate(&b, &rs), 0);
		x = find(&rs, "bond.slave", "bond0/ens1f1np1");
		assert_int_equal(x->verdict, in ? VERDICT_PASS : VERDICT_FAIL);
		if (!in)
			assert_non_null(
				strstr(x->actual, bits & LACP_STATE_COLLECTING
							  ? "not distributing"
							  : "not collecting and distributing"));
		if (!in && (bits & LACP_STATE_DEFAULTED))
			assert_non_null(strstr(x->actual, "LACP defaulted"));
		assert_int_equal(find(&rs, "bond", "bond0")->verdict,
				 in ? VERDICT_PASS : VERDICT_FAIL);
		assert_int_equal(find(&rs, "bond.slave", "bond0/ens1f0np0")->verdict, VERDICT_PASS);
		results_done(&rs);
	}
}

/*
 * Every value of the switch's (partner's) LACP state byte on one slave whose own side is
 * collecting and distributing: it counts in the LAG only when the switch is in sync,
 * collecting and distributing; the slave fails naming what the switch is not doing.
 */
static void test_lacp_partner_bits(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_8023AD, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b;

	for (unsigned bits = 0; bits < 256; bits++) {
		bool in = (bits & 0x38) == 0x38;
		struct results rs = {};
		const struct result *x;

		print_message("partner state 0x%02x\n", bits);
		lacp_bond(&b, &r, s);
		s[1].partner_state = (uint8_t)bits;
		assert_int_equal(bond_evaluate(&b, &rs), 0);
		x = find(&rs, "bond.slave", "bond0/ens1f1np1");
		assert_int_equal(x->verdict, in ? VERDICT_PASS : VERDICT_FAIL);
		if (!in) {
			assert_non_null(strstr(x->actual, "the switch's side is not "));
			assert_int_equal(!!strstr(x->actual, "not in sync"), !(bits & 0x08));
			assert_int_equal(!!strstr(x->actual, "drops what the bond sends"),
					 !(bits & 0x10));
			assert_int_equal(!!strstr(x->actual, "sends nothing on this port"),
					 (bits & 0x30) == 0x10);
		}
		assert_int_equal(find(&rs, "bond", "bond0")->verdict,
				 in ? VERDICT_PASS : VERDICT_FAIL);
		assert_int_equal(find(&rs, "bond.slave", "bond0/ens1f0np0")->verdict, VERDICT_PASS);
		results_done(&rs);
	}
}

/*
 * The partner state is not judged while our side is defaulted (it is then the admin
 * default 0x01, not the switch's word); unreadable on a live slave is unknown, never pass.
 */
static void test_lacp_partner_edges(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_8023AD, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b;
	struct results rs = {};
	const struct result *x;

	lacp_bond(&b, &r, s);
	s[1].actor_state = 0x47;
	s[1].partner_state = 0x01;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond.slave", "bond0/ens1f1np1");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_null(strstr(x->actual, "switch's side"));
	results_done(&rs);

	lacp_bond(&b, &r, s);
	s[1].partner_state_err = -EIO;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond.slave", "bond0/ens1f1np1");
	assert_int_equal(x->verdict, VERDICT_UNKNOWN);
	assert_non_null(strstr(x->actual, "ad_partner_oper_port_state unreadable"));
	assert_int_equal(find(&rs, "bond", "bond0")->verdict, VERDICT_PASS);
	results_done(&rs);
}

/* The bond's own link: every operstate but up fails, unknown is settled by mii_status. */
static void test_bond_link(void **state)
{
	static const struct {
		const char *oper;
		int oper_err, mii_err;
		enum bond_mii mii;
		unsigned long flags;
		enum verdict want;
		const char *text;
	} cases[] = {
		{ "up", 0, 0, BOND_MII_UP, 0x1403, VERDICT_PASS, NULL },
		{ "down", 0, 0, BOND_MII_DOWN, 0x1403, VERDICT_FAIL, "the bond is down" },
		{ "down", 0, 0, BOND_MII_UP, 0x1402, VERDICT_FAIL,
		  "the bond is down (administratively down)" },
		{ "lowerlayerdown", 0, 0, BOND_MII_DOWN, 0x1403, VERDICT_FAIL,
		  "the bond is lowerlayerdown" },
		{ "dormant", 0, 0, BOND_MII_UP, 0x1403, VERDICT_FAIL, "the bond is dormant" },
		{ "unknown", 0, 0, BOND_MII_UP, 0x1403, VERDICT_PASS, NULL },
		{ "unknown", 0, 0, BOND_MII_DOWN, 0x1403, VERDICT_FAIL, "the bond is unknown" },
		{ "unknown", 0, -EACCES, BOND_MII_UP, 0x1403, VERDICT_FAIL, "the bond is unknown" },
		{ "", -EACCES, -EACCES, BOND_MII_UP, 0x1403, VERDICT_UNKNOWN,
		  "operstate and bonding/mii_status unreadable" },
		{ "", -EACCES, 0, BOND_MII_UP, 0x1403, VERDICT_FAIL, "the bond is not up" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bond_rule r = rule("bond0", BOND_MODE_8023AD, 0);
		struct bond_slave_seen s[2];
		struct bond_seen b;
		struct results rs = {};
		const struct result *x;

		lacp_bond(&b, &r, s);
		snprintf(b.operstate, sizeof(b.operstate), "%s", cases[i].oper);
		b.oper_err = cases[i].oper_err;
		b.mii_err = cases[i].mii_err;
		b.mii = cases[i].mii;
		b.flags = cases[i].flags;
		assert_int_equal(bond_evaluate(&b, &rs), 0);
		x = find(&rs, "bond", "bond0");
		assert_non_null(x);
		if (x->verdict != cases[i].want)
			fail_msg("case %zu (%s): verdict %d, want %d: %s", i, cases[i].oper,
				 x->verdict, cases[i].want, x->actual);
		if (cases[i].text)
			assert_true(strneq(x->actual, cases[i].text, strlen(cases[i].text)));
		results_done(&rs);
	}
}

static void test_min_slaves(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_ACTIVEBACKUP, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b = { .rule = &r,
			       .operstate = "up",
			       .flags = 0x1403,
			       .mode = BOND_MODE_ACTIVEBACKUP,
			       .miimon = 100,
			       .slave = s,
			       .n_slaves = 2,
			       .active = (char *)"ens2f0" };
	struct results rs = {};
	const struct result *x;

	slave(&s[0], "ens2f0", BOND_MII_UP, 0, 0);
	slave(&s[1], "ens2f1", BOND_MII_DOWN, 0, 0);
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(find(&rs, "bond", "bond0")->verdict, VERDICT_FAIL);
	x = find(&rs, "bond.slave", "bond0/ens2f1");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "ens2f1: mii down, 3 link failures"));
	results_done(&rs);

	r.min_slaves_up = 1;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(find(&rs, "bond", "bond0")->verdict, VERDICT_PASS);
	assert_int_equal(find(&rs, "bond.slave", "bond0/ens2f1")->verdict, VERDICT_WARN);
	results_done(&rs);

	/* more wanted than the bond has */
	r.min_slaves_up = 3;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond", "bond0");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "2 slaves, MinSlavesUp=3"));
	results_done(&rs);

	/* an unreadable mii could be the missing one: unknown, not fail */
	r.min_slaves_up = 0;
	s[1].mii_err = -EIO;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(find(&rs, "bond", "bond0")->verdict, VERDICT_UNKNOWN);
	assert_int_equal(find(&rs, "bond.slave", "bond0/ens2f1")->verdict, VERDICT_UNKNOWN);
	results_done(&rs);
}

static void test_missing_and_lag(void **state)
{
	struct bond_rule r = rule("bond0", BOND_MODE_ANY, 0);
	struct bond_slave_seen s[2];
	struct bond_seen b = { .rule = &r, .err = -ENOTDIR };
	struct results rs = {};
	const struct result *x;

	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(rs.n, 1);
	assert_string_equal(rs.items[0].actual, "bond0 is not a bond (no bonding/ directory)");
	results_done(&rs);
	b.err = -EACCES;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(rs.items[0].verdict, VERDICT_UNKNOWN);
	results_done(&rs);

	r.rdma = (char *)"mlx5_bond_0";
	lacp_bond(&b, &r, s);
	strcpy(s[0].pci, "0000:02:00.0");
	strcpy(s[1].pci, "0000:02:00.1");
	b.lag = (struct bond_lag_seen){ .ndev = (char *)"bond0", .on_bond = true, .ndev_port = 1 };
	strcpy(b.lag.pci, "0000:02:00.0");
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond.lag", "mlx5_bond_0");
	assert_int_equal(x->verdict, VERDICT_PASS);
	assert_string_equal(x->actual, "port 1 ndev bond0, PCI 0000:02:00.0 (slave ens1f0np0)");
	results_done(&rs);

	b.mode = BOND_MODE_TLB; /* Mode= unset: the runtime mode decides */
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond.lag", "mlx5_bond_0");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "bond0 is balance-tlb"));
	results_done(&rs);

	b.mode = BOND_MODE_8023AD;
	b.lag.ndev_err = -EACCES;
	b.lag.ndev = NULL;
	b.lag.on_bond = false;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	assert_int_equal(find(&rs, "bond.lag", "mlx5_bond_0")->verdict, VERDICT_UNKNOWN);
	results_done(&rs);

	b.lag.err = -ENOENT;
	assert_int_equal(bond_evaluate(&b, &rs), 0);
	x = find(&rs, "bond.lag", "mlx5_bond_0");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "no RDMA device mlx5_bond_0"));
	results_done(&rs);
}

/* ---- bond_wait_ready on a tree ------------------------------------------- */

struct tree {
	char dir[64];
	struct sysroot root;
	struct bond_config bc;
	struct bond_rule rules[1];
	struct bond_run b;
};

static void put(struct tree *t, const char *rel, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/class/net/%s", t->dir, rel);
	*strrchr(path, '/') = '\0';
	scratch_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/sys/class/net/%s", t->dir, rel);
	scratch_write(path, text, strlen(text));
}

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/hp-bond-wait.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	assert_int_equal(sysroot_init(&t->root, t->dir), 0);
	t->rules[0] = rule("bond0", BOND_MODE_ACTIVEBACKUP, 0);
	t->bc = (struct bond_config){ .rules = t->rules, .n_rules = 1 };
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	bond_run_free(&t->b);
	sysroot_done(&t->root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

static void test_wait(void **state)
{
	struct tree *t = *state;
	char *status = NULL;

	/* networkd has not created the bond yet */
	assert_int_equal(bond_wait_ready(&t->b, &t->root, &t->bc, &status), 0);
	assert_string_equal(status, "bond0 (no such interface yet)");
	free(status);

	put(t, "bond0/bonding/mode", "active-backup 1\n");
	put(t, "bond0/bonding/miimon", "100\n");
	put(t, "bond0/bonding/slaves", "eth0 eth1\n");
	put(t, "bond0/bonding/active_slave", "eth0\n");
	put(t, "eth0/bonding_slave/mii_status", "up\n");
	put(t, "eth1/bonding_slave/mii_status", "down\n");
	assert_int_equal(bond_wait_ready(&t->b, &t->root, &t->bc, &status), 0);
	assert_string_equal(status, "bond0 (1 of 2 slaves up)");
	free(status);

	put(t, "eth1/bonding_slave/mii_status", "up\n");
	assert_int_equal(bond_wait_ready(&t->b, &t->root, &t->bc, &status), 1);
	assert_null(status);
	/* what waiting cannot fix does not hold the wait: verify reports it */
	put(t, "bond0/bonding/miimon", "0\n");
	assert_int_equal(bond_wait_ready(&t->b, &t->root, &t->bc, &status), 1);
	put(t, "bond0/bonding/mode", "garbage\n");
	assert_int_equal(bond_wait_ready(&t->b, &t->root, &t->bc, &status), 1);
	assert_null(status);
	/* the inventory the wait left behind is the fresh one */
	assert_int_equal(t->b.n_bonds, 1);
	assert_int_equal(t->b.bonds[0].miimon, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lacp),
		cmocka_unit_test(test_lacp_actor_bits),
		cmocka_unit_test(test_lacp_partner_bits),
		cmocka_unit_test(test_lacp_partner_edges),
		cmocka_unit_test(test_min_slaves),
		cmocka_unit_test(test_bond_link),
		cmocka_unit_test(test_missing_and_lag),
		cmocka_unit_test_setup_teardown(test_wait, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
