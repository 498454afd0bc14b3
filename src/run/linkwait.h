/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/sysroot.h"

/*
 * Waiting for what the modules wait for (ports, bonds) to come up, by events, not by
 * sleeping: an rtnetlink socket on RTMGRP_LINK (carrier, operstate, bond slave changes of
 * every netdev) and the event sources the modules hand in (the RDMA module: the verbs
 * async events of its devices, src/rdma/rdma-verbs.h). Every event only wakes a
 * re-check; what "ready" means is the caller's ready() callback, which re-reads sysfs.
 * Not a module: run_wait() (src/run/run-wait.c) calls it once for every module.
 */

/* How often the files below a root other than the host's are re-read (no events there). */
#define LINKWAIT_ROOT_POLL_USEC (100 * 1000ULL)

/* The LACP safety re-check period (the fast LACP timer); see linkwait.c. */
#define LINKWAIT_LACP_RECHECK_USEC (1000 * 1000ULL)

/*
 * One event source of a module: fd (non-blocking) becomes readable, or hangs up, when
 * something the module waits for may have changed. drain() reads what is pending and
 * returns 1 to wake a re-check, 0 when nothing that matters came, <0 when the source is
 * gone for good (it is dropped, a re-check follows; other events still wake the wait).
 * close() (may be NULL) releases fd and userdata: linkwait_sources_done() calls it.
 */
struct linkwait_source {
	const char *name; /* for the logs: "mlx5_0" */
	int fd;
	int (*drain)(int fd, uint32_t revents, void *userdata);
	void (*close)(void *userdata);
	void *userdata;
};

struct linkwait_sources {
	struct linkwait_source *v;
	size_t n;
};

/* Append src (copied); on ENOMEM src->close() is called, so the caller owns nothing. */
int linkwait_sources_add(struct linkwait_sources *s, const struct linkwait_source *src);
/* close() every source, in order, and empty the list. */
void linkwait_sources_done(struct linkwait_sources *s);

struct linkwait_target {
	/*
	 * 1: everything is up; 0: not yet, *ret_status set to what is missing
	 * ("mlx5_0/1 (Polling), bond0 (1 of 2 slaves up)", malloc'd, or left
	 * NULL); <0: error, the wait ends with it.
	 */
	int (*ready)(void *userdata, char **ret_status);
	void *userdata;
	/* The modules' event sources (n_sources, may be 0); each fd >= 0, with a drain(). */
	const struct linkwait_source *sources;
	size_t n_sources;
	/*
	 * 0, or LINKWAIT_LACP_RECHECK_USEC when an 802.3ad bond is waited for:
	 * some LACP state changes send no rtnetlink message (linkwait.c).
	 */
	uint64_t recheck_usec;
	/* Told "waiting for <status>" whenever the status text changes; NULL: nobody. */
	void (*notify_status)(const char *line);
};

/*
 * Wait until t->ready() says 1 or CLOCK_MONOTONIC reaches deadline_usec.
 * Tells t->notify_status "waiting for <status>" (the command layer sends it as
 * STATUS= through sd_notify) and logs it at notice whenever the status text changes. The event
 * sources are set up before the first check, so nothing that happens after it is missed. Returns 1
 * ready, 0 at the deadline (a deadline already past: one check), <0 on error (the caller then
 * evaluates what it sees; -EINVAL: a source without fd or drain(), before any check). A root other
 * than the host's has no events to wait for: its files are re-read every LINKWAIT_ROOT_POLL_USEC
 * (the sources, which are the host's, must be none there).
 */
int linkwait(const struct sysroot *root, const struct linkwait_target *t, uint64_t deadline_usec);

/* CLOCK_MONOTONIC now, in µs (the clock of deadline_usec). */
uint64_t linkwait_now_usec(void);
