// SPDX-License-Identifier: GPL-2.0-or-later
#include <sys/stat.h>

#include "bond/bond-scan.h"
#include "core/fileio.h"
#include "pci/selector.h"

#define LAG_GID_SLOTS_MAX 256 /* a port's GID table: ndevs/0..N-1, 255 on mlx5 */
#define LAG_PORTS_MAX	  8

/* The basename of a sysfs link's target when it is a PCI address (VMD's 10000:01:00.0 too). */
static int read_pci_link(const struct sysroot *root, const char *class, const char *name,
			 char out[BOND_PCI_MAX + 1])
{
	char target[512];
	const char *base;
	int n;

	out[0] = '\0';
	n = sysroot_readlink(root, SYSROOT_SYS, target, sizeof(target), "class/%s/%s/device", class,
			     name);
	if (n < 0)
		return n;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) > BOND_PCI_MAX || !pci_address_is_kernel(base))
		return -EINVAL;
	strcpy(out, base);
	return 0;
}

/* ---- one slave ----------------------------------------------------------- */

static void scan_slave(const struct sysroot *root, struct bond_slave_seen *s)
{
	_cleanup_(freep) char *mii = NULL, *state = NULL, *fail = NULL, *agg = NULL, *actor = NULL,
			      *partner = NULL;
	const char *n = s->name;

	s->mii_err = sysroot_read_attr(root, SYSROOT_SYS, &mii,
				       "class/net/%s/bonding_slave/mii_status", n);
	if (s->mii_err == -ENOENT &&
	    sysroot_read_attr(root, SYSROOT_SYS, &state, "class/net/%s/ifindex", n) == -ENOENT)
		s->err = -ENOENT;
	free(state);
	state = NULL;
	if (!s->mii_err)
		s->mii_err = bond_parse_mii(mii, &s->mii);
	s->state_err =
		sysroot_read_attr(root, SYSROOT_SYS, &state, "class/net/%s/bonding_slave/state", n);
	if (!s->state_err)
		s->state_err = bond_parse_slave_state(state, &s->state);
	s->failures_err = sysroot_read_attr(root, SYSROOT_SYS, &fail,
					    "class/net/%s/bonding_slave/link_failure_count", n);
	if (!s->failures_err)
		s->failures_err = bond_parse_uint(fail, &s->link_failures);
	s->agg_err = sysroot_read_attr(root, SYSROOT_SYS, &agg,
				       "class/net/%s/bonding_slave/ad_aggregator_id", n);
	if (!s->agg_err)
		s->agg_err = bond_parse_uint_na(agg, &s->aggregator);
	s->actor_err = sysroot_read_attr(root, SYSROOT_SYS, &actor,
					 "class/net/%s/bonding_slave/ad_actor_oper_port_state", n);
	if (!s->actor_err)
		s->actor_err = bond_parse_port_state(actor, &s->actor_state);
	s->partner_state_err =
		sysroot_read_attr(root, SYSROOT_SYS, &partner,
				  "class/net/%s/bonding_slave/ad_partner_oper_port_state", n);
	if (!s->partner_state_err)
		s->partner_state_err = bond_parse_port_state(partner, &s->partner_state);
	/* A virtual or vanished slave has no PCI function: "" is all the LAG check needs. */
	(void)read_pci_link(root, "net", n, s->pci);
}

/* ---- the bond ------------------------------------------------------------ */

static int scan_slaves(const struct sysroot *root, struct bond_seen *b)
{
	size_t n = 0;

	while (b->slaves && b->slaves[n])
		n++;
	b->slave = calloc(n + 1, sizeof(*b->slave));
	if (!b->slave)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		strcpy(b->slave[i].name, b->slaves[i]);
		scan_slave(root, &b->slave[i]);
	}
	b->n_slaves = n;
	return 0;
}

/*
 * 802.3ad: the partner MAC. sysfs ad_partner_mac is empty without CAP_NET_ADMIN (and when
 * there is no active aggregator); /proc/net/bonding/BOND shows it, and each slave's partner,
 * only with CAP_NET_ADMIN too. What neither shows stays -EACCES: "needs CAP_NET_ADMIN".
 */
static int scan_lacp_partner(const struct sysroot *root, struct bond_seen *b)
{
	_cleanup_(freep) char *mac = NULL, *text = NULL;
	struct bond_proc proc;
	int r;

	r = sysroot_read_attr(root, SYSROOT_SYS, &mac, "class/net/%s/bonding/ad_partner_mac",
			      b->rule->name);
	if (r == 0 && mac[0])
		r = bond_parse_mac(mac, &b->partner_mac);
	else if (r == 0)
		r = -EACCES;
	b->partner_err = r;
	r = sysroot_read_file(root, SYSROOT_PROC, 256 * 1024, &text, NULL, "net/bonding/%s",
			      b->rule->name);
	if (r == 0)
		r = bond_proc_parse(text, &proc);
	b->proc_err = r;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	if (b->partner_err < 0 && proc.partner_mac.len) {
		b->partner_mac = proc.partner_mac;
		b->partner_err = 0;
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bond_proc_slave *ps = bond_proc_slave(&proc, b->slave[i].name);

		if (!ps)
			continue;
		b->slave[i].partner_mac = ps->partner_mac;
		/* kernels before ad_partner_oper_port_state: the LACP PDU details */
		if (b->slave[i].partner_state_err == -ENOENT && ps->has_partner_state) {
			b->slave[i].partner_state = ps->partner_state;
			b->slave[i].partner_state_err = 0;
		}
	}
	bond_proc_done(&proc);
	return 0;
}

static void scan_aggregator(const struct sysroot *root, struct bond_seen *b)
{
	_cleanup_(freep) char *agg = NULL, *num = NULL;
	const char *n = b->rule->name;

	b->agg_err =
		sysroot_read_attr(root, SYSROOT_SYS, &agg, "class/net/%s/bonding/ad_aggregator", n);
	if (!b->agg_err)
		b->agg_err = agg[0] ? bond_parse_uint(agg, &b->ad_aggregator) : -ENODATA;
	b->num_ports_err =
		sysroot_read_attr(root, SYSROOT_SYS, &num, "class/net/%s/bonding/ad_num_ports", n);
	if (!b->num_ports_err)
		b->num_ports_err = num[0] ? bond_parse_uint(num, &b->ad_num_ports) : -ENODATA;
}

static int bond_is_there(const struct sysroot *root, const char *name)
{
	struct stat st;
	int r = sysroot_stat(root, SYSROOT_SYS, 0, &st, "class/net/%s", name);

	if (r < 0)
		return r;
	r = sysroot_stat(root, SYSROOT_SYS, 0, &st, "class/net/%s/bonding", name);
	if (r < 0)
		return r == -ENOENT ? -ENOTDIR : r;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/*
 * The bond's own link: no slave counts while the bond is down (ip link set down, or no
 * carrier: fewer slaves up than min_links, every one down).
 */
static int scan_link(const struct sysroot *root, struct bond_seen *b)
{
	_cleanup_(freep) char *oper = NULL, *mii = NULL, *flags = NULL;
	const char *n = b->rule->name;
	char *end;

	b->oper_err = sysroot_read_attr(root, SYSROOT_SYS, &oper, "class/net/%s/operstate", n);
	if (!b->oper_err && strlen(oper) >= sizeof(b->operstate))
		b->oper_err = -EBADMSG;
	else if (!b->oper_err)
		strcpy(b->operstate, oper);
	b->mii_err =
		sysroot_read_attr(root, SYSROOT_SYS, &mii, "class/net/%s/bonding/mii_status", n);
	if (!b->mii_err)
		b->mii_err = bond_parse_mii(mii, &b->mii);
	b->flags_err = sysroot_read_attr(root, SYSROOT_SYS, &flags, "class/net/%s/flags", n);
	if (!b->flags_err) {
		errno = 0;
		b->flags = strtoul(flags, &end, 16);
		if (errno || *end || end == flags)
			b->flags_err = -EBADMSG;
	}
	if (b->oper_err == -ENOMEM || b->mii_err == -ENOMEM || b->flags_err == -ENOMEM)
		return -ENOMEM;
	return 0;
}

static int scan_bond(const struct sysroot *root, struct bond_seen *b)
{
	_cleanup_(freep) char *mode = NULL, *miimon = NULL, *slaves = NULL, *active = NULL;
	const char *n = b->rule->name;
	int r;

	b->err = bond_is_there(root, n);
	if (b->err == -ENOMEM)
		return b->err;
	if (b->err < 0)
		return 0;
	r = scan_link(root, b);
	if (r < 0)
		return r;
	b->mode_err = sysroot_read_attr(root, SYSROOT_SYS, &mode, "class/net/%s/bonding/mode", n);
	if (!b->mode_err)
		b->mode_err = bond_parse_mode(mode, &b->mode);
	b->miimon_err =
		sysroot_read_attr(root, SYSROOT_SYS, &miimon, "class/net/%s/bonding/miimon", n);
	if (!b->miimon_err)
		b->miimon_err = bond_parse_uint(miimon, &b->miimon);
	b->active_err = sysroot_read_attr(root, SYSROOT_SYS, &active,
					  "class/net/%s/bonding/active_slave", n);
	if (!b->active_err)
		b->active_err = bond_parse_active_slave(active, &b->active);
	b->slaves_err =
		sysroot_read_attr(root, SYSROOT_SYS, &slaves, "class/net/%s/bonding/slaves", n);
	if (!b->slaves_err)
		b->slaves_err = bond_parse_slaves(slaves, &b->slaves);
	if (b->mode_err == -ENOMEM || b->slaves_err == -ENOMEM || b->active_err == -ENOMEM)
		return -ENOMEM;
	r = scan_slaves(root, b);
	if (r < 0 || b->mode_err < 0 || b->mode != BOND_MODE_8023AD)
		return r;
	scan_aggregator(root, b);
	return scan_lacp_partner(root, b);
}

/* ---- the RDMA LAG device ------------------------------------------------- */

/*
 * The first gid_attrs/ndevs/N of a port that names the bond. An empty GID slot reads
 * EINVAL on real mlx5 hosts: that is "no entry", not an error.
 */
static int scan_lag_port(const struct sysroot *root, struct bond_seen *b, unsigned port)
{
	struct bond_lag_seen *l = &b->lag;

	for (unsigned i = 0; i < LAG_GID_SLOTS_MAX; i++) {
		_cleanup_(freep) char *ndev = NULL;
		int r = sysroot_read_attr(root, SYSROOT_SYS, &ndev,
					  "class/infiniband/%s/ports/%u/gid_attrs/ndevs/%u",
					  b->rule->rdma, port, i);

		if (r == -ENOENT)
			break; /* past the table */
		if (r == -EINVAL || (r == 0 && !ndev[0]))
			continue;
		if (r < 0) {
			if (l->ndev_err == -ENODATA)
				l->ndev_err = r;
			continue;
		}
		if (!l->ndev || (!l->on_bond && streq(ndev, b->rule->name))) {
			free(l->ndev);
			l->ndev = TAKE_PTR(ndev);
			l->ndev_port = port;
			l->ndev_index = i;
			l->on_bond = streq(l->ndev, b->rule->name);
			l->ndev_err = 0;
		}
		if (l->on_bond)
			return 0;
	}
	return 0;
}

static int scan_lag(const struct sysroot *root, struct bond_seen *b)
{
	struct bond_lag_seen *l = &b->lag;
	struct stat st;
	int r = sysroot_stat(root, SYSROOT_SYS, 0, &st, "class/infiniband/%s", b->rule->rdma);

	if (r < 0) {
		l->err = r;
		return r == -ENOMEM ? r : 0;
	}
	l->pci_err = read_pci_link(root, "infiniband", b->rule->rdma, l->pci);
	l->ndev_err = -ENODATA;
	for (unsigned port = 1; port <= LAG_PORTS_MAX && !l->on_bond; port++) {
		r = sysroot_stat(root, SYSROOT_SYS, 0, &st, "class/infiniband/%s/ports/%u",
				 b->rule->rdma, port);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			break;
		scan_lag_port(root, b, port);
	}
	return 0;
}

/* ---- all ----------------------------------------------------------------- */

void bond_seen_done(struct bond_seen *s)
{
	strv_free(s->slaves);
	free(s->active);
	free(s->slave);
	free(s->lag.ndev);
	*s = (struct bond_seen){};
}

void bond_run_free(struct bond_run *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_bonds; i++)
		bond_seen_done(&b->bonds[i]);
	free(b->bonds);
	b->bonds = NULL;
	b->n_bonds = 0;
}

int bond_run_scan(struct bond_run *b, const struct sysroot *root, const struct bond_config *bc)
{
	bond_run_free(b);
	b->bonds = calloc(bc->n_rules + 1, sizeof(*b->bonds));
	if (!b->bonds)
		return -ENOMEM;
	for (size_t i = 0; i < bc->n_rules; i++) {
		struct bond_seen *s = &b->bonds[b->n_bonds++];
		int r;

		s->rule = &bc->rules[i];
		r = scan_bond(root, s);
		if (r >= 0 && s->rule->rdma && s->err == 0)
			r = scan_lag(root, s);
		if (r < 0)
			return r;
	}
	return 0;
}

size_t bond_slaves_up(const struct bond_seen *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_slaves; i++)
		n += s->slave[i].err == 0 && s->slave[i].mii_err == 0 &&
		     s->slave[i].mii == BOND_MII_UP;
	return n;
}
