// SPDX-License-Identifier: GPL-2.0-or-later
/* Every bonding sysfs/procfs value parser, with the kernel's real output and with garbage. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bond/bond-parse.h"

static void test_mode(void **state)
{
	static const char *const good[] = { "balance-rr 0\n",  "active-backup 1\n",
					    "balance-xor 2\n", "broadcast 3\n",
					    "802.3ad 4\n",     "balance-tlb 5\n",
					    "balance-alb 6" };
	enum bond_mode m;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(bond_parse_mode(good[i], &m), 0);
		assert_int_equal(m, i);
		assert_true(
			strneq(good[i], bond_mode_to_string(m), strlen(bond_mode_to_string(m))));
	}
	assert_int_equal(bond_parse_mode("802.3ad 1\n", &m), -EINVAL); /* disagree */
	assert_int_equal(bond_parse_mode("802.3ad\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("4\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("lacp 4\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("802.3ad 4 \n", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("802.3ad 04\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mode("802.3ad -4\n", &m), -EINVAL);
	assert_int_equal(bond_mode_from_name("802.3ad"), BOND_MODE_8023AD);
	assert_int_equal(bond_mode_from_name("active-backup"), BOND_MODE_ACTIVEBACKUP);
	assert_int_equal(bond_mode_from_name("Active-Backup"), -EINVAL);
	assert_int_equal(bond_mode_from_name("1"), -EINVAL);
	assert_int_equal(bond_mode_from_name(""), -EINVAL);
	assert_null(bond_mode_to_string(_BOND_MODE_MAX));
}

static void test_proc_mode(void **state)
{
	enum bond_mode m;

	assert_int_equal(bond_parse_proc_mode("IEEE 802.3ad Dynamic link aggregation", &m), 0);
	assert_int_equal(m, BOND_MODE_8023AD);
	assert_int_equal(bond_parse_proc_mode("fault-tolerance (active-backup)", &m), 0);
	assert_int_equal(m, BOND_MODE_ACTIVEBACKUP);
	assert_int_equal(bond_parse_proc_mode("fault-tolerance (active-backup) (fail_over_mac "
					      "active)",
					      &m),
			 0);
	assert_int_equal(m, BOND_MODE_ACTIVEBACKUP);
	assert_int_equal(bond_parse_proc_mode("adaptive load balancing", &m), 0);
	assert_int_equal(m, BOND_MODE_ALB);
	assert_int_equal(bond_parse_proc_mode("802.3ad", &m), -EINVAL);
	assert_int_equal(bond_parse_proc_mode("", &m), -EINVAL);
}

static void test_uint(void **state)
{
	unsigned v = 7;

	assert_int_equal(bond_parse_uint("100\n", &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(bond_parse_uint("0\n", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(bond_parse_uint("4294967295", &v), 0);
	assert_int_equal(v, 4294967295u);
	assert_int_equal(bond_parse_uint("4294967296", &v), -ERANGE);
	assert_int_equal(bond_parse_uint("99999999999", &v), -EINVAL);
	assert_int_equal(bond_parse_uint("-1\n", &v), -EINVAL);
	assert_int_equal(bond_parse_uint(" 1\n", &v), -EINVAL);
	assert_int_equal(bond_parse_uint("1x\n", &v), -EINVAL);
	assert_int_equal(bond_parse_uint("\n", &v), -EINVAL);
	assert_int_equal(bond_parse_uint("", &v), -EINVAL);
	assert_int_equal(bond_parse_uint("N/A\n", &v), -EINVAL);
	assert_int_equal(bond_parse_uint_na("N/A\n", &v), -ENODATA);
	assert_int_equal(bond_parse_uint_na("2\n", &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(bond_parse_uint_na("n/a\n", &v), -EINVAL);
}

static void test_mii_state_rate(void **state)
{
	enum bond_mii m;
	enum bond_slave_state s;
	enum bond_lacp_rate r;

	assert_int_equal(bond_parse_mii("up\n", &m), 0);
	assert_int_equal(m, BOND_MII_UP);
	assert_int_equal(bond_parse_mii("down\n", &m), 0);
	assert_int_equal(m, BOND_MII_DOWN);
	assert_int_equal(bond_parse_mii("going down\n", &m), 0);
	assert_int_equal(m, BOND_MII_GOING_DOWN);
	assert_int_equal(bond_parse_mii("going back", &m), 0);
	assert_int_equal(m, BOND_MII_GOING_BACK);
	assert_int_equal(bond_parse_mii("UP\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mii("up \n", &m), -EINVAL);
	assert_int_equal(bond_parse_mii("", &m), -EINVAL);

	assert_int_equal(bond_parse_slave_state("active\n", &s), 0);
	assert_int_equal(s, BOND_SLAVE_ACTIVE);
	assert_int_equal(bond_parse_slave_state("backup\n", &s), 0);
	assert_int_equal(s, BOND_SLAVE_BACKUP);
	assert_int_equal(bond_parse_slave_state("standby\n", &s), -EINVAL);

	assert_int_equal(bond_parse_lacp_rate("slow 0\n", &r), 0);
	assert_int_equal(r, BOND_LACP_SLOW);
	assert_int_equal(bond_parse_lacp_rate("fast 1\n", &r), 0);
	assert_int_equal(r, BOND_LACP_FAST);
	assert_int_equal(bond_parse_lacp_rate("fast 0\n", &r), -EINVAL);
	assert_int_equal(bond_parse_lacp_rate("fast\n", &r), -EINVAL);
	assert_int_equal(bond_parse_lacp_rate("\n", &r), -EINVAL);
}

static void test_mac(void **state)
{
	struct bond_mac m;
	char buf[3 * BOND_MAC_MAX];

	assert_int_equal(bond_parse_mac("0c:42:A1:de:ad:01\n", &m), 0);
	assert_int_equal(m.len, 6);
	assert_false(bond_mac_is_zero(&m));
	assert_string_equal(bond_mac_to_string(&m, buf, sizeof(buf)), "0c:42:a1:de:ad:01");
	assert_int_equal(bond_parse_mac("00:00:00:00:00:00\n", &m), 0);
	assert_true(bond_mac_is_zero(&m));
	assert_int_equal(bond_parse_mac("00:00:10:29:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:"
					"de:ad:01",
					&m),
			 0);
	assert_int_equal(m.len, 20);
	assert_int_equal(bond_parse_mac("0c:42:a1:de:ad\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("0c:42:a1:de:ad:01:\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("0c-42-a1-de-ad-01\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("0c:42:a1:de:ad:0g\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("c:42:a1:de:ad:01\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("\n", &m), -EINVAL);
	assert_int_equal(bond_parse_mac("", &m), -EINVAL);
	m.len = 0;
	assert_string_equal(bond_mac_to_string(&m, buf, sizeof(buf)), "unknown");
}

static void test_port_state(void **state)
{
	uint8_t st;
	char buf[LACP_STATE_DECODE_MAX];

	assert_int_equal(bond_parse_port_state("61\n", &st), 0);
	assert_int_equal(st, 0x3d);
	assert_int_equal(st & LACP_STATE_COLL_DIST, LACP_STATE_COLL_DIST);
	assert_true(st & LACP_STATE_SYNCHRONIZATION);
	assert_string_equal(lacp_state_to_string(st, buf, sizeof(buf)),
			    "0x3d (activity, aggregation, sync, collecting, distributing)");
	assert_string_equal(lacp_state_to_string(0, buf, sizeof(buf)), "0x00 (none)");
	assert_string_equal(lacp_state_to_string(0xff, buf, sizeof(buf)),
			    "0xff (activity, short timeout, aggregation, sync, collecting, "
			    "distributing, defaulted, expired)");
	assert_int_equal(bond_parse_port_state("N/A\n", &st), -ENODATA);
	assert_int_equal(bond_parse_port_state("256\n", &st), -EINVAL);
	assert_int_equal(bond_parse_port_state("0x3d\n", &st), -EINVAL);
	assert_int_equal(bond_parse_port_state("\n", &st), -EINVAL);
}

static void test_names(void **state)
{
	assert_true(bond_ifname_valid("bond0"));
	assert_true(bond_ifname_valid("ens1f0np0"));
	assert_true(bond_ifname_valid("a23456789012345"));
	assert_false(bond_ifname_valid("a234567890123456")); /* 16 > IFNAMSIZ - 1 */
	assert_false(bond_ifname_valid(""));
	assert_false(bond_ifname_valid("."));
	assert_false(bond_ifname_valid(".."));
	assert_false(bond_ifname_valid("bond/0"));
	assert_false(bond_ifname_valid("bond 0"));
	assert_false(bond_ifname_valid("bond\t0"));
	assert_false(bond_ifname_valid("bond:0"));
	assert_true(bond_rdma_name_valid("mlx5_bond_0"));
	assert_false(bond_rdma_name_valid("mlx5 bond"));
	assert_false(bond_rdma_name_valid("mlx5/0"));
	assert_false(bond_rdma_name_valid(""));
	assert_false(bond_rdma_name_valid(".."));
	assert_false(bond_rdma_name_valid("."));
	assert_true(bond_rdma_name_valid("rxe.0"));
}

static void test_slaves(void **state)
{
	char **v = NULL, *a = NULL;

	assert_int_equal(bond_parse_slaves("ens1f0np0 ens1f1np1\n", &v), 0);
	assert_string_equal(v[0], "ens1f0np0");
	assert_string_equal(v[1], "ens1f1np1");
	assert_null(v[2]);
	strv_free(v);
	assert_int_equal(bond_parse_slaves("\n", &v), 0);
	assert_null(v[0]);
	strv_free(v);
	assert_int_equal(bond_parse_slaves("eth0 eth0\n", &v), -EINVAL);
	assert_int_equal(bond_parse_slaves("eth0 a234567890123456\n", &v), -EINVAL);
	assert_int_equal(bond_parse_slaves("eth0\teth1\n", &v), -EINVAL);

	assert_int_equal(bond_parse_active_slave("ens1f0np0\n", &a), 0);
	assert_string_equal(a, "ens1f0np0");
	free(a);
	assert_int_equal(bond_parse_active_slave("", &a), 0);
	assert_null(a);
	assert_int_equal(bond_parse_active_slave("\n", &a), 0);
	assert_null(a);
	assert_int_equal(bond_parse_active_slave("a b\n", &a), -EINVAL);
}

/* A 6.1 kernel's /proc/net/bonding/bond0 as root, one slave out of the aggregator. */
static const char proc_lacp[] = "Ethernet Channel Bonding Driver: v6.1.0-27-amd64\n"
				"\n"
				"Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
				"Transmit Hash Policy: layer3+4 (1)\n"
				"MII Status: up\n"
				"MII Polling Interval (ms): 100\n"
				"Up Delay (ms): 0\n"
				"Down Delay (ms): 0\n"
				"Peer Notification Delay (ms): 0\n"
				"\n"
				"802.3ad info\n"
				"LACP active: on\n"
				"LACP rate: fast\n"
				"Min links: 0\n"
				"Aggregator selection policy (ad_select): stable\n"
				"System priority: 65535\n"
				"System MAC address: 0c:42:a1:5e:10:40\n"
				"Active Aggregator Info:\n"
				"\tAggregator ID: 1\n"
				"\tNumber of ports: 1\n"
				"\tActor Key: 21\n"
				"\tPartner Key: 15\n"
				"\tPartner Mac Address: 00:1c:73:aa:bb:cc\n"
				"\n"
				"Slave Interface: ens1f0np0\n"
				"MII Status: up\n"
				"Speed: 100000 Mbps\n"
				"Duplex: full\n"
				"Link Failure Count: 0\n"
				"Permanent HW addr: 0c:42:a1:5e:10:40\n"
				"Slave queue ID: 0\n"
				"Aggregator ID: 1\n"
				"Actor Churn State: none\n"
				"Partner Churn State: none\n"
				"Actor Churned Count: 0\n"
				"Partner Churned Count: 0\n"
				"details actor lacp pdu:\n"
				"    system priority: 65535\n"
				"    system mac address: 0c:42:a1:5e:10:40\n"
				"    port key: 21\n"
				"    port priority: 255\n"
				"    port number: 1\n"
				"    port state: 61\n"
				"details partner lacp pdu:\n"
				"    system priority: 32667\n"
				"    system mac address: 00:1c:73:aa:bb:cc\n"
				"    oper key: 15\n"
				"    port priority: 32768\n"
				"    port number: 277\n"
				"    port state: 63\n"
				"\n"
				"Slave Interface: ens1f1np1\n"
				"MII Status: up\n"
				"Speed: 100000 Mbps\n"
				"Duplex: full\n"
				"Link Failure Count: 2\n"
				"Permanent HW addr: 0c:42:a1:5e:10:41\n"
				"Slave queue ID: 0\n"
				"Aggregator ID: 2\n"
				"Actor Churn State: churned\n"
				"Partner Churn State: churned\n"
				"Actor Churned Count: 1\n"
				"Partner Churned Count: 1\n"
				"details actor lacp pdu:\n"
				"    system priority: 65535\n"
				"    system mac address: 0c:42:a1:5e:10:40\n"
				"    port key: 21\n"
				"    port priority: 255\n"
				"    port number: 2\n"
				"    port state: 69\n"
				"details partner lacp pdu:\n"
				"    system priority: 65535\n"
				"    system mac address: 00:00:00:00:00:00\n"
				"    oper key: 1\n"
				"    port priority: 255\n"
				"    port number: 1\n"
				"    port state: 1\n";

static void test_proc_lacp(void **state)
{
	struct bond_proc p;
	const struct bond_proc_slave *s;

	assert_int_equal(bond_proc_parse(proc_lacp, &p), 0);
	assert_true(p.has_mode);
	assert_int_equal(p.mode, BOND_MODE_8023AD);
	assert_true(p.has_active_agg);
	assert_int_equal(p.active_agg, 1);
	assert_int_equal(p.num_ports, 1);
	assert_int_equal(p.partner_mac.len, 6);
	assert_int_equal(p.partner_mac.b[5], 0xcc);
	assert_int_equal(p.n_slaves, 2);
	s = bond_proc_slave(&p, "ens1f0np0");
	assert_non_null(s);
	assert_true(s->has_agg && s->aggregator == 1);
	assert_true(s->has_actor_state && s->actor_state == 61);
	assert_true(s->has_partner_state && s->partner_state == 63);
	assert_false(bond_mac_is_zero(&s->partner_mac));
	s = bond_proc_slave(&p, "ens1f1np1");
	assert_non_null(s);
	assert_int_equal(s->aggregator, 2);
	assert_int_equal(s->link_failures, 2);
	assert_int_equal(s->actor_state, 69);
	assert_int_equal(s->partner_mac.len, 6);
	assert_true(bond_mac_is_zero(&s->partner_mac));
	assert_null(bond_proc_slave(&p, "eth9"));
	bond_proc_done(&p);
}

/* The same as a process without CAP_NET_ADMIN reads it: no aggregator info, no PDUs. */
static void test_proc_nocap(void **state)
{
	static const char text[] = "Ethernet Channel Bonding Driver: v6.1.0-27-amd64\n\n"
				   "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
				   "MII Status: up\n\n802.3ad info\nLACP rate: fast\n\n"
				   "Slave Interface: ens1f0np0\nMII Status: up\n"
				   "Link Failure Count: 0\nAggregator ID: 1\n";
	struct bond_proc p;

	assert_int_equal(bond_proc_parse(text, &p), 0);
	assert_false(p.has_active_agg);
	assert_int_equal(p.partner_mac.len, 0);
	assert_int_equal(p.n_slaves, 1);
	assert_int_equal(p.slaves[0].partner_mac.len, 0);
	assert_false(p.slaves[0].has_actor_state);
	bond_proc_done(&p);
}

static void test_proc_ab_and_garbage(void **state)
{
	static const char ab[] = "Ethernet Channel Bonding Driver: v6.1.0-27-amd64\n\n"
				 "Bonding Mode: fault-tolerance (active-backup)\n"
				 "Primary Slave: None\nCurrently Active Slave: ens2f0\n"
				 "MII Status: up\n\nSlave Interface: ens2f0\nMII Status: up\n"
				 "Link Failure Count: 0\n\nSlave Interface: ens2f1\n"
				 "MII Status: down\nLink Failure Count: 3\n";
	struct bond_proc p;

	assert_int_equal(bond_proc_parse(ab, &p), 0);
	assert_int_equal(p.mode, BOND_MODE_ACTIVEBACKUP);
	assert_string_equal(p.active_slave, "ens2f0");
	assert_int_equal(p.n_slaves, 2);
	assert_int_equal(p.slaves[1].mii, BOND_MII_DOWN);
	assert_int_equal(p.slaves[1].link_failures, 3);
	bond_proc_done(&p);

	assert_int_equal(bond_proc_parse("", &p), -EINVAL);
	assert_int_equal(bond_proc_parse("garbage\n\x01\x02\n", &p), -EINVAL);
	assert_int_equal(bond_proc_parse("Bonding Mode: x\nSlave Interface: a/b\n", &p), -EINVAL);
	/* Unknown mode text and broken values: parsed, but marked as not known. */
	assert_int_equal(bond_proc_parse("Bonding Mode: weird\nActive Aggregator Info:\n"
					 "\tAggregator ID: x\n\tPartner Mac Address: zz\n"
					 "Slave Interface: e0\nMII Status: sideways\n",
					 &p),
			 0);
	assert_false(p.has_mode);
	assert_false(p.has_active_agg);
	assert_int_equal(p.partner_mac.len, 0);
	assert_false(p.slaves[0].has_mii);
	bond_proc_done(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_proc_mode),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_mii_state_rate),
		cmocka_unit_test(test_mac),
		cmocka_unit_test(test_port_state),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_slaves),
		cmocka_unit_test(test_proc_lacp),
		cmocka_unit_test(test_proc_nocap),
		cmocka_unit_test(test_proc_ab_and_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
