/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

/*
 * RDMA link health over time: the error counters of a port (class/infiniband/DEV/ports/N/
 * counters/, the IBTA PortCounters attribute) judged by their rise since the previous run
 * of the same boot, with the previous reading kept under /run/hostprep (rdma-counters).
 * The counters are narrow (4, 8 or 16 bits) and stop at their maximum instead of
 * wrapping: a counter at its maximum has no rise to read (saturated). They start at 0
 * when the driver loads and are cleared by `perfquery -R`: a value lower than the previous
 * one is a reset, said as such and counted from 0.
 */
enum rdma_counter {
	RDMA_CTR_SYMBOL_ERROR,
	RDMA_CTR_LINK_ERROR_RECOVERY,
	RDMA_CTR_LINK_DOWNED,
	RDMA_CTR_RCV_ERRORS,
	RDMA_CTR_RCV_REMOTE_PHYSICAL_ERRORS,
	RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS,
	RDMA_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS,
	RDMA_CTR_XMIT_DISCARDS,
	_RDMA_CTR_MAX,
};

/* What a rise above the limit is: reported only, a warning, a failure. */
enum rdma_counter_class {
	RDMA_CTR_REPORT,
	RDMA_CTR_WARN,
	RDMA_CTR_FAIL,
};

struct rdma_counter_limit {
	uint32_t max_rise; /* a rise up to this many since the previous run passes */
	enum rdma_counter_class cls;
};

/* The sysfs file name ("symbol_error"); -EINVAL for a name not in the table. */
const char *rdma_counter_name(enum rdma_counter c);
int rdma_counter_from_name(const char *s);
/* The value the counter stops at (2^width - 1). */
uint64_t rdma_counter_max(enum rdma_counter c);
/*
 * The defaults (doc/hostprep.conf.5.scd): any rise of link_downed fails (a flap); any
 * rise of the link's error counters warns; port_xmit_discards (congestion, not the link)
 * is reported only.
 */
void rdma_counter_defaults(struct rdma_counter_limit lim[_RDMA_CTR_MAX]);
/*
 * One CounterLimit= word, NAME=N[:warn|:fail] or NAME=off, into *ret for *which; without
 * a verdict the counter's default one (fail for link_downed, else warn). -EINVAL with
 * *why set to what is wrong (static text).
 */
int rdma_counter_limit_parse(const char *word, enum rdma_counter *which,
			     struct rdma_counter_limit *ret, const char **why);
/* The word back, as the dump prints it. */
void rdma_counter_limit_format(enum rdma_counter c, const struct rdma_counter_limit *l, char *buf,
			       size_t size);

/* One counter as read now and as the previous run of this boot read it. */
struct rdma_counter_reading {
	int err; /* <0: unreadable now (value meaningless) */
	uint64_t value;
	bool have_prev; /* the previous run of this boot read it */
	uint64_t prev;
};

enum rdma_counter_base {
	RDMA_BASE_PREVIOUS, /* the rise since the previous run of this boot */
	RDMA_BASE_BOOT,	    /* no previous reading this boot: counted from 0 at driver load */
	RDMA_BASE_RESET,    /* lower than the previous reading: cleared since, counted from 0 */
};

struct rdma_counter_judgement {
	enum verdict v;
	enum rdma_counter_base base;
	uint64_t rise;
	bool saturated; /* at its maximum: it stopped counting, a rise cannot be seen */
};

/*
 * The verdict of one counter: unknown when a judged counter cannot be read (skip when it
 * is reported only); its class when it rose more than the limit or is saturated; else pass.
 */
void rdma_counter_judge(enum rdma_counter c, const struct rdma_counter_limit *l,
			const struct rdma_counter_reading *r, struct rdma_counter_judgement *ret);

/* ---- a flap during the boot wait ---- */

/*
 * What the boot wait (apply, [Host] Wait=) saw of one port it re-read: a link that was
 * ACTIVE at one check and not at a later one went down; link_downed rising between two
 * checks is a link-down too, one the checks were too slow to see (down and up again
 * between them). Times are CLOCK_MONOTONIC (for "after the wait began") and CLOCK_REALTIME
 * (for the time of day), in µs.
 */
struct rdma_wait_sample {
	bool active;	/* ACTIVE at this check */
	int downed_err; /* <0: link_downed unreadable at this check */
	uint64_t downed;
	uint64_t mono, real;
};

struct rdma_wait_flap {
	bool checked; /* at least one sample */
	bool active;  /* ACTIVE at the last check */
	unsigned downs;
	uint64_t down_mono, down_real; /* the first link-down seen */
	bool by_counter;	       /* ... seen as link_downed rising only */
	uint64_t up_mono, up_real;     /* ACTIVE again after the last one; 0: not (yet) */
	bool have_downed;
	uint64_t downed; /* link_downed at the last check that read it */
};

/* Fold one check of the wait into f (f zeroed before the first). */
void rdma_wait_observe(struct rdma_wait_flap *f, const struct rdma_wait_sample *s);
/*
 * A flap during the wait, judged as a link-down between runs is (link_downed's limit):
 * more link-downs than max_rise is its class's verdict, else pass (reported only: pass).
 */
enum verdict rdma_wait_flap_verdict(const struct rdma_counter_limit *l,
				    const struct rdma_wait_flap *f);

/* ---- the state kept between runs ---- */

#define RDMA_COUNTERS_STATE "hostprep/rdma-counters" /* below /run */
#define RDMA_BOOT_ID_MAX    36

struct rdma_counter_port_state {
	char *dev;
	unsigned port;
	bool have[_RDMA_CTR_MAX];
	uint64_t v[_RDMA_CTR_MAX];
};

struct rdma_counter_state {
	char boot_id[RDMA_BOOT_ID_MAX + 1]; /* "" when it was not known */
	uint64_t time_sec;
	struct rdma_counter_port_state *ports;
	size_t n;
};

/*
 * The file: "boot ID", "time SECONDS", then one line per port "DEV PORT name=value ...".
 * -EBADMSG when it is not one hostprep wrote (the caller then has no previous reading).
 */
int rdma_counter_state_parse(const char *text, struct rdma_counter_state *ret);
int rdma_counter_state_format(const struct rdma_counter_state *s, char **ret);
int rdma_counter_state_add(struct rdma_counter_state *s, const char *dev, unsigned port,
			   struct rdma_counter_port_state **ret);
const struct rdma_counter_port_state *rdma_counter_state_find(const struct rdma_counter_state *s,
							      const char *dev, unsigned port);
void rdma_counter_state_done(struct rdma_counter_state *s);
