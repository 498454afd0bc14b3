// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "bond/bond-check.h"

#define TEXT_MAX 1024

/* One result being judged: the worst verdict so far, its remedy, every problem in order. */
struct judge {
	enum verdict v;
	enum action action; /* of the problem whose remedy is shown */
	char problems[TEXT_MAX];
	char facts[TEXT_MAX];
	const char *remedy;
	char remedy_buf[TEXT_MAX];
};

static void vappend(char *buf, const char *sep, const char *fmt, va_list ap)
{
	size_t n = strlen(buf);

	if (n && n < TEXT_MAX)
		n += snprintf(buf + n, TEXT_MAX - n, "%s", sep);
	if (n < TEXT_MAX)
		vsnprintf(buf + n, TEXT_MAX - n, fmt, ap);
}

_printf_(2, 3) static void fact(struct judge *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(j->facts, ", ", fmt, ap);
	va_end(ap);
}

/* A problem; the remedy of the first problem of the worst verdict is the one shown. */
_printf_(5, 6) static void problem(struct judge *j, enum verdict v, enum action action,
				   const char *remedy, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(j->problems, "; ", fmt, ap);
	va_end(ap);
	if (v > j->v || (v == j->v && !j->remedy)) {
		j->v = v;
		j->action = action;
		j->remedy = NULL;
		if (remedy) {
			snprintf(j->remedy_buf, sizeof(j->remedy_buf), "%s", remedy);
			j->remedy = j->remedy_buf;
		}
	}
}

/* "NAME: problem; problem": the sentence names what is out, as the operator reads it. */
static void judge_prefix(struct judge *j, const char *name)
{
	size_t n = strlen(name) + 2, len = strlen(j->problems);

	if (!j->problems[0])
		return;
	if (len + n >= TEXT_MAX)
		len = TEXT_MAX - n - 1;
	memmove(j->problems + n, j->problems, len);
	j->problems[n + len] = '\0';
	memcpy(j->problems, name, n - 2);
	memcpy(j->problems + n - 2, ": ", 2);
}

static int judge_add(struct results *rs, const struct judge *j, const char *check,
		     const char *object, const char *expected)
{
	if (!j->problems[0])
		return results_add(rs, &(const struct result_spec){
					       .verdict = j->v,
					       .check = check,
					       .object = object,
					       .expected = expected,
					       .actual = j->facts,
					       .action = j->action,
				       });
	if (!j->facts[0])
		return results_add(rs, &(const struct result_spec){
					       .verdict = j->v,
					       .check = check,
					       .object = object,
					       .expected = expected,
					       .actual = j->problems,
					       .remedy = j->remedy,
					       .action = j->action,
				       });
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = j->v,
				    .check = check,
				    .object = object,
				    .expected = expected,
				    .remedy = j->remedy,
				    .action = j->action,
			    },
			    "%s (%s)", j->problems, j->facts);
}

static const char *err_text(int err)
{
	return err == -ENODATA ? "empty" : strerror(-err);
}

/* ---- the bond ------------------------------------------------------------ */

static size_t slaves_wanted(const struct bond_seen *b)
{
	return b->rule->min_slaves_up ? b->rule->min_slaves_up : b->n_slaves;
}

static size_t slaves_unknown(const struct bond_seen *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		n += b->slave[i].err == 0 && b->slave[i].mii_err < 0;
	return n;
}

static void judge_mode(struct judge *j, const struct bond_seen *b)
{
	const struct bond_rule *r = b->rule;
	char remedy[128];

	if (b->mode_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "bonding/mode unreadable: %s",
			err_text(b->mode_err));
		return;
	}
	fact(j, "%s", bond_mode_to_string(b->mode));
	if (r->mode == BOND_MODE_ANY || (int)b->mode == r->mode)
		return;
	snprintf(remedy, sizeof(remedy),
		 "set mode %s in %s's network configuration (the bond must be re-created)",
		 bond_mode_to_string(r->mode), r->name);
	problem(j, VERDICT_FAIL, ACTION_CONFIG, remedy, "mode %s, want %s",
		bond_mode_to_string(b->mode), bond_mode_to_string(r->mode));
}

static void judge_miimon(struct judge *j, const struct bond_seen *b)
{
	if (b->miimon_err < 0) {
		if (b->rule->miimon)
			problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
				"bonding/miimon unreadable: %s", err_text(b->miimon_err));
		return;
	}
	fact(j, "miimon %u", b->miimon);
	if (b->rule->miimon && b->miimon == 0)
		problem(j, VERDICT_FAIL, ACTION_CONFIG,
			"set miimon=100 on the bond (networkd MIIMonitorSec=100ms, "
			"NetworkManager bond.options miimon=100)",
			"miimon 0: a dead link is not noticed");
}

/* "vethA1, vethA2 (N link failures)": the slaves whose MII is not up, for the bond's line. */
static const char *down_slaves(const struct bond_seen *b, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < b->n_slaves && n < size; i++) {
		const struct bond_slave_seen *s = &b->slave[i];

		if (s->err < 0 || s->mii_err < 0 || s->mii == BOND_MII_UP)
			continue;
		n += snprintf(buf + n, size - n, "%s%s", n ? ", " : "", s->name);
		if (n < size && s->failures_err == 0 && s->link_failures)
			n += snprintf(buf + n, size - n, " (%u link failure%s)", s->link_failures,
				      s->link_failures == 1 ? "" : "s");
	}
	return n ? buf : "unreadable";
}

static void judge_slaves(struct judge *j, const struct bond_seen *b)
{
	size_t up = bond_slaves_up(b), want = slaves_wanted(b), unknown = slaves_unknown(b);
	char down[256];
	enum verdict v;

	if (b->slaves_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "bonding/slaves unreadable: %s",
			err_text(b->slaves_err));
		return;
	}
	fact(j, "%zu of %zu slaves up", up, b->n_slaves);
	if (b->n_slaves == 0) {
		char remedy[128];

		/* the NICs are the admin's choice; the bond is this one */
		snprintf(
			remedy, sizeof(remedy),
			"enslave the bond's NICs (ip link set <nic> down; ip link set <nic> master "
			"%s)",
			b->rule->name);
		problem(j, VERDICT_FAIL, ACTION_CONFIG, remedy, "no slaves");
		return;
	}
	if (b->rule->min_slaves_up > b->n_slaves) {
		problem(j, VERDICT_FAIL, ACTION_CONFIG,
			"enslave more NICs, or lower MinSlavesUp=", "%zu slaves, MinSlavesUp=%u",
			b->n_slaves, b->rule->min_slaves_up);
		return;
	}
	if (up >= want)
		return;
	v = up + unknown >= want ? VERDICT_UNKNOWN : VERDICT_FAIL;
	problem(j, v, ACTION_CABLE, "bring the slaves' links up (see the bond.slave results)",
		"%zu of %zu slaves up, want %zu (down: %s)", up, b->n_slaves, want,
		down_slaves(b, down, sizeof(down)));
}

static const struct bond_slave_seen *find_slave(const struct bond_seen *b, const char *name)
{
	for (size_t i = 0; name && i < b->n_slaves; i++)
		if (streq(b->slave[i].name, name))
			return &b->slave[i];
	return NULL;
}

static void judge_active_backup(struct judge *j, const struct bond_seen *b)
{
	const struct bond_slave_seen *s;

	if (b->active_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"bonding/active_slave unreadable: %s", err_text(b->active_err));
		return;
	}
	if (!b->active) {
		problem(j, VERDICT_FAIL, ACTION_CABLE,
			"bring a slave's link up: the bond elects it then",
			"no active slave: no traffic flows");
		return;
	}
	fact(j, "active %s", b->active);
	s = find_slave(b, b->active);
	if (s && s->mii_err == 0 && s->mii != BOND_MII_UP)
		problem(j, VERDICT_FAIL, ACTION_CABLE,
			"check the active slave's link (ip link, ethtool)",
			"active slave %s is mii %s", b->active, bond_mii_to_string(s->mii));
}

bool bond_slave_lacp_up(const struct bond_slave_seen *s)
{
	return s->actor_err == 0 &&
	       (s->actor_state & LACP_STATE_COLL_DIST) == LACP_STATE_COLL_DIST &&
	       s->partner_state_err == 0 &&
	       (s->partner_state & LACP_PARTNER_READY) == LACP_PARTNER_READY;
}

/* Our side is up but the switch's could not be read: its own result says so. */
static bool partner_state_unread(const struct bond_slave_seen *s)
{
	return s->actor_err == 0 && !(s->actor_state & LACP_STATE_DEFAULTED) &&
	       s->partner_state_err < 0 && s->partner_state_err != -ENODATA;
}

static bool slave_in_lag(const struct bond_seen *b, const struct bond_slave_seen *s)
{
	return s->agg_err == 0 && b->agg_err == 0 && s->aggregator == b->ad_aggregator &&
	       bond_slave_lacp_up(s);
}

static void judge_lacp(struct judge *j, const struct bond_seen *b)
{
	char mac[3 * BOND_MAC_MAX], out[TEXT_MAX] = "";
	size_t in = 0, up = 0, unknown = 0, n = 0;

	if (b->agg_err == -ENODATA) {
		problem(j, VERDICT_FAIL, ACTION_CABLE,
			"configure the switch ports of the slaves as one LACP port-channel",
			"no active aggregator: LACP not negotiated");
		return;
	}
	if (b->agg_err < 0)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"bonding/ad_aggregator unreadable: %s", err_text(b->agg_err));
	else
		fact(j, "aggregator %u (%u port%s)", b->ad_aggregator, b->ad_num_ports,
		     b->ad_num_ports == 1 ? "" : "s");
	if (b->partner_err == -EACCES)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT,
			"run hostprep as root (it needs CAP_NET_ADMIN)",
			"LACP partner MAC unreadable: sysfs ad_partner_mac and /proc/net/bonding "
			"show it only with CAP_NET_ADMIN");
	else if (b->partner_err < 0)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "LACP partner MAC unreadable: %s",
			err_text(b->partner_err));
	else if (bond_mac_is_zero(&b->partner_mac))
		problem(j, VERDICT_FAIL, ACTION_CABLE,
			"configure the switch ports of the slaves as one LACP port-channel",
			"partner MAC 00:00:00:00:00:00: no LACP partner answered");
	else
		fact(j, "partner %s", bond_mac_to_string(&b->partner_mac, mac, sizeof(mac)));
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bond_slave_seen *s = &b->slave[i];

		if (s->err < 0 || s->mii_err < 0 || s->mii != BOND_MII_UP)
			continue;
		up++;
		if (slave_in_lag(b, s))
			in++;
		else if ((s->agg_err < 0 && s->agg_err != -ENODATA) || s->actor_err < 0 ||
			 partner_state_unread(s))
			unknown++; /* its own result says what could not be read */
		else if (n < sizeof(out))
			n += snprintf(out + n, sizeof(out) - n, "%s%s", n ? ", " : "", s->name);
	}
	if (b->agg_err == 0 && in + unknown < up)
		problem(j, VERDICT_FAIL, ACTION_CABLE,
			"see the bond.slave results for the slaves that are out",
			"%s out of aggregator %u (%zu of %zu up slaves aggregated and "
			"distributing)",
			out, b->ad_aggregator, in, up);
}

/*
 * The bond itself carries traffic only when its operstate is up (RFC 2863, as the kernel
 * keeps it: administratively up and a carrier). "unknown" (no operstate kept) is settled
 * by its carrier, bonding/mii_status.
 */
static void judge_link(struct judge *j, const struct bond_seen *b)
{
	char remedy[192];
	bool admin_down = b->flags_err == 0 && !(b->flags & 0x1); /* IFF_UP */

	if (b->oper_err == 0 && streq(b->operstate, "up"))
		return;
	if (b->oper_err == 0 && streq(b->operstate, "unknown") && b->mii_err == 0 &&
	    b->mii == BOND_MII_UP)
		return;
	if (b->oper_err < 0 && b->mii_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"operstate and bonding/mii_status unreadable: %s", err_text(b->oper_err));
		return;
	}
	if (admin_down)
		snprintf(remedy, sizeof(remedy),
			 "bring %s up (ip link set %s up) and keep it up in its network "
			 "configuration",
			 b->rule->name, b->rule->name);
	else
		snprintf(remedy, sizeof(remedy),
			 "%s has no carrier: bring its slaves' links up (see the bond.slave "
			 "results), or lower bonding/min_links",
			 b->rule->name);
	problem(j, VERDICT_FAIL, admin_down ? ACTION_CONFIG : ACTION_CABLE, remedy,
		"the bond is %s%s", b->oper_err == 0 ? b->operstate : "not up",
		admin_down ? " (administratively down)" : "");
}

static int evaluate_bond(const struct bond_seen *b, struct results *rs, const char *expected)
{
	struct judge j = {};

	judge_link(&j, b);
	judge_mode(&j, b);
	judge_miimon(&j, b);
	judge_slaves(&j, b);
	if (b->mode_err == 0 && b->mode == BOND_MODE_ACTIVEBACKUP)
		judge_active_backup(&j, b);
	if (b->mode_err == 0 && b->mode == BOND_MODE_8023AD)
		judge_lacp(&j, b);
	return judge_add(rs, &j, "bond", b->rule->name, expected);
}

static void bond_expected(const struct bond_seen *b, char *buf, size_t size)
{
	const struct bond_rule *r = b->rule;
	int mode = r->mode != BOND_MODE_ANY ? r->mode : b->mode_err == 0 ? (int)b->mode : -1;
	size_t n;

	n = snprintf(buf, size, "%s",
		     r->mode == BOND_MODE_ANY ? "any mode" : bond_mode_to_string(r->mode));
	if (r->miimon && n < size)
		n += snprintf(buf + n, size - n, ", miimon > 0");
	if (r->min_slaves_up && n < size)
		n += snprintf(buf + n, size - n, ", at least %u slave%s up", r->min_slaves_up,
			      r->min_slaves_up > 1 ? "s" : "");
	else if (n < size)
		n += snprintf(buf + n, size - n, ", every slave up");
	if (mode == BOND_MODE_ACTIVEBACKUP && n < size)
		snprintf(buf + n, size - n, ", an active slave");
	else if (mode == BOND_MODE_8023AD && n < size)
		snprintf(buf + n, size - n, ", LACP negotiated");
}

/* ---- a slave ------------------------------------------------------------- */

static void slave_facts(struct judge *j, const struct bond_seen *b, const struct bond_slave_seen *s)
{
	char st[LACP_STATE_DECODE_MAX], mac[3 * BOND_MAC_MAX];

	if (s->mii_err == 0)
		fact(j, "mii %s", bond_mii_to_string(s->mii));
	if (s->state_err == 0)
		fact(j, "%s", bond_slave_state_to_string(s->state));
	if (s->failures_err == 0)
		fact(j, "%u link failure%s", s->link_failures, s->link_failures == 1 ? "" : "s");
	if (b->mode_err || b->mode != BOND_MODE_8023AD)
		return;
	if (s->agg_err == 0)
		fact(j, "aggregator %u", s->aggregator);
	if (s->actor_err == 0)
		fact(j, "state %s", lacp_state_to_string(s->actor_state, st, sizeof(st)));
	if (s->partner_mac.len)
		fact(j, "partner %s", bond_mac_to_string(&s->partner_mac, mac, sizeof(mac)));
}

/*
 * The switch's side of one slave, as the LACPDUs it sends tell (ad_partner_oper_port_state):
 * in sync, collecting and distributing, or frames the bond sends on this port are dropped
 * (not collecting) or the switch sends none on it (not distributing). Judged only while our
 * side hears the switch: a defaulted actor shows the admin default (0x01), not the switch.
 */
static void judge_slave_partner(struct judge *j, const struct bond_slave_seen *s)
{
	char st[LACP_STATE_DECODE_MAX], remedy[200];
	uint8_t missing;

	if (s->agg_err == -ENODATA || s->actor_err < 0 || (s->actor_state & LACP_STATE_DEFAULTED))
		return;
	if (s->partner_state_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"ad_partner_oper_port_state unreadable: %s",
			err_text(s->partner_state_err));
		return;
	}
	missing = LACP_PARTNER_READY & ~s->partner_state;
	if (!missing)
		return;
	snprintf(remedy, sizeof(remedy),
		 "check the switch port of %s: its LACP member state (suspended, individual "
		 "or still negotiating) and the port-channel's configuration",
		 s->name);
	problem(j, VERDICT_FAIL, ACTION_CABLE, remedy,
		"the switch's side is not %s%s%s (partner state %s)%s",
		missing & LACP_STATE_SYNCHRONIZATION ? "in sync" : "",
		missing & LACP_STATE_SYNCHRONIZATION && missing & LACP_STATE_COLL_DIST ? ", " : "",
		(missing & LACP_STATE_COLL_DIST) == LACP_STATE_COLL_DIST
			? "collecting and distributing"
		: missing & LACP_STATE_COLLECTING   ? "collecting"
		: missing & LACP_STATE_DISTRIBUTING ? "distributing"
						    : "",
		lacp_state_to_string(s->partner_state, st, sizeof(st)),
		missing & LACP_STATE_COLLECTING	    ? ": it drops what the bond sends on this port"
		: missing & LACP_STATE_DISTRIBUTING ? ": it sends nothing on this port"
						    : "");
}

static void judge_slave_lacp(struct judge *j, const struct bond_seen *b,
			     const struct bond_slave_seen *s)
{
	char remedy[256];
	const char *partner = s->partner_mac.len && bond_mac_is_zero(&s->partner_mac)
				      ? ", no LACP partner on it (partner MAC 00:00:00:00:00:00)"
				      : "";

	snprintf(remedy, sizeof(remedy),
		 "put the switch port of %s into the same LACP port-channel as the other "
		 "slaves of %s",
		 s->name, b->rule->name);
	if (s->agg_err == -ENODATA)
		problem(j, VERDICT_FAIL, ACTION_CABLE, remedy,
			"in no aggregator — LACP not negotiated on it%s", partner);
	else if (s->agg_err < 0)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "ad_aggregator_id unreadable: %s",
			err_text(s->agg_err));
	else if (b->agg_err == 0 && s->aggregator != b->ad_aggregator)
		problem(j, VERDICT_FAIL, ACTION_CABLE, remedy,
			"in aggregator %u, the bond uses %u — its switch port is not in the "
			"same LAG / LACP not negotiated on it%s",
			s->aggregator, b->ad_aggregator, partner);
	if (s->actor_err < 0)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"ad_actor_oper_port_state unreadable: %s", err_text(s->actor_err));
	else if ((s->actor_state & LACP_STATE_COLL_DIST) != LACP_STATE_COLL_DIST)
		problem(j, VERDICT_FAIL, ACTION_CABLE, remedy, "not %s%s",
			s->actor_state & LACP_STATE_COLLECTING ? "distributing"
							       : "collecting and distributing",
			s->actor_state & LACP_STATE_DEFAULTED
				? " (LACP defaulted: no LACPDU from the switch on this port)"
				: "");
	judge_slave_partner(j, s);
}

static void judge_slave_mii(struct judge *j, const struct bond_seen *b,
			    const struct bond_slave_seen *s)
{
	char remedy[160], keeps[96] = "";
	bool tolerated = bond_slaves_up(b) >= slaves_wanted(b);

	if (s->mii_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"bonding_slave/mii_status unreadable: %s", err_text(s->mii_err));
		return;
	}
	if (s->mii == BOND_MII_UP)
		return;
	snprintf(remedy, sizeof(remedy),
		 "check %s's cable, transceiver and switch port (ip link show %s; ethtool %s)",
		 s->name, s->name, s->name);
	if (tolerated)
		snprintf(keeps, sizeof(keeps), "; %s keeps %zu of %zu up, MinSlavesUp=%u",
			 b->rule->name, bond_slaves_up(b), b->n_slaves, b->rule->min_slaves_up);
	if (s->failures_err == 0)
		problem(j, tolerated ? VERDICT_WARN : VERDICT_FAIL, ACTION_CABLE, remedy,
			"mii %s, %u link failure%s — no carrier%s", bond_mii_to_string(s->mii),
			s->link_failures, s->link_failures == 1 ? "" : "s", keeps);
	else
		problem(j, tolerated ? VERDICT_WARN : VERDICT_FAIL, ACTION_CABLE, remedy,
			"mii %s — no carrier%s", bond_mii_to_string(s->mii), keeps);
}

static int evaluate_slave(const struct bond_seen *b, const struct bond_slave_seen *s,
			  struct results *rs)
{
	bool lacp = b->mode_err == 0 && b->mode == BOND_MODE_8023AD;
	struct judge j = {};
	char object[2 * BOND_IFNAME_MAX + 2];

	snprintf(object, sizeof(object), "%s/%s", b->rule->name, s->name);
	if (s->err < 0) {
		problem(&j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "vanished while being read (%s)",
			err_text(s->err));
	} else {
		slave_facts(&j, b, s);
		judge_slave_mii(&j, b, s);
		if (lacp && s->mii_err == 0 && s->mii == BOND_MII_UP)
			judge_slave_lacp(&j, b, s);
	}
	judge_prefix(&j, s->name);
	return judge_add(rs, &j, "bond.slave", object,
			 lacp ? "mii up, in the bond's aggregator, collecting and distributing"
			      : "mii up");
}

/* ---- the RDMA LAG device ------------------------------------------------- */

static const struct bond_slave_seen *slave_of_pci(const struct bond_seen *b, const char *pci)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (b->slave[i].pci[0] && streq(b->slave[i].pci, pci))
			return &b->slave[i];
	return NULL;
}

static void judge_lag_ndev(struct judge *j, const struct bond_seen *b)
{
	const struct bond_lag_seen *l = &b->lag;
	const char *rdma = b->rule->rdma;

	if (l->on_bond) {
		fact(j, "port %u ndev %s", l->ndev_port, l->ndev);
		return;
	}
	if (l->ndev)
		problem(j, VERDICT_FAIL, ACTION_CONFIG,
			"name the RDMA device of this bond's LAG in RDMA=",
			"%s's GIDs name %s, not %s: not this bond's LAG device", rdma, l->ndev,
			b->rule->name);
	else if (l->ndev_err == -ENODATA)
		problem(j, VERDICT_FAIL, ACTION_CONFIG,
			"give the bond an address (RoCE GIDs follow the bond's IP addresses)",
			"%s has no GID with a netdev (gid_attrs/ndevs all empty)", rdma);
	else
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL,
			"%s: gid_attrs/ndevs unreadable: %s", rdma, err_text(l->ndev_err));
}

static void judge_lag_pci(struct judge *j, const struct bond_seen *b)
{
	const struct bond_lag_seen *l = &b->lag;
	const struct bond_slave_seen *s;
	char pcis[TEXT_MAX] = "";
	size_t n = 0;

	if (l->pci_err < 0) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "%s: device link unreadable: %s",
			b->rule->rdma, err_text(l->pci_err));
		return;
	}
	s = slave_of_pci(b, l->pci);
	if (s) {
		fact(j, "PCI %s (slave %s)", l->pci, s->name);
		return;
	}
	for (size_t i = 0; i < b->n_slaves && n < sizeof(pcis); i++)
		n += snprintf(pcis + n, sizeof(pcis) - n, "%s%s", n ? ", " : "",
			      b->slave[i].pci[0] ? b->slave[i].pci : "none");
	problem(j, VERDICT_FAIL, ACTION_CONFIG, "name the RDMA device of this bond's LAG in RDMA=",
		"%s is on PCI %s, none of %s's slaves (%s)", b->rule->rdma, l->pci, b->rule->name,
		pcis);
}

static int evaluate_lag(const struct bond_seen *b, struct results *rs)
{
	const char *lagfix = "enslave both ports of one ConnectX NIC, and only them, in mode "
			     "active-backup, balance-xor or 802.3ad (mlx5 forms the LAG then)";
	char expected[128];
	struct judge j = {};

	snprintf(expected, sizeof(expected), "RDMA LAG device on %s, on a slave's PCI function",
		 b->rule->name);
	if (b->mode_err == 0 && !bond_mode_lag_capable(b->mode))
		problem(&j, VERDICT_FAIL, ACTION_CONFIG, lagfix,
			"%s is %s: mlx5 RoCE LAG needs active-backup, balance-xor or 802.3ad",
			b->rule->name, bond_mode_to_string(b->mode));
	if (b->lag.err == -ENOENT)
		problem(&j, VERDICT_FAIL, ACTION_CONFIG, lagfix,
			"no RDMA device %s: the mlx5 LAG is not formed", b->rule->rdma);
	else if (b->lag.err < 0)
		problem(&j, VERDICT_UNKNOWN, ACTION_INSPECT, NULL, "%s unreadable: %s",
			b->rule->rdma, err_text(b->lag.err));
	else {
		judge_lag_ndev(&j, b);
		judge_lag_pci(&j, b);
	}
	return judge_add(rs, &j, "bond.lag", b->rule->rdma, expected);
}

/* ---- all ----------------------------------------------------------------- */

static int evaluate_missing(const struct bond_seen *b, struct results *rs, const char *expected)
{
	const char *n = b->rule->name;

	if (b->err == -ENOENT)
		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "bond",
				.object = n,
				.expected = expected,
				.remedy = "create the bond (systemd-networkd .netdev Kind=bond, "
					  "NetworkManager or ifupdown) or remove the [Bond:] rule",
				.action = ACTION_CONFIG,
			},
			"no interface %s", n);
	if (b->err == -ENOTDIR)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "bond",
					    .object = n,
					    .expected = expected,
					    .remedy = "name the bond itself in [Bond:IFNAME], not "
						      "one of its slaves or a plain NIC",
					    .action = ACTION_CONFIG,
				    },
				    "%s is not a bond (no bonding/ directory)", n);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_UNKNOWN,
				    .check = "bond",
				    .object = n,
				    .expected = expected,
				    .action = ACTION_INSPECT,
			    },
			    "%s unreadable: %s", n, err_text(b->err));
}

int bond_evaluate(const struct bond_seen *b, struct results *rs)
{
	char expected[256];
	int r;

	bond_expected(b, expected, sizeof(expected));
	if (b->err < 0)
		return evaluate_missing(b, rs, expected);
	r = evaluate_bond(b, rs, expected);
	for (size_t i = 0; r >= 0 && i < b->n_slaves; i++)
		r = evaluate_slave(b, &b->slave[i], rs);
	if (r >= 0 && b->rule->rdma)
		r = evaluate_lag(b, rs);
	return r;
}
