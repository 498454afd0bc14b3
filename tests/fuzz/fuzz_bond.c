// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bonding parsers (src/bond/bond-parse.c): /proc/net/bonding/BOND whole, and the input
 * as each sysfs attribute. Accepted values are in range; slave names are valid interface
 * names; a MAC formatted back parses to the same bytes.
 */
#include "bond/bond-parse.h"
#include "fuzz.h"

static void check_proc(const char *s)
{
	_cleanup_(bond_proc_done) struct bond_proc p = {};

	if (bond_proc_parse(s, &p) < 0)
		return;
	fuzz_assert(!p.has_mode || p.mode < _BOND_MODE_MAX);
	fuzz_assert(memchr(p.active_slave, '\0', sizeof(p.active_slave)));
	for (size_t i = 0; i < p.n_slaves; i++) {
		const struct bond_proc_slave *sl = &p.slaves[i];
		char buf[LACP_STATE_DECODE_MAX];

		fuzz_assert(memchr(sl->name, '\0', sizeof(sl->name)));
		fuzz_assert(!sl->has_mii || sl->mii < _BOND_MII_MAX);
		fuzz_assert(sl->partner_mac.len <= BOND_MAC_MAX);
		fuzz_assert(bond_proc_slave(&p, sl->name));
		lacp_state_to_string(sl->actor_state, buf, sizeof(buf));
		lacp_state_to_string(sl->partner_state, buf, sizeof(buf));
	}
}

static void check_mac(const char *s)
{
	struct bond_mac mac, again;
	char buf[3 * BOND_MAC_MAX];

	if (bond_parse_mac(s, &mac) < 0)
		return;
	fuzz_assert(mac.len == 6 || mac.len == BOND_MAC_MAX);
	bond_mac_to_string(&mac, buf, sizeof(buf));
	fuzz_assert(bond_parse_mac(buf, &again) == 0);
	fuzz_assert(again.len == mac.len && memcmp(again.b, mac.b, mac.len) == 0);
	(void)bond_mac_is_zero(&mac);
}

static void check_attrs(const char *s)
{
	enum bond_mode mode;
	enum bond_mii mii;
	enum bond_slave_state st;
	enum bond_lacp_rate rate;
	unsigned u;
	uint8_t ps;
	char **slaves = NULL, *active = NULL;
	int m;

	if (bond_parse_mode(s, &mode) == 0)
		fuzz_assert(mode < _BOND_MODE_MAX && bond_mode_to_string(mode));
	if (bond_parse_proc_mode(s, &mode) == 0)
		fuzz_assert(mode < _BOND_MODE_MAX);
	m = bond_mode_from_name(s);
	fuzz_assert(m == -EINVAL || (m >= 0 && m < _BOND_MODE_MAX));
	(void)bond_parse_uint(s, &u);
	(void)bond_parse_uint_na(s, &u);
	if (bond_parse_mii(s, &mii) == 0)
		fuzz_assert(mii < _BOND_MII_MAX && bond_mii_to_string(mii));
	if (bond_parse_slave_state(s, &st) == 0)
		fuzz_assert(st < _BOND_SLAVE_STATE_MAX && bond_slave_state_to_string(st));
	if (bond_parse_lacp_rate(s, &rate) == 0)
		fuzz_assert(rate < _BOND_LACP_RATE_MAX && bond_lacp_rate_to_string(rate));
	(void)bond_parse_port_state(s, &ps);
	(void)bond_ifname_valid(s);
	(void)bond_rdma_name_valid(s);
	if (bond_parse_slaves(s, &slaves) == 0) {
		for (char **sl = slaves; *sl; sl++)
			fuzz_assert(bond_ifname_valid(*sl));
		strv_free(slaves);
	}
	if (bond_parse_active_slave(s, &active) == 0) {
		fuzz_assert(!active || bond_ifname_valid(active));
		free(active);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);

	check_proc(s);
	check_mac(s);
	check_attrs(s);
	return 0;
}
