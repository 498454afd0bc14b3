// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rdma/rdma-parse.h"

static void test_state(void **s)
{
	enum rdma_port_state st;
	static const char *const words[] = { "NOP",   "DOWN",	"INIT",
					     "ARMED", "ACTIVE", "ACTIVE_DEFER" };
	/* the word is the kernel's for the number, whole: anything else is a damaged read */
	const char *bad[] = { "",	  "ACTIVE",	  "4",		"4:",	       "4: ",
			      "4:ACTIVE", "9: X",	  "-1: X",	" 4: A",       "44: ACTIVE",
			      "4: DOWN",  "1: ACTIVE",	  "4: ACTIVEX", "4: ACTIVE_D", "4: active",
			      "4: ACTIV", "4: ACTIVE\nX", "5: ACTIVE" };
	char text[32];

	for (int v = RDMA_PORT_NOP; v < _RDMA_PORT_STATE_MAX; v++) {
		snprintf(text, sizeof(text), "%d: %s\n", v, words[v]);
		assert_int_equal(rdma_parse_port_state(text, &st), 0);
		assert_int_equal(st, v);
		text[strlen(text) - 1] = '\0';
		assert_int_equal(rdma_parse_port_state(text, &st), 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rdma_parse_port_state(bad[i], &st), -EINVAL);
	assert_int_equal(rdma_parse_port_state(NULL, &st), -EINVAL);
}

static void test_phys(void **s)
{
	static const struct {
		const char *text;
		enum rdma_phys_state v;
	} ok[] = {
		{ "1: Sleep", RDMA_PHYS_SLEEP },
		{ "2: Polling", RDMA_PHYS_POLLING },
		{ "3: Disabled", RDMA_PHYS_DISABLED },
		{ "4: PortConfigurationTraining", RDMA_PHYS_TRAINING },
		{ "5: LinkUp", RDMA_PHYS_LINK_UP },
		{ "6: LinkErrorRecovery", RDMA_PHYS_ERROR_RECOVERY },
		{ "7: Phy Test", RDMA_PHYS_PHY_TEST },
	};
	enum rdma_phys_state p;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(rdma_parse_phys_state(ok[i].text, &p), 0);
		assert_int_equal(p, ok[i].v);
	}
	assert_int_equal(rdma_parse_phys_state("0: Nop", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("8: Future", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("LinkUp", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("5: LinkUpXYZ", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("5: Polling", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("7: Phy", &p), -EINVAL);
	assert_int_equal(rdma_parse_phys_state("5: LinkUp\n", &p), 0);
	assert_string_equal(rdma_phys_state_to_string(RDMA_PHYS_PHY_TEST), "Phy Test");
}

static void check_rate(const char *text, uint32_t mbps, unsigned width, const char *speed)
{
	struct rdma_rate r;
	char back[64];

	assert_int_equal(rdma_parse_rate(text, &r), 0);
	assert_int_equal(r.mbps, mbps);
	assert_int_equal(r.width, width);
	assert_string_equal(r.speed, speed);
	rdma_rate_format(&r, back, sizeof(back));
	assert_string_equal(back, text);
}

static void test_rate(void **s)
{
	struct rdma_rate r;
	const char *bad[] = { "",
			      "Gb/sec",
			      "400",
			      "400 Gb/s",
			      "400 Gb/sec (4X NDR",
			      "400 Gb/sec (3X NDR)",
			      "400 Gb/sec (X NDR)",
			      "400 Gb/sec 4X",
			      "4.0000 Gb/sec (4X)",
			      "400 Gb/sec (4X ndr)",
			      "1e3 Gb/sec",
			      "400 Gb/sec (4X TOOLONGNAME)",
			      "999999999 Gb/sec" };

	check_rate("400 Gb/sec (4X NDR)", 400000, 4, "NDR");
	check_rate("100 Gb/sec (4X EDR)", 100000, 4, "EDR");
	check_rate("2.5 Gb/sec (1X SDR)", 2500, 1, "SDR");
	check_rate("25 Gb/sec (1X EDR)", 25000, 1, "EDR");
	check_rate("800 Gb/sec (4X XDR)", 800000, 4, "XDR");
	check_rate("53.125 Gb/sec (1X HDR)", 53125, 1, "HDR");
	check_rate("10 Gb/sec (4X SDR)", 10000, 4, "SDR");
	check_rate("40 Gb/sec (4X)", 40000, 4, "");
	check_rate("100 Gb/sec", 100000, 0, "");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(rdma_parse_rate(bad[i], &r), 0);
}

static void test_link_layer_and_types(void **s)
{
	enum rdma_link_layer ll;
	enum rdma_gid_type t;
	enum rdma_node_type n;

	assert_int_equal(rdma_parse_link_layer("InfiniBand", &ll), 0);
	assert_int_equal(ll, RDMA_LL_INFINIBAND);
	assert_int_equal(rdma_parse_link_layer("Ethernet", &ll), 0);
	assert_int_equal(ll, RDMA_LL_ETHERNET);
	assert_int_equal(rdma_parse_link_layer("ethernet", &ll), -EINVAL);
	assert_int_equal(rdma_parse_link_layer("", &ll), -EINVAL);
	assert_int_equal(rdma_parse_gid_type("IB/RoCE v1", &t), 0);
	assert_int_equal(t, RDMA_GID_IB_ROCE_V1);
	assert_int_equal(rdma_parse_gid_type("RoCE v2", &t), 0);
	assert_int_equal(t, RDMA_GID_ROCE_V2);
	assert_int_equal(rdma_parse_gid_type("RoCE v3", &t), -EINVAL);
	assert_int_equal(rdma_parse_gid_type("", &t), -EINVAL);
	assert_int_equal(rdma_parse_node_type("1: CA", &n), 0);
	assert_int_equal(n, RDMA_NODE_CA);
	assert_int_equal(rdma_parse_node_type("4: RNIC", &n), 0);
	assert_int_equal(n, RDMA_NODE_RNIC);
	assert_int_equal(rdma_parse_node_type("CA", &n), -EINVAL);
	assert_int_equal(rdma_parse_node_type("0: x", &n), -EINVAL);
}

static void test_gid(void **s)
{
	uint8_t g[16];
	char ip[RDMA_GID_IP_MAX];

	assert_int_equal(rdma_parse_gid("fe80:0000:0000:0000:b83f:d203:00a1:c010", g), 0);
	assert_int_equal(g[0], 0xfe);
	assert_int_equal(g[15], 0x10);
	assert_false(rdma_gid_is_zero(g));
	assert_false(rdma_gid_is_ipv4(g));
	assert_false(rdma_gid_has_ip(g)); /* link-local: no address of the netdev */
	assert_int_equal(rdma_parse_gid("0000:0000:0000:0000:0000:0000:0000:0000", g), 0);
	assert_true(rdma_gid_is_zero(g));
	assert_false(rdma_gid_has_ip(g));
	assert_int_equal(rdma_parse_gid("0000:0000:0000:0000:0000:ffff:0a00:000b", g), 0);
	assert_true(rdma_gid_is_ipv4(g));
	assert_true(rdma_gid_has_ip(g));
	rdma_gid_format_ip(g, ip);
	assert_string_equal(ip, "10.0.0.11");
	assert_int_equal(rdma_parse_gid("2001:0db8:0000:0000:0000:0000:0000:0001", g), 0);
	assert_true(rdma_gid_has_ip(g));
	rdma_gid_format_ip(g, ip);
	assert_string_equal(ip, "2001:db8::1");
	assert_false(rdma_gid_is_mac_based(g));
	/* erdma standard mode: the MAC, then zeros; not an address (16:3e12:3456::) */
	assert_int_equal(rdma_parse_gid("0016:3e12:3456:0000:0000:0000:0000:0000", g), 0);
	assert_true(rdma_gid_is_mac_based(g));
	assert_false(rdma_gid_has_ip(g));
	assert_int_equal(rdma_parse_gid("0016:3e12:3456:0000:0000:0000:0000:0001", g), 0);
	assert_false(rdma_gid_is_mac_based(g));
	assert_int_equal(rdma_parse_gid("fe80::1", g), -EINVAL);
	assert_int_equal(rdma_parse_gid("fe80:0000:0000:0000:b83f:d203:00a1:c01", g), -EINVAL);
	assert_int_equal(rdma_parse_gid("fe80-0000:0000:0000:b83f:d203:00a1:c010", g), -EINVAL);
	assert_int_equal(rdma_parse_gid("ge80:0000:0000:0000:b83f:d203:00a1:c010", g), -EINVAL);
	assert_int_equal(rdma_parse_gid("", g), -EINVAL);
}

static void test_mtu_width_speed(void **s)
{
	uint32_t lane;
	const char *name;
	unsigned w;

	assert_int_equal(rdma_mtu_from_enum(1), 256);
	assert_int_equal(rdma_mtu_from_enum(5), 4096);
	assert_int_equal(rdma_mtu_from_enum(0), 0);
	assert_int_equal(rdma_mtu_from_enum(6), 0);
	assert_int_equal(rdma_mtu_from_netdev(9000), 4096);
	assert_int_equal(rdma_mtu_from_netdev(1500), 1024);
	assert_int_equal(rdma_mtu_from_netdev(4200), 4096);
	assert_int_equal(rdma_mtu_from_netdev(4000), 2048);
	assert_int_equal(rdma_mtu_from_netdev(100), 0);
	assert_int_equal(rdma_width_from_ibv(2), 4);
	assert_int_equal(rdma_width_from_ibv(16), 2);
	assert_int_equal(rdma_width_from_ibv(3), 0);
	assert_int_equal(rdma_speed_from_ibv(128, &lane, &name), 0);
	assert_int_equal(lane, 100000);
	assert_string_equal(name, "NDR");
	assert_int_equal(rdma_speed_from_ibv(3, &lane, &name), -EINVAL);
	assert_int_equal(rdma_parse_width("4X", &w), 0);
	assert_int_equal(w, 4);
	assert_int_equal(rdma_parse_width("12X", &w), 0);
	assert_int_equal(rdma_parse_width("3X", &w), -EINVAL);
	assert_int_equal(rdma_parse_width("4", &w), -EINVAL);
	assert_int_equal(rdma_parse_width("X", &w), -EINVAL);
}

static void test_gbps(void **s)
{
	uint32_t v;
	char buf[24];

	assert_int_equal(rdma_parse_gbps("400", &v), 0);
	assert_int_equal(v, 400000);
	assert_int_equal(rdma_parse_gbps("53.125", &v), 0);
	assert_int_equal(v, 53125);
	rdma_mbps_format(v, buf, sizeof(buf));
	assert_string_equal(buf, "53.125");
	rdma_mbps_format(2500, buf, sizeof(buf));
	assert_string_equal(buf, "2.5");
	assert_int_equal(rdma_parse_gbps("0", &v), -ERANGE);
	assert_int_equal(rdma_parse_gbps("3201", &v), -ERANGE);
	assert_int_equal(rdma_parse_gbps("1.0001", &v), -EINVAL);
	assert_int_equal(rdma_parse_gbps("fast", &v), -EINVAL);
	assert_int_equal(rdma_parse_gbps("400G", &v), -EINVAL);
	assert_int_equal(rdma_parse_gbps("", &v), -EINVAL);
}

/* MinRate=: a link name is the rate the kernel reports for a 4X port at that speed */
static void test_min_rate_names(void **s)
{
	static const struct {
		const char *name;
		uint32_t mbps;
	} names[] = {
		{ "SDR", 10000 },  { "DDR", 20000 },	{ "QDR", 40000 },     { "FDR10", 40000 },
		{ "FDR", 56000 },  { "EDR", 100000 },	{ "HDR", 200000 },    { "NDR", 400000 },
		{ "XDR", 800000 }, { "ndr", 400000 },	{ "HDR100", 100000 }, { "NDR200", 200000 },
		{ "400", 400000 }, { "53.125", 53125 },
	};
	uint32_t v;

	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		v = 0;
		assert_int_equal(rdma_parse_min_rate(names[i].name, &v), 0);
		assert_int_equal(v, names[i].mbps);
	}
	assert_int_equal(rdma_parse_min_rate("NDR400", &v), -EINVAL);
	assert_int_equal(rdma_parse_min_rate("4X NDR", &v), -EINVAL);
	assert_int_equal(rdma_parse_min_rate("NDRX", &v), -EINVAL);
	assert_int_equal(rdma_parse_min_rate("0", &v), -ERANGE);
	assert_int_equal(rdma_parse_min_rate("", &v), -EINVAL);
}

static void test_guid_mac(void **s)
{
	uint8_t guid[8], mac[6];

	assert_int_equal(rdma_parse_guid("0216:3eff:fe12:3456", guid), 0);
	assert_int_equal(rdma_parse_mac("00:16:3e:12:34:56", mac), 0);
	assert_true(rdma_guid_is_eui64_of(guid, mac));
	assert_int_equal(rdma_parse_mac("00:16:3e:12:34:57", mac), 0);
	assert_false(rdma_guid_is_eui64_of(guid, mac));
	assert_int_equal(rdma_parse_mac("00:16:3e:12:34", mac), -EINVAL);
	assert_int_equal(rdma_parse_mac("00-16-3e-12-34-56", mac), -EINVAL);
	assert_int_equal(rdma_parse_guid("0216:3eff:fe12", guid), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_phys),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_link_layer_and_types),
		cmocka_unit_test(test_gid),
		cmocka_unit_test(test_mtu_width_speed),
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_guid_mac),
		cmocka_unit_test(test_min_rate_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
