/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/sysroot.h"

/*
 * Waiting for RDMA ports and bonds to come up, by events, not by sleeping:
 * an rtnetlink socket on RTMGRP_LINK (carrier, operstate, bond slave
 * changes of every netdev) and the verbs async events (PORT_ACTIVE,
 * PORT_ERR, GID_CHANGE, ...) of the named RDMA devices. Every event only
 * wakes a re-check; what "ready" means is the caller's ready() callback,
 * which re-reads sysfs. Not a module: the RDMA and bond modules call it from
 * their apply step.
 */

/* The LACP safety re-check period (the fast LACP timer); see linkwait.c. */
#define LINKWAIT_LACP_RECHECK_USEC (1000 * 1000ULL)

struct linkwait_target {
	/*
	 * 1: everything is up; 0: not yet, *ret_status set to what is missing
	 * ("mlx5_0/1 (Polling), bond0 (1 of 2 slaves up)", malloc'd, or left
	 * NULL); <0: error, the wait ends with it.
	 */
	int (*ready)(void *userdata, char **ret_status);
	void *userdata;
	/* RDMA device names whose async events wake a re-check; NULL-terminated, may be NULL. */
	const char *const *rdma_devices;
	/*
	 * 0, or LINKWAIT_LACP_RECHECK_USEC when an 802.3ad bond is waited for:
	 * some LACP state changes send no rtnetlink message (linkwait.c).
	 */
	uint64_t recheck_usec;
};

/*
 * Wait until t->ready() says 1 or CLOCK_MONOTONIC reaches deadline_usec.
 * Publishes "STATUS=waiting for <status>" through sd_notify (and logs it at
 * notice) whenever the status text changes. The event sources are set up
 * before the first check, so nothing that happens after it is missed.
 * Returns 1 ready, 0 at the deadline (a deadline already past: one check),
 * <0 on error (the caller then evaluates what it sees). A root other than
 * the host's has no events to wait for: one check, as at the deadline.
 */
int linkwait(const struct sysroot *root, const struct linkwait_target *t, uint64_t deadline_usec);

/* CLOCK_MONOTONIC now, in µs (the clock of deadline_usec). */
uint64_t linkwait_now_usec(void);
