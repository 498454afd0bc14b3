/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"

/*
 * Parsers for the values the kernel prints in /sys/class/infiniband/DEV/ports/N/ and
 * for the enums libibverbs returns. Every parser is pure: text in, value out, -EINVAL
 * for anything it does not recognise (garbage never becomes a plausible value).
 */

enum rdma_port_state {
	RDMA_PORT_NOP = 0,
	RDMA_PORT_DOWN = 1,
	RDMA_PORT_INIT = 2,
	RDMA_PORT_ARMED = 3,
	RDMA_PORT_ACTIVE = 4,
	RDMA_PORT_ACTIVE_DEFER = 5,
	_RDMA_PORT_STATE_MAX,
};

enum rdma_phys_state {
	RDMA_PHYS_UNKNOWN = 0, /* not reported (iWARP/soft devices print nothing useful) */
	RDMA_PHYS_SLEEP = 1,
	RDMA_PHYS_POLLING = 2,
	RDMA_PHYS_DISABLED = 3,
	RDMA_PHYS_TRAINING = 4,
	RDMA_PHYS_LINK_UP = 5,
	RDMA_PHYS_ERROR_RECOVERY = 6,
	RDMA_PHYS_PHY_TEST = 7,
	_RDMA_PHYS_MAX,
};

enum rdma_link_layer {
	RDMA_LL_UNKNOWN, /* not read */
	RDMA_LL_INFINIBAND,
	RDMA_LL_ETHERNET,
	/* the kernel's "Unknown": read, and neither (AWS EFA; iWARP without get_link_layer) */
	RDMA_LL_UNSPECIFIED,
	_RDMA_LL_MAX,
};

enum rdma_gid_type {
	RDMA_GID_IB_ROCE_V1, /* "IB/RoCE v1": an IB GID, or RoCE v1 on Ethernet */
	RDMA_GID_ROCE_V2,
	_RDMA_GID_TYPE_MAX,
};

enum rdma_node_type {
	RDMA_NODE_UNKNOWN = 0,
	RDMA_NODE_CA = 1,
	RDMA_NODE_SWITCH = 2,
	RDMA_NODE_ROUTER = 3,
	RDMA_NODE_RNIC = 4,
	RDMA_NODE_USNIC = 5,
	RDMA_NODE_USNIC_UDP = 6,
	RDMA_NODE_UNSPECIFIED = 7,
	_RDMA_NODE_MAX,
};

/* "400 Gb/sec (4X NDR)": rate in Mb/s (53.125 Gb/s = 53125), width 1/2/4/8/12, speed name. */
#define RDMA_SPEED_NAME_MAX 8
struct rdma_rate {
	uint32_t mbps;
	unsigned width;			 /* 0 when the kernel printed none */
	char speed[RDMA_SPEED_NAME_MAX]; /* "NDR", "" when none */
};

#define RDMA_GID_TEXT_MAX 40 /* "fe80:0000:0000:0000:0000:0000:0000:0000" + NUL */
#define RDMA_GID_IP_MAX	  46 /* INET6_ADDRSTRLEN */

/*
 * Is the port up? Ready is logical state ACTIVE and physical state LinkUp (IBTA): 1 ready,
 * 0 not ready (any other state, or ACTIVE over a link that is not LinkUp: Disabled, Phy
 * Test, ...), -ENODATA when ACTIVE but the physical state could not be read (unknown).
 */
int rdma_port_ready(enum rdma_port_state s, enum rdma_phys_state ph);

/*
 * "4: ACTIVE" -> 4; the word must be the kernel's for the number (one table prints both):
 * "4: DOWN" is a damaged reading, -EINVAL like any other.
 */
int rdma_parse_port_state(const char *s, enum rdma_port_state *ret);
/* "5: LinkUp", "2: Polling", "7: Phy Test" -> 5, 2, 7; the word as for the state. */
int rdma_parse_phys_state(const char *s, enum rdma_phys_state *ret);
int rdma_parse_rate(const char *s, struct rdma_rate *ret);
/* "InfiniBand" / "Ethernet" (exact, as the kernel prints them). */
int rdma_parse_link_layer(const char *s, enum rdma_link_layer *ret);
/* "fe80:0000:...:c000" (8 groups of 4 hex digits) -> 16 bytes. */
int rdma_parse_gid(const char *s, uint8_t ret[16]);
bool rdma_gid_is_zero(const uint8_t gid[16]);
/* ::ffff:a.b.c.d */
bool rdma_gid_is_ipv4(const uint8_t gid[16]);
/*
 * erdma's standard (iWARP) mode GID: the MAC in the first 6 bytes, the rest zero. It is
 * not an address and never rendered as one.
 */
bool rdma_gid_is_mac_based(const uint8_t gid[16]);
/* An IP address the GID carries: IPv4-mapped, or IPv6 outside fe80::/10 (not MAC-based). */
bool rdma_gid_has_ip(const uint8_t gid[16]);
/* "10.0.0.1" for IPv4-mapped, "2001:db8::1" / "fe80::..." otherwise. */
void rdma_gid_format_ip(const uint8_t gid[16], char buf[RDMA_GID_IP_MAX]);
/* "IB/RoCE v1" / "RoCE v2". */
int rdma_parse_gid_type(const char *s, enum rdma_gid_type *ret);
/* "1: CA", "4: RNIC" */
int rdma_parse_node_type(const char *s, enum rdma_node_type *ret);
/* enum ibv_mtu 1..5 -> 256..4096 bytes; 0 for anything else. */
unsigned rdma_mtu_from_enum(int e);
/* Largest IB MTU a RoCE port gets from a netdev MTU (the kernel's iboe_get_mtu()). */
unsigned rdma_mtu_from_netdev(unsigned netdev_mtu);
/* "b83f:d203:00a1:c000" -> 8 bytes. */
int rdma_parse_guid(const char *s, uint8_t ret[8]);
/* "b8:3f:d2:a1:c0:00" -> 6 bytes. */
int rdma_parse_mac(const char *s, uint8_t ret[6]);
/* Is guid the modified EUI-64 of mac (what erdma's node_guid is)? */
bool rdma_guid_is_eui64_of(const uint8_t guid[8], const uint8_t mac[6]);
/* ibv active_width code (1,2,4,8,16) -> lanes (1,4,8,12,2); 0 if unknown. */
unsigned rdma_width_from_ibv(unsigned code);
/* ibv active_speed code -> per-lane Mb/s and name; -EINVAL if unknown. */
int rdma_speed_from_ibv(unsigned code, uint32_t *lane_mbps, const char **name);
/* 1, 2, 4, 8, 12: 0; else -EINVAL */
int rdma_parse_width_ok(unsigned w);
/* "4X" "12X" -> 4, 12 (config MinWidth=) */
int rdma_parse_width(const char *s, unsigned *ret);
/* "400", "53.125" Gb/s -> Mb/s (config MinRate=): 1..3200 Gb/s, at most 3 decimals. */
int rdma_parse_gbps(const char *s, uint32_t *ret_mbps);
/*
 * MinRate=: Gb/s as rdma_parse_gbps(), or a link name (any case) as the rate of a 4X port
 * at that speed: SDR 10, DDR 20, QDR 40, FDR10 40, FDR 56, EDR 100, HDR 200, NDR 400,
 * XDR 800; the split ports' names HDR100 and NDR200 are 100 and 200.
 */
int rdma_parse_min_rate(const char *s, uint32_t *ret_mbps);
/* "400 Gb/sec (4X NDR)" back from a struct (verbs path, display) */
void rdma_rate_format(const struct rdma_rate *r, char *buf, size_t size);
/* "400" / "53.125" */
void rdma_mbps_format(uint32_t mbps, char *buf, size_t size);

const char *rdma_port_state_to_string(enum rdma_port_state s);
const char *rdma_phys_state_to_string(enum rdma_phys_state s);
const char *rdma_link_layer_to_string(enum rdma_link_layer l);
const char *rdma_gid_type_to_string(enum rdma_gid_type t);
const char *rdma_node_type_to_string(enum rdma_node_type t);
