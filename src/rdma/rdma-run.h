/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "rdma/rdma-check.h"
#include "run/run.h"

/*
 * The run's RDMA view (struct run_service): the devices listed once per state of the host,
 * however many modules read them ([Port:*] rules, [Inventory]'s counts, the port
 * counters). The ports of the devices a [Port:*] rule selects are read on first use,
 * through verbs on the live host (as the rules need: the active MTU); with all, every
 * other device's ports too, from sysfs. Each port is read once; the boot wait re-reads
 * the state of those it waits for in this view, so what it saw is what the verify
 * steps judge. Dropped, like the topology, when a write step ran: a module load may have
 * made devices appear. *ret is the run's, valid until the next write step.
 */
int rdma_run_view(struct run *run, bool all, struct rdma_run **ret);
