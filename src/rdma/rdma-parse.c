// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <strings.h>

#include "rdma/rdma-parse.h"
#include "core/string-table.h"

static const char *const rdma_port_state_table[_RDMA_PORT_STATE_MAX] = {
	[RDMA_PORT_NOP] = "NOP",       [RDMA_PORT_DOWN] = "DOWN",
	[RDMA_PORT_INIT] = "INIT",     [RDMA_PORT_ARMED] = "ARMED",
	[RDMA_PORT_ACTIVE] = "ACTIVE", [RDMA_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
};

static const char *const rdma_phys_state_table[_RDMA_PHYS_MAX] = {
	[RDMA_PHYS_UNKNOWN] = "unknown",
	[RDMA_PHYS_SLEEP] = "Sleep",
	[RDMA_PHYS_POLLING] = "Polling",
	[RDMA_PHYS_DISABLED] = "Disabled",
	[RDMA_PHYS_TRAINING] = "PortConfigurationTraining",
	[RDMA_PHYS_LINK_UP] = "LinkUp",
	[RDMA_PHYS_ERROR_RECOVERY] = "LinkErrorRecovery",
	[RDMA_PHYS_PHY_TEST] = "Phy Test",
};

static const char *const rdma_link_layer_table[_RDMA_LL_MAX] = {
	[RDMA_LL_UNKNOWN] = "unknown",
	[RDMA_LL_INFINIBAND] = "InfiniBand",
	[RDMA_LL_ETHERNET] = "Ethernet",
	[RDMA_LL_UNSPECIFIED] = "unspecified",
};

static const char *const rdma_gid_type_table[_RDMA_GID_TYPE_MAX] = {
	[RDMA_GID_IB_ROCE_V1] = "IB/RoCE v1",
	[RDMA_GID_ROCE_V2] = "RoCE v2",
};

static const char *const rdma_node_type_table[_RDMA_NODE_MAX] = {
	[RDMA_NODE_UNKNOWN] = "unknown",     [RDMA_NODE_CA] = "CA",
	[RDMA_NODE_SWITCH] = "switch",	     [RDMA_NODE_ROUTER] = "router",
	[RDMA_NODE_RNIC] = "RNIC",	     [RDMA_NODE_USNIC] = "usNIC",
	[RDMA_NODE_USNIC_UDP] = "usNIC UDP", [RDMA_NODE_UNSPECIFIED] = "unspecified",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(rdma_port_state, enum rdma_port_state);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(rdma_phys_state, enum rdma_phys_state);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(rdma_link_layer, enum rdma_link_layer);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(rdma_gid_type, enum rdma_gid_type);
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(rdma_node_type, enum rdma_node_type);

int rdma_port_ready(enum rdma_port_state s, enum rdma_phys_state ph)
{
	if (s != RDMA_PORT_ACTIVE)
		return 0;
	if (ph == RDMA_PHYS_UNKNOWN)
		return -ENODATA;
	return ph == RDMA_PHYS_LINK_UP;
}

/*
 * "N: WORD..." as the kernel's state/phys_state/node_type files print it: a small decimal
 * number, ": ", then a non-empty word. Returns the number, -EINVAL otherwise.
 */
static int parse_numbered(const char *s, unsigned max)
{
	unsigned v = 0;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > max)
			return -EINVAL;
	}
	if (p[0] != ':' || p[1] != ' ' || !isalpha((unsigned char)p[2]))
		return -EINVAL;
	return (int)v;
}

/*
 * The word after "N: " is the kernel's for N (one table prints both, ib_core's sysfs.c):
 * another one is a damaged reading, never judged by its number alone.
 */
static bool word_is(const char *s, const char *word)
{
	const char *w = strchr(s, ' ') + 1; /* parse_numbered() saw ": " */
	size_t n = strlen(word);

	return strneq(w, word, n) && (!w[n] || streq(w + n, "\n"));
}

int rdma_parse_port_state(const char *s, enum rdma_port_state *ret)
{
	int v = parse_numbered(s, _RDMA_PORT_STATE_MAX - 1);

	if (v < 0)
		return v;
	if (!word_is(s, rdma_port_state_table[v]))
		return -EINVAL;
	*ret = v;
	return 0;
}

int rdma_parse_phys_state(const char *s, enum rdma_phys_state *ret)
{
	int v = parse_numbered(s, _RDMA_PHYS_MAX - 1);

	if (v <= 0 || !word_is(s, rdma_phys_state_table[v]))
		return -EINVAL;
	*ret = v;
	return 0;
}

int rdma_parse_node_type(const char *s, enum rdma_node_type *ret)
{
	int v = parse_numbered(s, _RDMA_NODE_MAX - 1);

	if (v <= 0)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* "53.125" -> 53125; at most 3 decimals; *end after the number. */
static int parse_decimal_mbps(const char *s, uint32_t *ret, const char **end)
{
	uint64_t v = 0;
	unsigned frac = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > 100000)
			return -ERANGE;
	}
	v *= 1000;
	if (*p == '.') {
		unsigned scale = 100;

		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p)) {
			if (!scale)
				return -EINVAL; /* more than 3 decimals */
			frac += (unsigned)(*p++ - '0') * scale;
			scale /= 10;
		}
	}
	*ret = (uint32_t)(v + frac);
	*end = p;
	return 0;
}

/* " (4X NDR)", " (4X)", "" after "Gb/sec". */
static int parse_rate_paren(const char *p, struct rdma_rate *r)
{
	size_t n;

	if (*p == '\0')
		return 0;
	if (!strneq(p, " (", 2))
		return -EINVAL;
	p += 2;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	r->width = (unsigned)strtoul(p, (char **)&p, 10);
	if (*p++ != 'X' || rdma_parse_width_ok(r->width) < 0)
		return -EINVAL;
	if (*p == ' ') {
		p++;
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		if (n == 0 || n >= RDMA_SPEED_NAME_MAX)
			return -EINVAL;
		memcpy(r->speed, p, n);
		r->speed[n] = '\0';
		p += n;
	}
	return streq(p, ")") ? 0 : -EINVAL;
}

int rdma_parse_rate(const char *s, struct rdma_rate *ret)
{
	struct rdma_rate r = {};
	const char *p;

	if (!s || parse_decimal_mbps(s, &r.mbps, &p) < 0)
		return -EINVAL;
	if (!strneq(p, " Gb/sec", 7))
		return -EINVAL;
	if (parse_rate_paren(p + 7, &r) < 0)
		return -EINVAL;
	*ret = r;
	return 0;
}

int rdma_parse_width_ok(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 12 ? 0 : -EINVAL;
}

int rdma_parse_width(const char *s, unsigned *ret)
{
	char *end;
	unsigned long w;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	w = strtoul(s, &end, 10);
	if ((*end != 'X' && *end != 'x') || end[1] != '\0' || w > 12 ||
	    rdma_parse_width_ok((unsigned)w) < 0)
		return -EINVAL;
	*ret = (unsigned)w;
	return 0;
}

int rdma_parse_gbps(const char *s, uint32_t *ret_mbps)
{
	const char *end;
	uint32_t v;

	if (!s || parse_decimal_mbps(s, &v, &end) < 0 || *end != '\0')
		return -EINVAL;
	if (v < 1000 || v > 3200000)
		return -ERANGE;
	*ret_mbps = v;
	return 0;
}

void rdma_mbps_format(uint32_t mbps, char *buf, size_t size)
{
	if (mbps % 1000 == 0)
		snprintf(buf, size, "%u", mbps / 1000);
	else if (mbps % 100 == 0)
		snprintf(buf, size, "%u.%u", mbps / 1000, (mbps % 1000) / 100);
	else if (mbps % 10 == 0)
		snprintf(buf, size, "%u.%02u", mbps / 1000, (mbps % 1000) / 10);
	else
		snprintf(buf, size, "%u.%03u", mbps / 1000, mbps % 1000);
}

void rdma_rate_format(const struct rdma_rate *r, char *buf, size_t size)
{
	char num[24];

	rdma_mbps_format(r->mbps, num, sizeof(num));
	if (!r->width)
		snprintf(buf, size, "%s Gb/sec", num);
	else if (!r->speed[0])
		snprintf(buf, size, "%s Gb/sec (%uX)", num, r->width);
	else
		snprintf(buf, size, "%s Gb/sec (%uX %s)", num, r->width, r->speed);
}

int rdma_parse_link_layer(const char *s, enum rdma_link_layer *ret)
{
	if (s && streq(s, "InfiniBand"))
		*ret = RDMA_LL_INFINIBAND;
	else if (s && streq(s, "Ethernet"))
		*ret = RDMA_LL_ETHERNET;
	else if (s && streq(s, "Unknown")) /* link_layer_show(): IB_LINK_LAYER_UNSPECIFIED */
		*ret = RDMA_LL_UNSPECIFIED;
	else
		return -EINVAL;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* groups of 4 hex digits separated by ':' -> n*2 bytes; exact shape only. */
static int parse_hex_groups(const char *s, uint8_t *ret, unsigned groups)
{
	if (!s || strlen(s) != groups * 5 - 1)
		return -EINVAL;
	for (unsigned g = 0; g < groups; g++) {
		const char *p = s + g * 5;
		int d[4];

		for (int i = 0; i < 4; i++) {
			d[i] = hexval(p[i]);
			if (d[i] < 0)
				return -EINVAL;
		}
		if (g + 1 < groups && p[4] != ':')
			return -EINVAL;
		ret[g * 2] = (uint8_t)(d[0] << 4 | d[1]);
		ret[g * 2 + 1] = (uint8_t)(d[2] << 4 | d[3]);
	}
	return 0;
}

int rdma_parse_gid(const char *s, uint8_t ret[16])
{
	return parse_hex_groups(s, ret, 8);
}

int rdma_parse_guid(const char *s, uint8_t ret[8])
{
	return parse_hex_groups(s, ret, 4);
}

int rdma_parse_mac(const char *s, uint8_t ret[6])
{
	if (!s || strlen(s) != 17)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		int hi = hexval(s[i * 3]), lo = hexval(s[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[i * 3 + 2] != ':'))
			return -EINVAL;
		ret[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

bool rdma_guid_is_eui64_of(const uint8_t guid[8], const uint8_t mac[6])
{
	const uint8_t eui[8] = {
		mac[0] ^ 0x02, mac[1], mac[2], 0xff, 0xfe, mac[3], mac[4], mac[5]
	};

	return memcmp(guid, eui, 8) == 0;
}

bool rdma_gid_is_zero(const uint8_t gid[16])
{
	for (int i = 0; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

bool rdma_gid_is_ipv4(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(gid, prefix, sizeof(prefix)) == 0;
}

bool rdma_gid_is_mac_based(const uint8_t gid[16])
{
	static const uint8_t zero[10];

	return !rdma_gid_is_zero(gid) && memcmp(gid + 6, zero, sizeof(zero)) == 0;
}

bool rdma_gid_has_ip(const uint8_t gid[16])
{
	if (rdma_gid_is_zero(gid) || rdma_gid_is_mac_based(gid))
		return false;
	if (rdma_gid_is_ipv4(gid))
		return true;
	return !(gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80);
}

void rdma_gid_format_ip(const uint8_t gid[16], char buf[RDMA_GID_IP_MAX])
{
	if (rdma_gid_is_ipv4(gid))
		inet_ntop(AF_INET, gid + 12, buf, RDMA_GID_IP_MAX);
	else
		inet_ntop(AF_INET6, gid, buf, RDMA_GID_IP_MAX);
}

int rdma_parse_gid_type(const char *s, enum rdma_gid_type *ret)
{
	if (s && streq(s, "IB/RoCE v1"))
		*ret = RDMA_GID_IB_ROCE_V1;
	else if (s && streq(s, "RoCE v2"))
		*ret = RDMA_GID_ROCE_V2;
	else
		return -EINVAL;
	return 0;
}

unsigned rdma_mtu_from_enum(int e)
{
	return e >= 1 && e <= 5 ? 128u << e : 0;
}

/* IB_GRH + UDP + BTH + XRC + ATOMICETH + ICRC, as include/rdma/ib_addr.h subtracts them. */
#define IBOE_HEADERS (40 + 8 + 12 + 4 + 28 + 4)

unsigned rdma_mtu_from_netdev(unsigned netdev_mtu)
{
	unsigned m = netdev_mtu > IBOE_HEADERS ? netdev_mtu - IBOE_HEADERS : 0;

	for (unsigned v = 4096; v >= 256; v /= 2)
		if (m >= v)
			return v;
	return 0;
}

unsigned rdma_width_from_ibv(unsigned code)
{
	switch (code) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

/* The kernel's ib_speed codes, per-lane rates and names (drivers/infiniband/core/sysfs.c). */
static const struct {
	unsigned code;
	uint32_t mbps;
	const char *name;
} ib_speeds[] = {
	{ 1, 2500, "SDR" },    { 2, 5000, "DDR" },     { 4, 10000, "QDR" },
	{ 8, 10000, "FDR10" }, { 16, 14000, "FDR" },   { 32, 25000, "EDR" },
	{ 64, 50000, "HDR" },  { 128, 100000, "NDR" }, { 256, 200000, "XDR" },
};

int rdma_speed_from_ibv(unsigned code, uint32_t *lane_mbps, const char **name)
{
	for (size_t i = 0; i < ARRAY_SIZE(ib_speeds); i++)
		if (ib_speeds[i].code == code) {
			*lane_mbps = ib_speeds[i].mbps;
			*name = ib_speeds[i].name;
			return 0;
		}
	return -EINVAL;
}

/*
 * A link name is the rate the kernel reports for a 4X port at that speed (ports/N/rate:
 * "400 Gb/sec (4X NDR)"), the width of every HCA and switch port but split ones; those
 * have their own names: HDR100 and NDR200 are 2X HDR and 2X NDR.
 */
static int parse_link_name(const char *s, uint32_t *ret_mbps)
{
	if (!strcasecmp(s, "HDR100") || !strcasecmp(s, "NDR200")) {
		*ret_mbps = !strcasecmp(s, "HDR100") ? 100000 : 200000;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ib_speeds); i++)
		if (!strcasecmp(s, ib_speeds[i].name)) {
			*ret_mbps = 4 * ib_speeds[i].mbps;
			return 0;
		}
	return -EINVAL;
}

int rdma_parse_min_rate(const char *s, uint32_t *ret_mbps)
{
	if (s && isalpha((unsigned char)*s))
		return parse_link_name(s, ret_mbps);
	return rdma_parse_gbps(s, ret_mbps);
}
