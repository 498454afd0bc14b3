// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port parsers (src/rdma/rdma-parse.c): what the kernel prints under
 * infiniband/DEV/ports/N/ and the config's MinRate=/MinWidth=. Every value the parsers
 * accept is in range, and a rate or Gb/s value formatted back parses to the same value.
 */
#include "fuzz.h"
#include "rdma/rdma-parse.h"

static void check_rate(const char *s)
{
	struct rdma_rate rate, again;
	char buf[64];

	if (rdma_parse_rate(s, &rate) < 0)
		return;
	fuzz_assert(memchr(rate.speed, '\0', sizeof(rate.speed)));
	fuzz_assert(rate.width == 0 || rdma_parse_width_ok(rate.width) == 0);
	rdma_rate_format(&rate, buf, sizeof(buf));
	fuzz_assert(rdma_parse_rate(buf, &again) == 0);
	fuzz_assert(again.mbps == rate.mbps && again.width == rate.width &&
		    streq(again.speed, rate.speed));
}

static void check_gbps(const char *s)
{
	uint32_t mbps, again;
	char buf[32];

	if (rdma_parse_gbps(s, &mbps) < 0)
		return;
	fuzz_assert(mbps >= 1 && mbps <= 3200 * 1000);
	rdma_mbps_format(mbps, buf, sizeof(buf));
	fuzz_assert(rdma_parse_gbps(buf, &again) == 0 && again == mbps);
}

static void check_ids(const char *s)
{
	uint8_t gid[16], guid[8], mac[6];
	char ip[RDMA_GID_IP_MAX];

	if (rdma_parse_gid(s, gid) == 0) {
		rdma_gid_format_ip(gid, ip);
		fuzz_assert(memchr(ip, '\0', sizeof(ip)));
		(void)rdma_gid_is_zero(gid);
		(void)rdma_gid_has_ip(gid);
	}
	if (rdma_parse_guid(s, guid) == 0 && rdma_parse_mac(s, mac) == 0)
		(void)rdma_guid_is_eui64_of(guid, mac);
	if (rdma_parse_mac(s, mac) == 0 && rdma_parse_guid(s, guid) < 0)
		(void)rdma_guid_is_eui64_of((const uint8_t[8]){ 0 }, mac);
}

static void check_enums(const char *s)
{
	enum rdma_port_state st;
	enum rdma_phys_state ph;
	enum rdma_link_layer ll;
	enum rdma_gid_type gt;
	enum rdma_node_type nt;
	unsigned w;

	if (rdma_parse_port_state(s, &st) == 0)
		fuzz_assert(st < _RDMA_PORT_STATE_MAX && rdma_port_state_to_string(st));
	if (rdma_parse_phys_state(s, &ph) == 0)
		fuzz_assert(ph < _RDMA_PHYS_MAX && rdma_phys_state_to_string(ph));
	if (rdma_parse_link_layer(s, &ll) == 0)
		fuzz_assert(ll < _RDMA_LL_MAX && rdma_link_layer_to_string(ll));
	if (rdma_parse_gid_type(s, &gt) == 0)
		fuzz_assert(gt < _RDMA_GID_TYPE_MAX && rdma_gid_type_to_string(gt));
	if (rdma_parse_node_type(s, &nt) == 0)
		fuzz_assert(nt < _RDMA_NODE_MAX && rdma_node_type_to_string(nt));
	if (rdma_parse_width(s, &w) == 0)
		fuzz_assert(rdma_parse_width_ok(w) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);

	check_rate(s);
	check_gbps(s);
	check_ids(s);
	check_enums(s);
	if (size >= 4) {
		unsigned code;
		uint32_t lane;
		const char *name;

		memcpy(&code, data, sizeof(code));
		(void)rdma_mtu_from_enum((int)code);
		(void)rdma_mtu_from_netdev(code);
		(void)rdma_width_from_ibv(code);
		if (rdma_speed_from_ibv(code, &lane, &name) == 0)
			fuzz_assert(name);
	}
	return 0;
}
