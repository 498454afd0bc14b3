/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <json-c/json.h>

#include "rdma/rdma-config.h"
#include "rdma/rdma-scan.h"
#include "core/result.h"

/*
 * One port as rdma.port judges it, and as [Inventory]'s ActivePorts= counts it (one
 * judgement): UP only when ACTIVE and LinkUp (rdma_port_ready(): ACTIVE alone is not, a
 * Disabled or Phy Test link carries nothing); UNREAD when the device or the port could
 * not be read, or ACTIVE over a physical state that could not (waiting will not tell);
 * DOWN otherwise (DOWN, INIT, ARMED, ACTIVE_DEFER, ACTIVE/Polling, ACTIVE/Disabled...).
 */
enum rdma_port_judgement {
	RDMA_PORT_JUDGED_UP,
	RDMA_PORT_JUDGED_DOWN,
	RDMA_PORT_JUDGED_UNREAD,
};
enum rdma_port_judgement rdma_port_judge(const struct rdma_device *d, const struct rdma_port *p);

/* The RDMA devices of one run (the run's RDMA view, rdma-run.h; `hostprep env`'s own). */
struct rdma_run {
	const struct sysroot *root;
	const struct port_config *pc;
	struct rdma_inventory inv;
	uint64_t waited_usec; /* how long apply waited; 0 when it did not */
	/* The wait's first check (CLOCK_MONOTONIC, CLOCK_REALTIME µs); 0: no wait */
	uint64_t wait_began_mono, wait_began_real;
};

/* Whether a rule of pc selects the device (none with pc NULL). */
bool rdma_rules_select_device(const struct port_config *pc, const struct rdma_device *d);
/* Read the devices any rule selects (all with pc NULL); verbs only on the live host. */
int rdma_run_scan(struct rdma_run *rr, bool use_verbs);
/* rdma.port, rdma.ports, rdma.rule results for every rule. */
int rdma_run_check(const struct rdma_run *rr, struct results *rs);
void rdma_run_free(struct rdma_run *rr);

/*
 * The wait's predicate (struct linkwait_target.ready): re-reads from sysfs the state and
 * link_downed of the ports it waits for, ACTIVE ones too (one that goes down again is
 * waited for again, and is a flap: rdma_port.wait_flap); 1 when every selected port is ACTIVE (or
 * has no hope of being read), 0 otherwise with *status = "mlx5_0/1 (Polling), mlx5_3/1 (Disabled)".
 */
int rdma_wait_ready(void *userdata, char **status);
/* NULL-terminated names of the RDMA devices with a selected port not ACTIVE (to watch). */
int rdma_wait_devices(const struct rdma_run *rr, char ***ret);
/*
 * After the wait: the awaited devices' ports read again (rate, GIDs, netdev: a link that
 * came up during the wait is judged as it is now); timed_out: how long it waited, for
 * the rdma.port actual text of the ports still down.
 */
int rdma_wait_done(struct rdma_run *rr, uint64_t waited_usec, bool timed_out);

/*
 * rdma.hcoll: rdma.env's HCOLL on (its port; multicast off and why where no rdma_cm node
 * exists) or off (why), when a rule writes rdma.env.
 */
int rdma_hcoll_result(const struct rdma_run *rr, struct results *rs);

/* The rdma.env content for the selected ports as they are now (the publish step writes it). */
int rdma_env_format(const struct rdma_run *rr, char **ret);

/* `hostprep rdma`: the device/port <-> netdev <-> PCI <-> bond table (JSON: NULL on ENOMEM). */
int rdma_table_print(const struct rdma_inventory *inv, FILE *f);
struct json_object *rdma_table_json(const struct rdma_inventory *inv);
