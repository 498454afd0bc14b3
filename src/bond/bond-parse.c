// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <limits.h>

#include "bond/bond-parse.h"
#include "core/string-table.h"

/* Indexed by enum bond_mode: the kernel's bond_mode_tbl names. */
static const char *const bond_mode_table[_BOND_MODE_MAX] = {
	[BOND_MODE_ROUNDROBIN] = "balance-rr", [BOND_MODE_ACTIVEBACKUP] = "active-backup",
	[BOND_MODE_XOR] = "balance-xor",       [BOND_MODE_BROADCAST] = "broadcast",
	[BOND_MODE_8023AD] = "802.3ad",	       [BOND_MODE_TLB] = "balance-tlb",
	[BOND_MODE_ALB] = "balance-alb",
};

/* bond_mode_name() in bond_main.c: what /proc/net/bonding prints. */
static const char *const proc_mode_names[_BOND_MODE_MAX] = {
	[BOND_MODE_ROUNDROBIN] = "load balancing (round-robin)",
	[BOND_MODE_ACTIVEBACKUP] = "fault-tolerance (active-backup)",
	[BOND_MODE_XOR] = "load balancing (xor)",
	[BOND_MODE_BROADCAST] = "fault-tolerance (broadcast)",
	[BOND_MODE_8023AD] = "IEEE 802.3ad Dynamic link aggregation",
	[BOND_MODE_TLB] = "transmit load balancing",
	[BOND_MODE_ALB] = "adaptive load balancing",
};

static const char *const bond_mii_table[_BOND_MII_MAX] = {
	[BOND_MII_UP] = "up",
	[BOND_MII_GOING_DOWN] = "going down",
	[BOND_MII_DOWN] = "down",
	[BOND_MII_GOING_BACK] = "going back",
};

static const char *const bond_slave_state_table[_BOND_SLAVE_STATE_MAX] = {
	[BOND_SLAVE_ACTIVE] = "active",
	[BOND_SLAVE_BACKUP] = "backup",
};

static const char *const bond_lacp_rate_table[_BOND_LACP_RATE_MAX] = {
	[BOND_LACP_SLOW] = "slow",
	[BOND_LACP_FAST] = "fast",
};

/* The text without one trailing newline (sysfs prints one), as a length. */
static size_t chomp_len(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '\n' ? n - 1 : n;
}

static int lookup(const char *const *names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && strneq(names[i], s, len))
			return i;
	return -EINVAL;
}

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(bond_mode, enum bond_mode);

int bond_mode_from_name(const char *s)
{
	return lookup(bond_mode_table, _BOND_MODE_MAX, s, strlen(s));
}

/* Decimal without sign, blanks or leading zeros beyond "0"; at most UINT_MAX. */
static int parse_decimal(const char *s, size_t len, unsigned *ret)
{
	unsigned long v = 0;

	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > UINT_MAX)
		return -ERANGE;
	*ret = v;
	return 0;
}

int bond_parse_mode(const char *s, enum bond_mode *ret)
{
	size_t len = chomp_len(s);
	const char *sp = memchr(s, ' ', len);
	unsigned num;
	int m;

	if (!sp)
		return -EINVAL;
	m = lookup(bond_mode_table, _BOND_MODE_MAX, s, sp - s);
	if (m < 0 || parse_decimal(sp + 1, len - (sp + 1 - s), &num) < 0 || num != (unsigned)m)
		return -EINVAL;
	*ret = m;
	return 0;
}

int bond_parse_proc_mode(const char *s, enum bond_mode *ret)
{
	size_t len = chomp_len(s);
	const char *paren;
	int m;

	/* active-backup may be followed by " (fail_over_mac active)". */
	m = lookup(proc_mode_names, _BOND_MODE_MAX, s, len);
	if (m < 0 && (paren = strstr(s, ") (fail_over_mac ")))
		m = lookup(proc_mode_names, _BOND_MODE_MAX, s, paren + 1 - s);
	if (m < 0)
		return -EINVAL;
	*ret = m;
	return 0;
}

int bond_parse_uint(const char *s, unsigned *ret)
{
	return parse_decimal(s, chomp_len(s), ret);
}

int bond_parse_uint_na(const char *s, unsigned *ret)
{
	size_t len = chomp_len(s);

	if (len == 3 && strneq(s, "N/A", 3))
		return -ENODATA;
	return parse_decimal(s, len, ret);
}

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(bond_mii, enum bond_mii);

int bond_parse_mii(const char *s, enum bond_mii *ret)
{
	int m = lookup(bond_mii_table, _BOND_MII_MAX, s, chomp_len(s));

	if (m < 0)
		return m;
	*ret = m;
	return 0;
}

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(bond_slave_state, enum bond_slave_state);

int bond_parse_slave_state(const char *s, enum bond_slave_state *ret)
{
	int st = lookup(bond_slave_state_table, _BOND_SLAVE_STATE_MAX, s, chomp_len(s));

	if (st < 0)
		return st;
	*ret = st;
	return 0;
}

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(bond_lacp_rate, enum bond_lacp_rate);

int bond_parse_lacp_rate(const char *s, enum bond_lacp_rate *ret)
{
	size_t len = chomp_len(s);
	const char *sp = memchr(s, ' ', len);
	unsigned num;
	int r;

	if (!sp)
		return -EINVAL;
	r = lookup(bond_lacp_rate_table, _BOND_LACP_RATE_MAX, s, sp - s);
	if (r < 0 || parse_decimal(sp + 1, len - (sp + 1 - s), &num) < 0 || num != (unsigned)r)
		return -EINVAL;
	*ret = r;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int bond_parse_mac(const char *s, struct bond_mac *ret)
{
	size_t len = chomp_len(s), n = 0;
	struct bond_mac m = {};

	for (size_t i = 0; i < len; i += 3) {
		int hi, lo;

		if (n == BOND_MAC_MAX || len - i < 2)
			return -EINVAL;
		hi = hexval(s[i]);
		lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0 || (i + 2 < len && s[i + 2] != ':'))
			return -EINVAL;
		m.b[n++] = (uint8_t)(hi << 4 | lo);
	}
	if (n != 6 && n != BOND_MAC_MAX)
		return -EINVAL;
	if (s[len - 1] == ':')
		return -EINVAL;
	m.len = (uint8_t)n;
	*ret = m;
	return 0;
}

bool bond_mac_is_zero(const struct bond_mac *m)
{
	for (size_t i = 0; i < m->len; i++)
		if (m->b[i])
			return false;
	return true;
}

const char *bond_mac_to_string(const struct bond_mac *m, char *buf, size_t size)
{
	size_t off = 0;

	if (!m->len) {
		snprintf(buf, size, "unknown");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < m->len && off < size; i++)
		off += snprintf(buf + off, size - off, "%s%02x", i ? ":" : "", m->b[i]);
	return buf;
}

int bond_parse_port_state(const char *s, uint8_t *ret)
{
	unsigned v;
	int r = bond_parse_uint_na(s, &v);

	if (r < 0)
		return r;
	if (v > 0xff)
		return -EINVAL;
	*ret = (uint8_t)v;
	return 0;
}

const char *lacp_state_to_string(uint8_t st, char *buf, size_t size)
{
	static const char *const bits[8] = {
		"activity",   "short timeout", "aggregation", "sync",
		"collecting", "distributing",  "defaulted",   "expired"
	};
	size_t off;
	bool first = true;

	off = snprintf(buf, size, "0x%02x (", st);
	for (int i = 0; i < 8 && off < size; i++) {
		if (!(st & (1u << i)))
			continue;
		off += snprintf(buf + off, size - off, "%s%s", first ? "" : ", ", bits[i]);
		first = false;
	}
	if (off < size)
		snprintf(buf + off, size - off, "%s)", first ? "none" : "");
	return buf;
}

bool bond_ifname_valid(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > BOND_IFNAME_MAX || streq(s, ".") || streq(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) ||
		    !isprint((unsigned char)*p))
			return false;
	return true;
}

bool bond_rdma_name_valid(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > 63 || streq(s, ".") || streq(s, ".."))
		return false; /* it becomes a path component under class/infiniband */
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return false;
	return true;
}

int bond_parse_slaves(const char *s, char ***ret)
{
	_cleanup_(freep) char *copy = strndup(s, chomp_len(s));
	char **v, *save = NULL;
	size_t n = 0;

	if (!copy)
		return -ENOMEM;
	v = calloc(BOND_SLAVES_MAX + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == BOND_SLAVES_MAX || !bond_ifname_valid(w))
			goto bad;
		for (size_t i = 0; i < n; i++)
			if (streq(v[i], w))
				goto bad;
		v[n] = strdup(w);
		if (!v[n++]) {
			strv_free(v);
			return -ENOMEM;
		}
	}
	*ret = v;
	return 0;
bad:
	strv_free(v);
	return -EINVAL;
}

int bond_parse_active_slave(const char *s, char **ret)
{
	size_t len = chomp_len(s);
	char *name;

	if (len == 0) {
		*ret = NULL;
		return 0;
	}
	name = strndup(s, len);
	if (!name)
		return -ENOMEM;
	if (!bond_ifname_valid(name)) {
		free(name);
		return -EINVAL;
	}
	*ret = name;
	return 0;
}

/* ---- /proc/net/bonding/BOND -------------------------------------------- */

enum proc_block {
	PROC_MASTER,
	PROC_ACTIVE_AGG, /* "Active Aggregator Info:" */
	PROC_SLAVE,
	PROC_ACTOR_PDU,	  /* "details actor lacp pdu:" */
	PROC_PARTNER_PDU, /* "details partner lacp pdu:" */
};

struct proc_parser {
	struct bond_proc *p;
	enum proc_block block;
	bool seen_mode;
};

/* "Key: value" with the key compared after leading blanks; value after ": ". */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	line += strspn(line, " \t");
	if (!strneq(line, key, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	return line + strspn(line, " ");
}

static int new_slave(struct proc_parser *pp, const char *name)
{
	struct bond_proc *p = pp->p;
	struct bond_proc_slave *grown;

	if (!bond_ifname_valid(name) || p->n_slaves >= BOND_SLAVES_MAX)
		return -EINVAL;
	grown = reallocarray(p->slaves, p->n_slaves + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->slaves = grown;
	grown[p->n_slaves] = (struct bond_proc_slave){};
	strcpy(grown[p->n_slaves].name, name);
	p->n_slaves++;
	pp->block = PROC_SLAVE;
	return 0;
}

static int master_line(struct proc_parser *pp, const char *line)
{
	struct bond_proc *p = pp->p;
	const char *v;

	if ((v = field(line, "Bonding Mode"))) {
		pp->seen_mode = true;
		p->has_mode = bond_parse_proc_mode(v, &p->mode) >= 0;
	} else if ((v = field(line, "Currently Active Slave")) && !streq(v, "None") &&
		   bond_ifname_valid(v))
		strcpy(p->active_slave, v);
	else if (streq(line, "Active Aggregator Info:"))
		pp->block = PROC_ACTIVE_AGG;
	return 0;
}

static int active_agg_line(struct proc_parser *pp, const char *line)
{
	struct bond_proc *p = pp->p;
	const char *v;

	if ((v = field(line, "Aggregator ID")))
		p->has_active_agg = bond_parse_uint(v, &p->active_agg) >= 0;
	else if ((v = field(line, "Number of ports")))
		(void)bond_parse_uint(v, &p->num_ports);
	else if ((v = field(line, "Partner Mac Address")) && bond_parse_mac(v, &p->partner_mac) < 0)
		p->partner_mac.len = 0;
	return 0;
}

static int slave_line(struct proc_parser *pp, const char *line)
{
	struct bond_proc_slave *s = &pp->p->slaves[pp->p->n_slaves - 1];
	const char *v;

	if ((v = field(line, "MII Status")))
		s->has_mii = bond_parse_mii(v, &s->mii) >= 0;
	else if ((v = field(line, "Link Failure Count")))
		s->has_link_failures = bond_parse_uint(v, &s->link_failures) >= 0;
	else if ((v = field(line, "Aggregator ID")))
		s->has_agg = bond_parse_uint(v, &s->aggregator) >= 0;
	else if (streq(line, "details actor lacp pdu:"))
		pp->block = PROC_ACTOR_PDU;
	else if (streq(line, "details partner lacp pdu:"))
		pp->block = PROC_PARTNER_PDU;
	return 0;
}

static int pdu_line(struct proc_parser *pp, const char *line)
{
	struct bond_proc_slave *s = &pp->p->slaves[pp->p->n_slaves - 1];
	bool partner = pp->block == PROC_PARTNER_PDU;
	const char *v;

	if (streq(line, "details partner lacp pdu:")) {
		pp->block = PROC_PARTNER_PDU;
		return 0;
	}
	if ((v = field(line, "port state"))) {
		bool ok = bond_parse_port_state(v, partner ? &s->partner_state : &s->actor_state) >=
			  0;

		if (partner)
			s->has_partner_state = ok;
		else
			s->has_actor_state = ok;
	} else if (partner && (v = field(line, "system mac address")) &&
		   bond_parse_mac(v, &s->partner_mac) < 0)
		s->partner_mac.len = 0;
	return 0;
}

static int proc_line(struct proc_parser *pp, const char *line)
{
	const char *v = field(line, "Slave Interface");

	if (v)
		return new_slave(pp, v);
	if (line[0] == '\0') {
		if (pp->block == PROC_ACTIVE_AGG)
			pp->block = PROC_MASTER;
		return 0;
	}
	switch (pp->block) {
	case PROC_MASTER:
		return master_line(pp, line);
	case PROC_ACTIVE_AGG:
		return active_agg_line(pp, line);
	case PROC_SLAVE:
		return slave_line(pp, line);
	default:
		return pdu_line(pp, line);
	}
}

int bond_proc_parse(const char *text, struct bond_proc *ret)
{
	_cleanup_(freep) char *copy = strdup(text);
	struct bond_proc p = {};
	struct proc_parser pp = { .p = &p };
	int r = 0;

	if (!copy)
		return -ENOMEM;
	/* Line by line, empty ones kept: they end the Active Aggregator block. */
	for (char *line = copy; line && r >= 0;) {
		char *next = strchr(line, '\n');

		if (next)
			*next++ = '\0';
		r = proc_line(&pp, line);
		line = next;
	}
	if (r >= 0 && !pp.seen_mode)
		r = -EINVAL;
	if (r < 0) {
		bond_proc_done(&p);
		return r;
	}
	*ret = p;
	return 0;
}

void bond_proc_done(struct bond_proc *p)
{
	free(p->slaves);
	*p = (struct bond_proc){};
}

const struct bond_proc_slave *bond_proc_slave(const struct bond_proc *p, const char *name)
{
	for (size_t i = 0; i < p->n_slaves; i++)
		if (streq(p->slaves[i].name, name))
			return &p->slaves[i];
	return NULL;
}
