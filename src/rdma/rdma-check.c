// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of [Port:*] rules against the inventory, the wait predicate and the NCCL/UCX
 * environment derived from the same view. A port that is not ACTIVE is judged by its
 * state alone: its rate, width and MTU are meaningless and never reported as "slow".
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "rdma/rdma-addr.h"
#include "rdma/rdma-check.h"
#include "run/linkwait.h"

bool rdma_rules_select_device(const struct port_config *pc, const struct rdma_device *d)
{
	for (size_t i = 0; pc && i < pc->n_rules; i++)
		if (port_rule_selects_device(&pc->rules[i], d))
			return true;
	return false;
}

static bool want_device(const struct rdma_device *d, void *userdata)
{
	const struct port_config *pc = userdata;

	return !pc || rdma_rules_select_device(pc, d);
}

int rdma_run_scan(struct rdma_run *rr, bool use_verbs)
{
	rdma_inventory_done(&rr->inv);
	return rdma_scan(rr->root, use_verbs, want_device, (void *)rr->pc, &rr->inv);
}

void rdma_run_free(struct rdma_run *rr)
{
	if (!rr)
		return;
	rdma_inventory_done(&rr->inv);
	free(rr);
}

/* ---- one port ---- */

static const char *phys_hint(const struct rdma_port *p)
{
	switch (p->phys_state) {
	case RDMA_PHYS_POLLING:
		return "no cable or no peer at the switch";
	case RDMA_PHYS_DISABLED:
		return "admin down (ip link set / ibportstate / switch)";
	case RDMA_PHYS_SLEEP:
		return "the port is asleep (no signal)";
	case RDMA_PHYS_TRAINING:
		return "link training with the peer";
	case RDMA_PHYS_ERROR_RECOVERY:
		return "link error recovery (bad cable or optics)";
	case RDMA_PHYS_PHY_TEST:
		return "the port is in a PHY test mode";
	case RDMA_PHYS_LINK_UP:
		return p->link_layer == RDMA_LL_INFINIBAND
			       ? "link up, no subnet manager has brought the port up"
			       : "link up, the port is not active yet";
	default:
		return "the port is not active";
	}
}

/* Where the operator reads the port: "ibstat mlx5_0 1; mlxlink -d mlx5_0 -p 1", "ethtool eth2". */
static void port_tools(const struct rdma_device *d, const struct rdma_port *p, char *buf,
		       size_t size)
{
	if (p->link_layer == RDMA_LL_ETHERNET && p->netdev)
		snprintf(buf, size, "ethtool %s", p->netdev);
	else if (strneq(d->name, "mlx", 3)) /* mlxlink reads NVIDIA (Mellanox) ports only */
		snprintf(buf, size, "ibstat %s %u; mlxlink -d %s -p %u", d->name, p->num, d->name,
			 p->num);
	else
		snprintf(buf, size, "ibstat %s %u", d->name, p->num);
}

struct judgement {
	enum verdict v;
	enum action action;
	const char *cause;
	struct strbuf problems;
	const char *remedy; /* NULL or remedy_buf */
	char remedy_buf[384];
};

/* The worst problem names the result's action, cause and remedy; the first of a verdict wins. */
static void judge(struct judgement *j, enum verdict v, enum action action, const char *cause,
		  const char *remedy)
{
	if (v <= j->v)
		return;
	j->v = v;
	j->action = action;
	j->cause = cause;
	j->remedy = NULL;
	if (remedy) {
		snprintf(j->remedy_buf, sizeof(j->remedy_buf), "%s", remedy);
		j->remedy = j->remedy_buf;
	}
}

_printf_(6, 7) static void problem(struct judgement *j, enum verdict v, enum action action,
				   const char *cause, const char *remedy, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	strbuf_printf(&j->problems, "%s%s", j->problems.s ? "; " : "", msg);
	judge(j, v, action, cause, remedy);
}

/*
 * A remedy made for this port (no NETDEV or DEV left for the operator to fill in), in a
 * buffer that the next call reuses: judge() copies what it keeps.
 */
_printf_(1, 2) static const char *remedyf(const char *fmt, ...)
{
	static char buf[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* What brings a down port up, and the cause it is: one fix, one cause. */
static void check_down_remedy(const struct rdma_device *d, const struct rdma_port *p,
			      enum action *action, const char **cause, const char **remedy)
{
	char tools[128];

	port_tools(d, p, tools, sizeof(tools));
	*action = ACTION_CABLE;
	*cause = "down";
	switch (p->phys_state) {
	case RDMA_PHYS_POLLING:
		*remedy = remedyf("check the cable and the switch port (%s; the switch's port "
				  "status)",
				  tools);
		return;
	case RDMA_PHYS_DISABLED:
		*action = ACTION_CONFIG;
		*cause = "disabled";
		if (p->link_layer == RDMA_LL_ETHERNET && p->netdev)
			*remedy = remedyf("enable the port: ip link set %s up, or at the switch",
					  p->netdev);
		else
			*remedy =
				remedyf("enable the port: ibportstate -C %s -P %u -D 0 %u enable, "
					"or at the switch",
					d->name, p->num, p->num);
		return;
	case RDMA_PHYS_LINK_UP:
		*action = ACTION_INSPECT;
		*cause = "not-active";
		if (p->link_layer == RDMA_LL_INFINIBAND)
			*remedy = remedyf("check the subnet manager (sminfo -C %s -P %u)", d->name,
					  p->num);
		else if (p->netdev)
			*remedy = remedyf("check the netdev's state (ip link show %s)", p->netdev);
		else
			*remedy = remedyf("check the port's state (%s)", tools);
		return;
	default:
		*remedy = remedyf("check the port (%s) and the switch side", tools);
	}
}

static void state_text(const struct rdma_port *p, struct strbuf *b)
{
	strbuf_printf(b, "%s", rdma_port_state_to_string(p->state));
	if (p->phys_state != RDMA_PHYS_UNKNOWN)
		strbuf_printf(b, "/%s", rdma_phys_state_to_string(p->phys_state));
}

static void expected_text(const struct port_rule *r, struct strbuf *b)
{
	char num[24];

	strbuf_printf(b, "%s", r->allow_down ? "ACTIVE or down (AllowDown=yes)" : "ACTIVE");
	if (r->link_layer != RDMA_LL_UNKNOWN)
		strbuf_printf(b, ", %s", rdma_link_layer_to_string(r->link_layer));
	if (r->min_rate_mbps) {
		rdma_mbps_format(r->min_rate_mbps, num, sizeof(num));
		strbuf_printf(b, ", >= %s Gb/s", num);
	}
	if (r->min_width)
		strbuf_printf(b, ", >= %uX", r->min_width);
	if (r->min_mtu)
		strbuf_printf(b, ", MTU >= %u", r->min_mtu);
	if (r->roce_v2)
		strbuf_printf(b, ", RoCE v2 GID with an IP");
}

static void check_rate(const struct port_rule *r, const struct rdma_device *d,
		       const struct rdma_port *p, struct judgement *j)
{
	char rate[64], want[24], tools[128];

	if (!r->min_rate_mbps && !r->min_width)
		return;
	port_tools(d, p, tools, sizeof(tools));
	if (p->rate_err) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			"see the kernel log for the RDMA driver", "rate unreadable: %s",
			strerror(-p->rate_err));
		return;
	}
	rdma_rate_format(&p->rate, rate, sizeof(rate));
	if (r->min_rate_mbps && p->rate.mbps < r->min_rate_mbps) {
		rdma_mbps_format(r->min_rate_mbps, want, sizeof(want));
		problem(j, VERDICT_FAIL, ACTION_CABLE, "rate",
			remedyf("check the cable/transceiver and the switch port speed (%s)",
				tools),
			"rate %s below MinRate=%s", rate, want);
	}
	if (r->min_width && !p->rate.width)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			remedyf("read the port's Rate and width with %s", tools),
			"width not reported (%s): MinWidth=%uX cannot be judged", rate,
			r->min_width);
	else if (r->min_width && p->rate.width < r->min_width)
		problem(j, VERDICT_FAIL, ACTION_CABLE, "width",
			remedyf("reseat or replace the cable; check the switch port (%s)", tools),
			"width %uX below MinWidth=%uX (%s)", p->rate.width, r->min_width, rate);
}

static void check_mtu(const struct port_rule *r, const struct rdma_port *p, struct judgement *j)
{
	if (!r->min_mtu)
		return;
	if (!p->active_mtu)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			"run hostprep on the host itself (verbs report it)",
			"active MTU unknown (sysfs has none for %s ports without a netdev)",
			rdma_link_layer_to_string(p->link_layer));
	else if (p->active_mtu < r->min_mtu)
		problem(j, VERDICT_FAIL, ACTION_CONFIG, "mtu",
			p->link_layer != RDMA_LL_ETHERNET
				? "raise the subnet's MTU in the subnet manager (partitions.conf)"
			: p->netdev ? remedyf("raise the MTU of %s (ip link set %s mtu 9000) and "
					      "the switch's",
					      p->netdev, p->netdev)
				    : "raise the MTU of the port's netdev and the switch's",
			"active MTU %u below MinMTU=%u", p->active_mtu, r->min_mtu);
}

static bool device_is_erdma(const struct rdma_device *d)
{
	return (d->have_ids && d->vendor == 0x1ded) || strneq(d->name, "erdma", 5);
}

/* An RNIC (iWARP node type) has no RoCE GID at all: name the mode, not a missing address. */
static bool check_iwarp(const struct rdma_device *d, struct judgement *j)
{
	if (d->node_type != RDMA_NODE_RNIC)
		return false;
	if (device_is_erdma(d))
		problem(j, VERDICT_FAIL, ACTION_CONFIG, "iwarp",
			"load erdma in compat mode: options erdma compat_mode=Y (Alibaba's driver; "
			"[Module:erdma] Parameter=compat_mode=Y), then reload it",
			"%s is in erdma standard (iWARP-like) mode (node_type RNIC): no RoCE v2 "
			"GID",
			d->name);
	else
		problem(j, VERDICT_FAIL, ACTION_CONFIG, "iwarp",
			"use a RoCE device for this rule, or RoCEv2=no",
			"%s is an iWARP device (node_type RNIC): no RoCE v2 GID", d->name);
	return true;
}

/*
 * RoCEv2= on an Ethernet port; on one whose link layer could not be read only a RoCE v2
 * GID with an address passes (that GID exists on Ethernet alone): the rest is unknown.
 */
static void check_roce(const struct port_rule *r, const struct rdma_device *d,
		       const struct rdma_port *p, struct judgement *j)
{
	if (!r->roce_v2 || (p->link_layer && p->link_layer != RDMA_LL_ETHERNET))
		return;
	if (!p->link_layer) {
		if (!p->gids_read || !rdma_port_roce_v2_ip_gid(p, false))
			problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
				remedyf("read the port's link_layer (ibstat %s %u)", d->name,
					p->num),
				"link layer unreadable: RoCEv2= cannot be judged");
		return;
	}
	if (check_iwarp(d, j))
		return;
	if (!p->gids_read) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			"check permissions on the port's gids/ and gid_attrs/",
			"GID table unreadable: %s", strerror(-(p->gids_err ? p->gids_err : EIO)));
		return;
	}
	if (!rdma_port_roce_v2_ip_gid(p, false))
		problem(j, VERDICT_FAIL, ACTION_CONFIG, "roce",
			p->netdev
				? remedyf("give %s an address (ip addr add ADDRESS/PREFIX dev %s), "
					  "then check gid_attrs/types",
					  p->netdev, p->netdev)
				: "the port has no netdev to address: check the driver's netdev "
				  "(rdma link show)",
			"no RoCE v2 GID with an IP address: the netdev %s has no IPv4/IPv6 address",
			p->netdev ? p->netdev : "(none found)");
}

static void check_down(const struct port_rule *r, const struct rdma_device *d,
		       const struct rdma_port *p, struct judgement *j)
{
	char waited[64] = "";
	const char *remedy = NULL, *cause = "down";
	enum action action = ACTION_NONE; /* AllowDown=yes: a note, nothing to fix */

	if (p->waited_usec)
		snprintf(waited, sizeof(waited), " (still %s after waiting %llu s)",
			 rdma_phys_state_to_string(p->phys_state),
			 (unsigned long long)((p->waited_usec + 500000) / 1000000));
	if (!r->allow_down)
		check_down_remedy(d, p, &action, &cause, &remedy);
	problem(j, r->allow_down ? VERDICT_WARN : VERDICT_FAIL, action, cause, remedy, "%s%s",
		phys_hint(p), waited);
}

/* The port's own part of rdma_port_judge(). */
static enum rdma_port_judgement port_judge(const struct rdma_port *p)
{
	if (p->err)
		return RDMA_PORT_JUDGED_UNREAD;
	switch (rdma_port_ready(p->state, p->phys_state)) {
	case 1:
		return RDMA_PORT_JUDGED_UP;
	case 0:
		return RDMA_PORT_JUDGED_DOWN;
	default: /* ACTIVE over a physical state that could not be read */
		return RDMA_PORT_JUDGED_UNREAD;
	}
}

enum rdma_port_judgement rdma_port_judge(const struct rdma_device *d, const struct rdma_port *p)
{
	return d->err ? RDMA_PORT_JUDGED_UNREAD : port_judge(p);
}

/* Down, and so worth waiting for: neither up nor beyond reading. */
static bool port_down(const struct rdma_port *p)
{
	return port_judge(p) == RDMA_PORT_JUDGED_DOWN;
}

static void judge_port(const struct port_rule *r, const struct rdma_device *d,
		       const struct rdma_port *p, struct judgement *j)
{
	if (d->err || p->err) {
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			"check that the device is still there (rdma link) and readable",
			"%s unreadable: %s", d->err ? "device" : p->err_what,
			strerror(-(d->err ? d->err : p->err)));
		return;
	}
	if (r->select_layer && !p->link_layer)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			remedyf("read the port's link_layer (ibstat %s %u)", d->name, p->num),
			"link layer unreadable: SelectLinkLayer=%s cannot tell whether the rule "
			"selects this port",
			rdma_link_layer_to_string(r->select_layer));
	if (r->link_layer != RDMA_LL_UNKNOWN && !p->link_layer)
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			remedyf("read the port's link_layer (ibstat %s %u)", d->name, p->num),
			"link layer unreadable, the rule wants %s",
			rdma_link_layer_to_string(r->link_layer));
	else if (r->link_layer != RDMA_LL_UNKNOWN && p->link_layer != r->link_layer)
		problem(j, VERDICT_FAIL, ACTION_CONFIG, "link-layer",
			remedyf("set the port's link type (mlxconfig LINK_TYPE_P%u) or fix the "
				"rule",
				p->num),
			"link layer %s, the rule wants %s",
			rdma_link_layer_to_string(p->link_layer),
			rdma_link_layer_to_string(r->link_layer));
	switch (rdma_port_judge(d, p)) {
	case RDMA_PORT_JUDGED_UNREAD:
		problem(j, VERDICT_UNKNOWN, ACTION_INSPECT, "unreadable",
			remedyf("read the port with ibstat %s %u; check ports/%u/phys_state",
				d->name, p->num, p->num),
			"physical state unreadable: ACTIVE alone does not say the link is up");
		return;
	case RDMA_PORT_JUDGED_DOWN:
		check_down(r, d, p, j);
		return;
	case RDMA_PORT_JUDGED_UP:
		break;
	}
	check_rate(r, d, p, j);
	check_mtu(r, p, j);
	check_roce(r, d, p, j);
}

static void port_summary(const struct rdma_device *d, const struct rdma_port *p, struct strbuf *b)
{
	char rate[64];

	if (d->err || p->err)
		return;
	if (!p->rate_err) {
		rdma_rate_format(&p->rate, rate, sizeof(rate));
		strbuf_printf(b, ", %s", rate);
	}
	strbuf_printf(b, ", %s", rdma_link_layer_to_string(p->link_layer));
	if (p->active_mtu)
		strbuf_printf(b, ", MTU %u", p->active_mtu);
	if (p->netdev)
		strbuf_printf(b, ", netdev %s%s%s", p->netdev, p->bond ? " in " : "",
			      strempty(p->bond));
}

static int add_port_result(const struct port_rule *r, const struct rdma_device *d,
			   const struct rdma_port *p, struct results *rs)
{
	struct judgement j = {};
	struct strbuf exp = {}, act = {};
	_cleanup_(freep) char *e = NULL, *a = NULL;
	char object[96];
	int ret;

	judge_port(r, d, p, &j);
	expected_text(r, &exp);
	strbuf_printf(&act, "%s port %u: ", d->name, p->num);
	if (d->err || p->err)
		strbuf_printf(&act, "unknown");
	else
		state_text(p, &act);
	if (j.problems.s)
		strbuf_printf(&act, " — %s", j.problems.s);
	else
		port_summary(d, p, &act);
	strbuf_printf(&act, " [%s]", rdma_source_to_string(d->source));
	free(j.problems.s);
	if (strbuf_take(&exp, &e) < 0 || strbuf_take(&act, &a) < 0)
		return -ENOMEM;
	snprintf(object, sizeof(object), "%s/%u", d->name, p->num);
	ret = results_add(rs, &(const struct result_spec){
				      .verdict = j.v,
				      .check = "rdma.port",
				      .object = object,
				      .expected = e,
				      .actual = a,
				      .remedy = j.remedy,
				      .action = j.action,
				      .cause = j.cause,
			      });
	return ret;
}

/* ---- one rule ---- */

struct tally {
	unsigned selected, active, unknown;
	struct strbuf down;
};

static void tally_port(struct tally *t, const struct rdma_device *d, const struct rdma_port *p)
{
	t->selected++;
	switch (rdma_port_judge(d, p)) {
	case RDMA_PORT_JUDGED_UNREAD:
		t->unknown++;
		break;
	case RDMA_PORT_JUDGED_UP:
		t->active++;
		break;
	case RDMA_PORT_JUDGED_DOWN:
		strbuf_printf(&t->down, "%s%s/%u", t->down.s ? ", " : "", d->name, p->num);
		break;
	}
}

/* A selected device whose ports could not be listed: one unknown, counted as a port. */
static int device_unread(const struct rdma_device *d, struct results *rs, struct tally *t)
{
	char why[64];

	t->selected++;
	t->unknown++;
	if (d->err == -E2BIG)
		snprintf(why, sizeof(why), "more than %d ports", RDMA_MAX_PORTS);
	else
		snprintf(why, sizeof(why), "%s", strerror(-d->err));
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_UNKNOWN,
				    .check = "rdma.port",
				    .object = d->name,
				    .expected = "its ports readable",
				    .remedy =
					    "check that the device is still there (rdma link) and "
					    "readable",
				    .action = ACTION_INSPECT,
				    .cause = "unreadable",
			    },
			    "%s: ports unreadable: %s", d->name, why);
}

/* The ports of one selected device the rule selects: a result each, counted. */
static int device_ports(const struct port_rule *r, const struct rdma_device *d, struct results *rs,
			struct tally *t)
{
	if (d->err)
		return device_unread(d, rs, t);
	for (size_t k = 0; k < d->n_ports; k++) {
		int ret;

		if (!port_rule_selects_port(r, &d->ports[k]))
			continue;
		tally_port(t, d, &d->ports[k]);
		ret = add_port_result(r, d, &d->ports[k], rs);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int rule_ports(const struct rdma_run *rr, const struct port_rule *r, struct results *rs,
		      struct tally *t)
{
	int ret = 0;

	for (size_t i = 0; ret >= 0 && i < rr->inv.n_devs; i++)
		if (port_rule_selects_device(r, &rr->inv.devs[i]))
			ret = device_ports(r, &rr->inv.devs[i], rs, t);
	return ret;
}

static int device_list(const struct rdma_inventory *inv, char **ret)
{
	struct strbuf b = {};

	if (!inv->n_devs)
		return asprintf(ret, "no RDMA device on this host: load the driver (mlx5_ib, "
				     "erdma, rdma_rxe) or fix Select=") < 0
			       ? -ENOMEM
			       : 0;
	strbuf_printf(&b, "RDMA devices here:");
	for (size_t i = 0; i < inv->n_devs; i++)
		strbuf_printf(&b, " %s%s%s%s", inv->devs[i].name, inv->devs[i].pci ? " (pci:" : "",
			      strempty(inv->devs[i].pci), inv->devs[i].pci ? ")" : "");
	strbuf_printf(&b, "; fix Select=/Exclude=/Ports=");
	return strbuf_take(&b, ret);
}

static int rule_empty(const struct rdma_run *rr, const struct port_rule *r, struct results *rs)
{
	_cleanup_(freep) char *remedy = NULL;
	char object[sizeof(PORT_PREFIX) + PORT_NAME_MAX];

	snprintf(object, sizeof(object), PORT_PREFIX "%s", r->name);
	if (rr->inv.err)
		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_UNKNOWN,
				.check = "rdma.rule",
				.object = object,
				.expected = "selects a port",
				.remedy = "check permissions on the RDMA class directory",
				.action = ACTION_INSPECT,
			},
			"RDMA devices unreadable: %s", strerror(-rr->inv.err));
	if (device_list(&rr->inv, &remedy) < 0)
		return -ENOMEM;
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_FAIL,
				       .check = "rdma.rule",
				       .object = object,
				       .expected = "selects a port",
				       .actual = "selects no RDMA port",
				       .remedy = remedy,
				       .action = ACTION_CABLE,
			       });
}

static int rule_tally(const struct port_rule *r, const struct tally *t, struct results *rs)
{
	char object[sizeof(PORT_PREFIX) + PORT_NAME_MAX], expected[64];
	enum verdict v = VERDICT_PASS;

	if (!r->min_active)
		return 0;
	snprintf(object, sizeof(object), PORT_PREFIX "%s", r->name);
	snprintf(expected, sizeof(expected), "at least %u active (MinActive=)", r->min_active);
	if (t->active < r->min_active)
		v = t->active + t->unknown >= r->min_active ? VERDICT_UNKNOWN : VERDICT_FAIL;
	return results_addf(
		rs,
		&(const struct result_spec){
			.verdict = v,
			.check = "rdma.ports",
			.object = object,
			.expected = expected,
			.remedy = v == VERDICT_PASS
					  ? NULL
					  : "bring the down ports up (see the rdma.port lines)",
			.action = ACTION_CABLE,
		},
		"%u of %u selected ports active%s%s%s", t->active, t->selected,
		t->down.s ? " (down: " : "", strempty(t->down.s), t->down.s ? ")" : "");
}

/* ---- firmware ---- */

static void fw_expected(const struct port_rule *r, struct strbuf *b)
{
	if (r->min_fw[0])
		strbuf_printf(b, "firmware >= %s", r->min_fw);
	for (size_t i = 0; i < r->n_fw; i++)
		strbuf_printf(b, "%s%s",
			      i	     ? ", "
			      : b->s ? "; one of "
				     : "firmware one of ",
			      r->fw[i]);
}

/* The device's firmware against MinFirmware= and Firmware=: pass, fail, or unknown. */
static enum verdict fw_verdict(const struct port_rule *r, const struct rdma_device *d,
			       const char **why)
{
	bool listed = !r->n_fw;
	int cmp = 0;

	*why = NULL;
	if (!d->fw_ver)
		return *why = "fw_ver unreadable", VERDICT_UNKNOWN;
	for (size_t i = 0; i < r->n_fw; i++)
		listed |= streq(r->fw[i], d->fw_ver);
	if (r->min_fw[0] &&
	    (!rdma_fw_valid(d->fw_ver) || rdma_fw_compare(d->fw_ver, r->min_fw, &cmp) < 0))
		return *why = "not a version of numbers and dots", VERDICT_UNKNOWN;
	if (cmp < 0)
		return *why = "older than MinFirmware=", VERDICT_FAIL;
	if (!listed)
		return *why = "not one of Firmware=", VERDICT_FAIL;
	return VERDICT_PASS;
}

static int device_firmware(const struct port_rule *r, const struct rdma_device *d,
			   struct results *rs)
{
	_cleanup_(strbuf_done) struct strbuf exp = {};
	char remedy[192];
	const char *why;
	enum verdict v = fw_verdict(r, d, &why);

	fw_expected(r, &exp);
	if (exp.oom)
		return -ENOMEM;
	snprintf(remedy, sizeof(remedy),
		 "update the adapter's firmware (mlxfwmanager -d %s --online -u on NVIDIA "
		 "adapters), then reset it or reboot",
		 d->pci ? d->pci : d->name);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = v,
				    .check = "rdma.firmware",
				    .object = d->name,
				    .expected = exp.s,
				    .remedy = v == VERDICT_FAIL	     ? remedy
					      : v == VERDICT_UNKNOWN ? "read fw_ver of the device "
								       "(ibstat, ibv_devinfo)"
								     : NULL,
				    .action = v == VERDICT_UNKNOWN ? ACTION_INSPECT : ACTION_DRIVER,
				    .cause = v == VERDICT_PASS ? NULL : "firmware",
			    },
			    "%s: firmware %s, board %s%s%s", d->name, d->fw_ver ? d->fw_ver : "?",
			    d->board_id ? d->board_id : "unknown", why ? " — " : "",
			    why ? why : "");
}

/* One rdma.firmware per device the rule selects, when it names a firmware. */
static int rule_firmware(const struct rdma_run *rr, const struct port_rule *r, struct results *rs)
{
	int ret = 0;

	if (!r->min_fw[0] && !r->n_fw)
		return 0;
	for (size_t i = 0; ret >= 0 && i < rr->inv.n_devs; i++)
		if (!rr->inv.devs[i].err && port_rule_selects_device(r, &rr->inv.devs[i]))
			ret = device_firmware(r, &rr->inv.devs[i], rs);
	return ret;
}

int rdma_run_check(const struct rdma_run *rr, struct results *rs)
{
	int r = 0;

	for (size_t i = 0; rr->pc && r >= 0 && i < rr->pc->n_rules; i++) {
		const struct port_rule *rule = &rr->pc->rules[i];
		struct tally t = {};

		r = rule_ports(rr, rule, rs, &t);
		if (r >= 0 && !t.selected)
			r = rule_empty(rr, rule, rs);
		else if (r >= 0)
			r = rule_tally(rule, &t, rs);
		if (r >= 0)
			r = rule_firmware(rr, rule, rs);
		free(t.down.s);
	}
	return r;
}

/* ---- wait ---- */

/* A port is waited for when a rule that selects it does not allow it to be down. */
static bool port_awaited(const struct port_config *pc, const struct rdma_device *d,
			 const struct rdma_port *p)
{
	for (size_t i = 0; pc && i < pc->n_rules; i++)
		if (!pc->rules[i].allow_down && port_rule_selects_device(&pc->rules[i], d) &&
		    port_rule_selects_port(&pc->rules[i], p))
			return true;
	return false;
}

static uint64_t realtime_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static int parse_count(const char *s, uint64_t *ret)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EBADMSG;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -EBADMSG : 0;
}

/*
 * Re-read one port the wait is for, up or down (one that was up may go down again: a
 * flap), and its link_downed; 1 when it is down.
 */
static int wait_port(const struct rdma_run *rr, const struct rdma_device *d, struct rdma_port *p,
		     uint64_t mono, uint64_t real)
{
	_cleanup_(freep) char *downed = NULL;
	struct rdma_wait_sample s = { .mono = mono, .real = real };
	enum rdma_port_judgement j = port_judge(p);
	int r;

	if ((j != RDMA_PORT_JUDGED_UP && j != RDMA_PORT_JUDGED_DOWN) || !port_awaited(rr->pc, d, p))
		return 0;
	r = rdma_port_reread_state(rr->root, d->name, p);
	if (r < 0)
		return r;
	r = sysroot_read_attr(rr->root, SYSROOT_SYS, &downed,
			      "class/infiniband/%s/ports/%u/counters/link_downed", d->name, p->num);
	if (r == -ENOMEM)
		return r;
	s.downed_err = r < 0 ? r : parse_count(downed, &s.downed);
	s.active = port_judge(p) == RDMA_PORT_JUDGED_UP;
	rdma_wait_observe(&p->wait_flap, &s);
	return port_down(p); /* gone: waiting will not help; up: done */
}

int rdma_wait_ready(void *userdata, char **status)
{
	struct rdma_run *rr = userdata;
	uint64_t mono = linkwait_now_usec(), real = realtime_usec();
	struct strbuf b = {};
	int r;

	*status = NULL;
	if (!rr->wait_began_mono) {
		rr->wait_began_mono = mono;
		rr->wait_began_real = real;
	}
	for (size_t i = 0; i < rr->inv.n_devs; i++) {
		struct rdma_device *d = &rr->inv.devs[i];

		for (size_t k = 0; !d->err && k < d->n_ports; k++) {
			struct rdma_port *p = &d->ports[k];

			r = wait_port(rr, d, p, mono, real);
			if (r < 0) {
				strbuf_done(&b);
				return r;
			}
			if (r == 0)
				continue;
			strbuf_printf(&b, "%s%s/%u (%s)", b.s ? ", " : "", d->name, p->num,
				      p->phys_state ? rdma_phys_state_to_string(p->phys_state)
						    : rdma_port_state_to_string(p->state));
		}
	}
	if (!b.s && !b.oom)
		return 1;
	return strbuf_take(&b, status) < 0 ? -ENOMEM : 0;
}

int rdma_wait_devices(const struct rdma_run *rr, char ***ret)
{
	char **v = calloc(rr->inv.n_devs + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rr->inv.n_devs; i++) {
		const struct rdma_device *d = &rr->inv.devs[i];
		bool waiting = false;

		for (size_t k = 0; !d->err && k < d->n_ports; k++)
			waiting |= port_down(&d->ports[k]) && port_awaited(rr->pc, d, &d->ports[k]);
		if (waiting && !(v[n++] = strdup(d->name))) {
			strv_free(v);
			return -ENOMEM;
		}
	}
	*ret = v;
	return 0;
}

static bool device_awaited(const struct rdma_device *d, void *userdata)
{
	for (size_t k = 0; k < d->n_ports; k++)
		if (port_awaited(userdata, d, &d->ports[k]))
			return true;
	return false;
}

static bool device_selected(const struct rdma_device *d, void *userdata)
{
	return rdma_rules_select_device(userdata, d);
}

int rdma_wait_done(struct rdma_run *rr, uint64_t waited_usec, bool timed_out)
{
	for (size_t i = 0; timed_out && i < rr->inv.n_devs; i++)
		for (size_t k = 0; k < rr->inv.devs[i].n_ports; k++) {
			struct rdma_port *p = &rr->inv.devs[i].ports[k];

			if (port_down(p) && port_awaited(rr->pc, &rr->inv.devs[i], p))
				p->waited_usec = waited_usec;
		}
	if (timed_out)
		rr->waited_usec = waited_usec;
	/* verbs on the live host only, as the view read them (src/rdma/rdma-run.c) */
	return rdma_rescan_ports(rr->root, &rr->inv, device_awaited,
				 sysroot_is_host(rr->root) ? device_selected : NULL,
				 (void *)rr->pc);
}

/* ---- environment ---- */

struct env {
	struct strbuf hca, ucx, ifname, gid_note;
	struct strbuf noaddr;	/* netdevs left out of NCCL_SOCKET_IFNAME: no IP address */
	struct strbuf hcoll;	/* the first passing port, for HCOLL_MAIN_IB */
	struct strbuf admin;	/* SocketInterface= of the Env=yes rules */
	const char *admin_rule; /* the first rule that gave one */
	const struct rdma_addrs *addrs;
	int gid_index; /* -1 none yet, -2 differs or missing */
	bool roce;
	bool unchecked;	 /* a netdev listed without its addresses read */
	unsigned unsafe; /* names left out: they could not be written safely */
	bool quiet;	 /* the rdma.hcoll result's pass: rdma.env's writer warns */
};

/* What rdma.env says of HCOLL: off and why, or on, with multicast off and why, or not. */
struct hcoll {
	bool off, mcast_off;
	char why[192];
};

/*
 * A name goes into rdma.env only when it is made of [A-Za-z0-9_.:-]: the file is read by
 * sh (`. rdma.env`), systemd EnvironmentFile= and docker --env-file, and docker takes a
 * value literally (no quotes, no escapes), so no quoting can make another byte safe for
 * all three. Kernel names may hold any byte but '/' and whitespace.
 */
static bool env_name_safe(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				     "0123456789_.:-") == n;
}

static bool env_name_ok(struct env *e, const char *what, const char *name)
{
	if (env_name_safe(name))
		return true;
	e->unsafe++;
	if (e->quiet)
		return false;
	/* log_internal escapes the message: the name is shown as \xNN, never raw */
	log_warning("rdma.env: %s '%s' left out: only names of A-Z a-z 0-9 _ . : - are written",
		    what, name);
	return false;
}

/* The rule's verdict for this port, as the rdma.port result gives it. */
static enum verdict port_verdict(const struct port_rule *r, const struct rdma_device *d,
				 const struct rdma_port *p)
{
	struct judgement j = {};

	judge_port(r, d, p, &j);
	free(j.problems.s);
	return j.v;
}

/* A port feeds rdma.env when an Env=yes rule selects it and every such rule passes it. */
static bool port_in_env(const struct port_config *pc, const struct rdma_device *d,
			const struct rdma_port *p)
{
	bool any = false;

	for (size_t i = 0; pc && i < pc->n_rules; i++) {
		const struct port_rule *r = &pc->rules[i];

		if (!r->env || !port_rule_selects_device(r, d) || !port_rule_selects_port(r, p))
			continue;
		if (port_verdict(r, d, p) != VERDICT_PASS)
			return false;
		any = true;
	}
	return any;
}

/* Append name to the comma-separated list b unless it is there already. */
static void list_add(struct strbuf *b, const char *name)
{
	if (b->s) {
		size_t n = strlen(name);

		for (const char *s = b->s; (s = strstr(s, name)); s += n)
			if ((s == b->s || s[-1] == ',') && (s[n] == ',' || !s[n]))
				return;
	}
	strbuf_printf(b, "%s%s", b->s ? "," : "", name);
}

/*
 * NCCL's bootstrap binds a socket to an address of each NCCL_SOCKET_IFNAME interface: one
 * without an IP address (an IPoIB or RoCE netdev nobody configured) makes it fail or take
 * another fabric, so only netdevs with an address are listed. Addresses not read (under
 * --root without a record): listed as before, and rdma.env says so.
 */
static void add_ifname(struct env *e, const char *name)
{
	if (!env_name_ok(e, "netdev", name))
		return;
	if (e->addrs->text && !rdma_addrs_has(e->addrs, name)) {
		list_add(&e->noaddr, name);
		return;
	}
	e->unchecked |= !e->addrs->text;
	list_add(&e->ifname, name);
}

static void env_roce(struct env *e, const struct rdma_device *d, const struct rdma_port *p)
{
	const struct rdma_gid *g = rdma_port_roce_v2_ip_gid(p, true);

	e->roce = true;
	if (p->bond || p->netdev)
		add_ifname(e, p->bond ? p->bond : p->netdev);
	if (!g) {
		strbuf_printf(&e->gid_note, "%s%s/%u has no RoCE v2 IPv4 GID",
			      e->gid_note.s ? "; " : "", d->name, p->num);
		e->gid_index = -2;
		return;
	}
	strbuf_printf(&e->gid_note, "%s%s/%u: %u", e->gid_note.s ? ", " : "", d->name, p->num,
		      g->index);
	if (e->gid_index == -1)
		e->gid_index = (int)g->index;
	else if (e->gid_index != (int)g->index)
		e->gid_index = -2;
}

static void env_port(struct env *e, const struct rdma_device *d, const struct rdma_port *p)
{
	if (!env_name_ok(e, "RDMA device", d->name))
		return;
	strbuf_printf(&e->hca, "%s%s:%u", e->hca.s ? "," : "=", d->name, p->num);
	strbuf_printf(&e->ucx, "%s%s:%u", e->ucx.s ? "," : "", d->name, p->num);
	if (!e->hcoll.s)
		strbuf_printf(&e->hcoll, "%s:%u", d->name, p->num);
	if (p->link_layer == RDMA_LL_ETHERNET)
		env_roce(e, d, p);
	else if (p->netdev && p->netdev_up)
		add_ifname(e, p->netdev); /* IPoIB: only when it is up */
}

/* NCCL matches a bare name as a prefix (ib1 is ib10 too); a leading '=' is exact. */
static void env_socket(const struct env *e, struct strbuf *b)
{
	if (e->admin.s) {
		strbuf_printf(b, "# NCCL_SOCKET_IFNAME from SocketInterface= of [Port:%s]\n",
			      e->admin_rule);
		strbuf_printf(b, "NCCL_SOCKET_IFNAME==%s\n", e->admin.s);
		return;
	}
	if (e->ifname.s)
		strbuf_printf(b, "NCCL_SOCKET_IFNAME==%s\n", e->ifname.s);
	if (e->noaddr.s)
		strbuf_printf(b,
			      "# NCCL_SOCKET_IFNAME leaves out %s: no IP address (NCCL's "
			      "bootstrap binds one)\n",
			      e->noaddr.s);
	if (e->unchecked)
		strbuf_printf(b,
			      "# NCCL_SOCKET_IFNAME: IP addresses not read (%s): the netdevs "
			      "that are up\n",
			      e->addrs->why);
}

static void env_body(const struct env *e, const struct hcoll *h, struct strbuf *b)
{
	if (e->hca.s)
		strbuf_printf(b, "NCCL_IB_HCA=%s\nUCX_NET_DEVICES=%s\n", e->hca.s, e->ucx.s);
	else
		strbuf_printf(b, "# NCCL_IB_HCA and UCX_NET_DEVICES not set: no selected port is "
				 "ACTIVE and passes its rule\n");
	env_socket(e, b);
	if (e->roce && e->gid_index >= 0)
		strbuf_printf(b, "NCCL_IB_GID_INDEX=%d\n", e->gid_index);
	else if (e->roce)
		strbuf_printf(b,
			      "# NCCL_IB_GID_INDEX not set: no one RoCE v2 IPv4 GID index for all "
			      "ports (%s)\n",
			      strempty(e->gid_note.s));
	if (e->unsafe)
		strbuf_printf(
			b,
			"# %u name(s) left out: characters outside A-Z a-z 0-9 _ . : - (see the "
			"warning on stderr or in the journal)\n",
			e->unsafe);
	if (h->off) {
		strbuf_printf(b, "# HCOLL off: %s\nOMPI_MCA_coll_hcoll_enable=0\n", h->why);
		return;
	}
	strbuf_printf(b, "HCOLL_MAIN_IB=%s\n", e->hcoll.s);
	if (h->mcast_off)
		strbuf_printf(b, "# HCOLL multicast off: %s\nHCOLL_ENABLE_MCAST_ALL=0\n", h->why);
}

/* SocketInterface= of every Env=yes rule, in rule order: the admin's choice wins. */
static void env_admin(const struct port_config *pc, struct env *e)
{
	for (size_t i = 0; pc && i < pc->n_rules; i++) {
		const struct port_rule *r = &pc->rules[i];
		_cleanup_(freep) char *copy = NULL;
		char *save = NULL;

		if (!r->env || !r->socket_if[0])
			continue;
		copy = strdup(r->socket_if);
		if (!copy) {
			e->admin.oom = true;
			return;
		}
		e->admin_rule = e->admin_rule ? e->admin_rule : r->name;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
			list_add(&e->admin, w);
	}
}

/*
 * Whether the root's /dev/infiniband has a node named name (prefix: a name that begins
 * with it, umad0 for "umad"): 1, 0, or -errno.
 */
static int has_ib_node(const struct sysroot *root, const char *name, bool prefix)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	int r = sysroot_opendir(root, SYSROOT_DEV, &d, "infiniband");

	if (r < 0)
		return r;
	while ((de = readdir(d)))
		if (prefix ? strneq(de->d_name, name, strlen(name)) : streq(de->d_name, name))
			return 1;
	return 0;
}

/* The first Env=yes rule that says HCOLL=no, or NULL. */
static const char *hcoll_admin_off(const struct port_config *pc)
{
	for (size_t i = 0; pc && i < pc->n_rules; i++)
		if (pc->rules[i].env && !pc->rules[i].hcoll)
			return pc->rules[i].name;
	return NULL;
}

/*
 * Why a node HCOLL needs is not there (has_ib_node()'s r: 0 or -ENOENT none, else the
 * folder could not be read): 1 and the reason, -ENOMEM. The folder as the host names it
 * (the root's owner spells it).
 */
static int ib_node_why(int r, const char *node, const char *because, char *why, size_t n)
{
	_cleanup_(freep) char *dir =
		sysroot_path(&(struct sysroot){ .dir = (char *)"" }, SYSROOT_DEV, "infiniband");

	if (!dir)
		return -ENOMEM;
	if (r == 0 || r == -ENOENT)
		snprintf(why, n, "no %s/%s node (%s)", dir, node, because);
	else
		snprintf(why, n, "%s unreadable (%s)", dir, strerror(-r));
	return 1;
}

/*
 * Open MPI's HCOLL picks its own IB port and opens a umad node to find it: in a pod without
 * them (or without multicast) an MPIJob hangs at start. Off where the host cannot serve it
 * or an Env=yes rule says HCOLL=no; else it gets the first passing port, as NCCL does.
 * The reason (static or from strerror: nothing of the host's own naming but rule names).
 */
static int hcoll_off(const struct rdma_run *rr, const struct env *e, char *why, size_t n)
{
	const char *rule = hcoll_admin_off(rr->pc);
	int r;

	if (rule) {
		snprintf(why, n, "[Port:%s] HCOLL=no", rule);
		return 1;
	}
	if (!e->hcoll.s) {
		snprintf(why, n, "no selected port is ACTIVE and passes its rule");
		return 1;
	}
	r = has_ib_node(rr->root, "umad", true);
	if (r > 0)
		return 0;
	return ib_node_why(r, "umad*",
			   "HCOLL opens one to find its port; a pod needs them passed in", why, n);
}

/*
 * HCOLL on: its multicast collectives join IB multicast groups through librdmacm, which
 * opens the rdma_cm node; where there is none (a pod given uverbs and umad only) they fail
 * at the job's first collective, so rdma.env turns multicast off and HCOLL keeps its port.
 * 1 and the reason (as hcoll_off() gives it), 0: multicast left to HCOLL, -ENOMEM.
 */
static int hcoll_mcast_off(const struct sysroot *root, char *why, size_t n)
{
	int r = has_ib_node(root, "rdma_cm", false);

	if (r > 0)
		return 0;
	return ib_node_why(r, "rdma_cm",
			   "HCOLL's multicast joins its groups through librdmacm; a pod needs it "
			   "passed in",
			   why, n);
}

static int hcoll_decide(const struct rdma_run *rr, const struct env *e, struct hcoll *h)
{
	int r = hcoll_off(rr, e, h->why, sizeof(h->why));

	if (r < 0)
		return r;
	h->off = r > 0;
	if (h->off)
		return 0;
	r = hcoll_mcast_off(rr->root, h->why, sizeof(h->why));
	h->mcast_off = r > 0;
	return r < 0 ? r : 0;
}

static void env_free(struct env *e)
{
	strbuf_done(&e->hca);
	strbuf_done(&e->ucx);
	strbuf_done(&e->ifname);
	strbuf_done(&e->gid_note);
	strbuf_done(&e->noaddr);
	strbuf_done(&e->hcoll);
	strbuf_done(&e->admin);
}

int rdma_env_format(const struct rdma_run *rr, char **ret)
{
	_cleanup_(rdma_addrs_free) struct rdma_addrs addrs = {};
	struct env e = { .gid_index = -1, .addrs = &addrs };
	struct sysroot host = { .dir = (char *)"" };
	_cleanup_(freep) char *where = sysroot_path(&host, SYSROOT_RUN, "hostprep/rdma.env");
	_cleanup_(freep) char *p2p = sysroot_path(&host, SYSROOT_RUN, "hostprep/p2p.env");
	struct strbuf b = {};
	struct hcoll h = {};
	int r;

	if (!where || !p2p)
		return -ENOMEM;
	r = rdma_addrs_read(rr->root, &addrs);
	if (r < 0)
		return r;
	env_admin(rr->pc, &e);
	for (size_t i = 0; i < rr->inv.n_devs; i++) {
		const struct rdma_device *d = &rr->inv.devs[i];

		for (size_t k = 0; !d->err && k < d->n_ports; k++)
			if (port_in_env(rr->pc, d, &d->ports[k]))
				env_port(&e, d, &d->ports[k]);
	}
	strbuf_printf(&b,
		      "# RDMA environment for NCCL and UCX, written by hostprep from the live "
		      "state of the\n"
		      "# ports its [Port:*] rules select: only ports that pass their rule are "
		      "listed, and\n"
		      "# none of a rule with Env=no. Rewritten by every 'hostprep check' and "
		      "'hostprep apply';\n"
		      "# 'hostprep env' prints it live. Values are never quoted (docker takes them "
		      "literally).\n"
		      "# systemd: EnvironmentFile=-%s\n"
		      "# docker:  docker run --env-file %s ...\n"
		      "# GPU peer-to-peer facts (the pairs redirected to the root complex, the "
		      "pairs NVLink\n"
		      "# joins) are in the file HOSTPREP_P2P_ENV names, written by the runs that "
		      "publish\n"
		      "# ('hostprep apply' at boot; no file: not known). docs/p2p-schema.md.\n"
		      "HOSTPREP_P2P_ENV=%s\n",
		      where, where, p2p);
	r = hcoll_decide(rr, &e, &h);
	if (r >= 0)
		env_body(&e, &h, &b);
	r = r < 0 || e.admin.oom ? -ENOMEM : 0;
	env_free(&e);
	if (r < 0) {
		strbuf_done(&b);
		return r;
	}
	return strbuf_take(&b, ret);
}

/* Whether any rule writes rdma.env (Env=yes, the default, and a rule at all). */
static bool env_wanted(const struct port_config *pc)
{
	for (size_t i = 0; pc && i < pc->n_rules; i++)
		if (pc->rules[i].env)
			return true;
	return false;
}

static int hcoll_add(struct results *rs, const char *actual)
{
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_PASS,
				       .check = "rdma.hcoll",
				       .object = "host",
				       .expected = "HCOLL on a port",
				       .actual = actual,
				       .action = ACTION_NONE,
			       });
}

/*
 * rdma.hcoll: what rdma.env says of Open MPI's HCOLL, and why, in the report (issue 27
 * §9: an MPIJob hangs at start where HCOLL cannot find its port). A pass whether on (its
 * port, and "multicast off" with the reason where no rdma_cm node serves HCOLL's multicast)
 * or off (HCOLL=no, or no umad node): rdma.env turns off what the host or pod cannot serve,
 * so a job that sources it does not hang; a warning on every host without ib_umad or
 * rdma_ucm loaded would be noise. Nothing when no rule writes rdma.env or no port
 * passes (rdma.port says why).
 */
int rdma_hcoll_result(const struct rdma_run *rr, struct results *rs)
{
	static const struct rdma_addrs none = {};
	struct env e = { .gid_index = -1, .addrs = &none, .quiet = true };
	const char *rule = hcoll_admin_off(rr->pc);
	char actual[320] = "";
	struct hcoll h = {};
	int r = 0;

	if (!env_wanted(rr->pc))
		return 0;
	if (rule) {
		snprintf(actual, sizeof(actual), "off: [Port:%s] HCOLL=no", rule);
		return hcoll_add(rs, actual);
	}
	for (size_t i = 0; i < rr->inv.n_devs; i++) {
		const struct rdma_device *d = &rr->inv.devs[i];

		for (size_t k = 0; !d->err && k < d->n_ports; k++)
			if (port_in_env(rr->pc, d, &d->ports[k]))
				env_port(&e, d, &d->ports[k]);
	}
	if (e.hcoll.s) {
		r = hcoll_decide(rr, &e, &h);
		if (h.off)
			snprintf(actual, sizeof(actual), "off: %s", h.why);
		else
			snprintf(actual, sizeof(actual), "on: HCOLL_MAIN_IB=%s%s%s", e.hcoll.s,
				 h.mcast_off ? ", multicast off: " : "", h.mcast_off ? h.why : "");
	}
	env_free(&e);
	if (r < 0 || !actual[0])
		return r; /* no passing port: nothing said here */
	return hcoll_add(rs, actual);
}
