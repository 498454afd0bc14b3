// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port error counters' table, their judgement and the state kept between runs: pure
 * functions, no I/O (the module reads and writes: src/rdma/mod-counters.c).
 *
 * Widths: the IBTA PortCounters attribute (InfiniBand Architecture Specification vol. 1,
 * 16.1.3.5): SymbolErrorCounter, PortRcvErrors, PortRcvRemotePhysicalErrors and
 * PortXmitDiscards 16 bits; LinkErrorRecoveryCounter and LinkDownedCounter 8;
 * LocalLinkIntegrityErrors and ExcessiveBufferOverrunErrors 4. The kernel's sysfs files
 * (drivers/infiniband/core/sysfs.c, PORT_PMA_ATTR) hand out those fields as they are.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/macro.h"
#include "core/strbuf.h"
#include "rdma/rdma-counters.h"

static const struct {
	const char *name;
	unsigned width;
	struct rdma_counter_limit def;
} counters[_RDMA_CTR_MAX] = {
	[RDMA_CTR_SYMBOL_ERROR] = { "symbol_error", 16, { 0, RDMA_CTR_WARN } },
	[RDMA_CTR_LINK_ERROR_RECOVERY] = { "link_error_recovery", 8, { 0, RDMA_CTR_WARN } },
	[RDMA_CTR_LINK_DOWNED] = { "link_downed", 8, { 0, RDMA_CTR_FAIL } },
	[RDMA_CTR_RCV_ERRORS] = { "port_rcv_errors", 16, { 0, RDMA_CTR_WARN } },
	[RDMA_CTR_RCV_REMOTE_PHYSICAL_ERRORS] = { "port_rcv_remote_physical_errors",
						  16,
						  { 0, RDMA_CTR_WARN } },
	[RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS] = { "local_link_integrity_errors",
						   4,
						   { 0, RDMA_CTR_WARN } },
	[RDMA_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = { "excessive_buffer_overrun_errors",
						       4,
						       { 0, RDMA_CTR_WARN } },
	/* discards rise with congestion on a healthy link: the fabric's, not the port's */
	[RDMA_CTR_XMIT_DISCARDS] = { "port_xmit_discards", 16, { 0, RDMA_CTR_REPORT } },
};

const char *rdma_counter_name(enum rdma_counter c)
{
	return counters[c].name;
}

int rdma_counter_from_name(const char *s)
{
	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		if (streq(s, counters[c].name))
			return c;
	return -EINVAL;
}

uint64_t rdma_counter_max(enum rdma_counter c)
{
	return (UINT64_C(1) << counters[c].width) - 1;
}

void rdma_counter_defaults(struct rdma_counter_limit lim[_RDMA_CTR_MAX])
{
	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		lim[c] = counters[c].def;
}

static int parse_limit(const char *s, enum rdma_counter c, struct rdma_counter_limit *l,
		       const char **why)
{
	const char *colon = strchr(s, ':');
	char *end;
	unsigned long v;

	/* no verdict given: the counter's own (link_downed fails), a warning for the others */
	l->cls = counters[c].def.cls == RDMA_CTR_FAIL ? RDMA_CTR_FAIL : RDMA_CTR_WARN;
	if (colon && streq(colon + 1, "fail"))
		l->cls = RDMA_CTR_FAIL;
	else if (colon && streq(colon + 1, "warn"))
		l->cls = RDMA_CTR_WARN;
	else if (colon)
		return *why = "the verdict after ':' is warn or fail", -EINVAL;
	errno = 0;
	v = isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 0;
	if (!isdigit((unsigned char)*s) || errno || end != (colon ? colon : s + strlen(s)))
		return *why = "the limit is a number of errors since the previous run", -EINVAL;
	if (v >= rdma_counter_max(c))
		return *why = "the limit must be below the counter's maximum (it stops there: "
			      "15 for the 4-bit, 255 for the 8-bit, 65535 for the 16-bit counters)",
		       -EINVAL;
	l->max_rise = (uint32_t)v;
	return 0;
}

int rdma_counter_limit_parse(const char *word, enum rdma_counter *which,
			     struct rdma_counter_limit *ret, const char **why)
{
	const char *eq = strchr(word, '=');
	char name[48];
	int c;

	if (!eq || (size_t)(eq - word) >= sizeof(name))
		return *why = "NAME=LIMIT expected", -EINVAL;
	memcpy(name, word, (size_t)(eq - word));
	name[eq - word] = '\0';
	c = rdma_counter_from_name(name);
	if (c < 0)
		return *why = "unknown counter (symbol_error, link_error_recovery, link_downed, "
			      "port_rcv_errors, port_rcv_remote_physical_errors, "
			      "local_link_integrity_errors, excessive_buffer_overrun_errors, "
			      "port_xmit_discards)",
		       -EINVAL;
	*which = (enum rdma_counter)c;
	if (streq(eq + 1, "off")) {
		*ret = (struct rdma_counter_limit){ 0, RDMA_CTR_REPORT };
		return 0;
	}
	return parse_limit(eq + 1, *which, ret, why);
}

void rdma_counter_limit_format(enum rdma_counter c, const struct rdma_counter_limit *l, char *buf,
			       size_t size)
{
	if (l->cls == RDMA_CTR_REPORT)
		snprintf(buf, size, "%s=off", counters[c].name);
	else
		snprintf(buf, size, "%s=%u:%s", counters[c].name, l->max_rise,
			 l->cls == RDMA_CTR_FAIL ? "fail" : "warn");
}

static enum verdict class_verdict(enum rdma_counter_class cls)
{
	return cls == RDMA_CTR_FAIL   ? VERDICT_FAIL
	       : cls == RDMA_CTR_WARN ? VERDICT_WARN
				      : VERDICT_PASS;
}

void rdma_counter_judge(enum rdma_counter c, const struct rdma_counter_limit *l,
			const struct rdma_counter_reading *r, struct rdma_counter_judgement *ret)
{
	*ret = (struct rdma_counter_judgement){ .v = VERDICT_PASS };
	if (r->err < 0) {
		ret->v = l->cls == RDMA_CTR_REPORT ? VERDICT_SKIP : VERDICT_UNKNOWN;
		return;
	}
	if (!r->have_prev)
		ret->base = RDMA_BASE_BOOT;
	else if (r->value < r->prev)
		ret->base = RDMA_BASE_RESET;
	ret->rise = ret->base == RDMA_BASE_PREVIOUS ? r->value - r->prev : r->value;
	ret->saturated = r->value == rdma_counter_max(c);
	if (ret->saturated || ret->rise > l->max_rise)
		ret->v = class_verdict(l->cls);
}

/* ---- a flap during the boot wait ---- */

static unsigned downed_rise(struct rdma_wait_flap *f, const struct rdma_wait_sample *s)
{
	unsigned rise = 0;

	if (s->downed_err < 0)
		return 0;
	/* lower: the counters were cleared (perfquery -R, a driver reload): a new base */
	if (f->have_downed && s->downed > f->downed)
		rise = s->downed - f->downed > UINT_MAX ? UINT_MAX : s->downed - f->downed;
	f->have_downed = true;
	f->downed = s->downed;
	return rise;
}

void rdma_wait_observe(struct rdma_wait_flap *f, const struct rdma_wait_sample *s)
{
	bool went_down = f->checked && f->active && !s->active;
	unsigned rise = downed_rise(f, s);
	unsigned n = rise > went_down ? rise : went_down;

	if (n) {
		if (!f->downs) {
			f->down_mono = s->mono;
			f->down_real = s->real;
			f->by_counter = !went_down;
		}
		f->downs = f->downs > UINT_MAX - n ? UINT_MAX : f->downs + n;
		f->up_mono = f->up_real = 0;
	}
	/* up again: seen down before, or down and up between two checks (the counter rose) */
	if (s->active && f->downs && !f->up_mono) {
		f->up_mono = s->mono;
		f->up_real = s->real;
	}
	f->checked = true;
	f->active = s->active;
}

enum verdict rdma_wait_flap_verdict(const struct rdma_counter_limit *l,
				    const struct rdma_wait_flap *f)
{
	return f->downs > l->max_rise ? class_verdict(l->cls) : VERDICT_PASS;
}

/* ---- state ---- */

static int parse_u64(const char *s, uint64_t *ret)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EBADMSG;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -EBADMSG : 0;
}

int rdma_counter_state_add(struct rdma_counter_state *s, const char *dev, unsigned port,
			   struct rdma_counter_port_state **ret)
{
	struct rdma_counter_port_state *grown = reallocarray(s->ports, s->n + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	s->ports = grown;
	grown[s->n] = (struct rdma_counter_port_state){ .dev = strdup(dev), .port = port };
	if (!grown[s->n].dev)
		return -ENOMEM;
	*ret = &grown[s->n++];
	return 0;
}

static int parse_value(struct rdma_counter_port_state *p, char *word)
{
	char *eq = strchr(word, '=');
	uint64_t v;
	int c;

	if (!eq)
		return -EBADMSG;
	*eq = '\0';
	c = rdma_counter_from_name(word);
	if (c < 0 || parse_u64(eq + 1, &v) < 0)
		return -EBADMSG;
	p->have[c] = true;
	p->v[c] = v;
	return 0;
}

static int parse_port(struct rdma_counter_state *s, char *line)
{
	char *save = NULL, *dev = strtok_r(line, " ", &save), *num = strtok_r(NULL, " ", &save);
	struct rdma_counter_port_state *p;
	uint64_t port;
	int r;

	if (!dev || !num || parse_u64(num, &port) < 0 || port > 255)
		return -EBADMSG;
	r = rdma_counter_state_add(s, dev, (unsigned)port, &p);
	for (char *w = strtok_r(NULL, " ", &save); r >= 0 && w; w = strtok_r(NULL, " ", &save))
		r = parse_value(p, w);
	return r;
}

static int parse_line(struct rdma_counter_state *s, char *line, unsigned n)
{
	if (n == 0)
		return strneq(line, "boot ", 5) && strlen(line + 5) <= RDMA_BOOT_ID_MAX
			       ? (strcpy(s->boot_id, line + 5), 0)
			       : -EBADMSG;
	if (n == 1)
		return strneq(line, "time ", 5) ? parse_u64(line + 5, &s->time_sec) : -EBADMSG;
	return parse_port(s, line);
}

int rdma_counter_state_parse(const char *text, struct rdma_counter_state *ret)
{
	_cleanup_(freep) char *copy = strdup(text);
	char *save = NULL;
	unsigned n = 0;
	int r = 0;

	*ret = (struct rdma_counter_state){};
	if (!copy)
		return -ENOMEM;
	for (char *l = strtok_r(copy, "\n", &save); r >= 0 && l; l = strtok_r(NULL, "\n", &save))
		if (l[0] != '#')
			r = parse_line(ret, l, n++);
	if (r >= 0 && n < 2)
		r = -EBADMSG;
	if (r < 0)
		rdma_counter_state_done(ret);
	return r;
}

int rdma_counter_state_format(const struct rdma_counter_state *s, char **ret)
{
	struct strbuf b = {};

	strbuf_printf(&b,
		      "# RDMA port error counters as the last published hostprep run read them:\n"
		      "# the next run judges their rise against these (rdma.counters, rdma.flap).\n"
		      "boot %s\ntime %llu\n",
		      s->boot_id, (unsigned long long)s->time_sec);
	for (size_t i = 0; i < s->n; i++) {
		strbuf_printf(&b, "%s %u", s->ports[i].dev, s->ports[i].port);
		for (int c = 0; c < _RDMA_CTR_MAX; c++)
			if (s->ports[i].have[c])
				strbuf_printf(&b, " %s=%llu", counters[c].name,
					      (unsigned long long)s->ports[i].v[c]);
		strbuf_printf(&b, "\n");
	}
	return strbuf_take(&b, ret);
}

const struct rdma_counter_port_state *rdma_counter_state_find(const struct rdma_counter_state *s,
							      const char *dev, unsigned port)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ports[i].port == port && streq(s->ports[i].dev, dev))
			return &s->ports[i];
	return NULL;
}

void rdma_counter_state_done(struct rdma_counter_state *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->ports[i].dev);
	free(s->ports);
	*s = (struct rdma_counter_state){};
}
