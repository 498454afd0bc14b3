/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "bond/bond-scan.h"
#include "core/result.h"

/*
 * Judging what bond-scan.c read: results `bond` (BOND), `bond.slave` (BOND/SLAVE) and
 * `bond.lag` (the RDMA= device), in that order per rule. Pure: no I/O, so the same
 * judgement serves check/verify and the boot-time wait.
 *
 *   bond        mode (Mode=), miimon > 0 (Miimon=yes), N of M slaves up (MinSlavesUp=,
 *               default every slave), active-backup: an active slave whose mii is up,
 *               802.3ad: an active aggregator and a non-zero partner MAC (hidden without
 *               CAP_NET_ADMIN: unknown, saying so)
 *   bond.slave  mii up (a down slave is warn while the bond still has MinSlavesUp up, fail
 *               otherwise); 802.3ad, for a slave whose mii is up: in the bond's aggregator,
 *               collecting and distributing, and the switch's side (partner state) in
 *               sync, collecting and distributing (unknown when unreadable; not judged
 *               while our side is defaulted: it then shows the admin default); link
 *               failure counts in the text
 *   bond.lag    the bond's mode is LAG-capable (1, 2, 4), the device exists, a
 *               gid_attrs/ndevs entry names the bond, its PCI function is a slave's
 */
int bond_evaluate(const struct bond_seen *b, struct results *rs);

/* The switch's side of a member that carries traffic: in sync, collecting, distributing. */
#define LACP_PARTNER_READY (LACP_STATE_SYNCHRONIZATION | LACP_STATE_COLL_DIST)

/*
 * 802.3ad: one slave carries traffic both ways — our side (ad_actor_oper_port_state)
 * collecting and distributing, and the switch's (ad_partner_oper_port_state) in sync,
 * collecting and distributing. Shared by the verdict and the boot-time wait.
 */
bool bond_slave_lacp_up(const struct bond_slave_seen *s);

/*
 * The bond module's wait predicate (src/run/run-wait.c). Re-reads every declared bond of
 * bc from sysfs into b (verify then judges that fresh state; b NULL: 1) and returns
 * 1 when nothing is left that time can fix, else 0 with *status "bond0 (1 of 2 slaves up)"
 * (malloc'd, ", "-joined); <0 on ENOMEM. Waited for: the bond appearing, slaves up to
 * MinSlavesUp=, an active slave (active-backup), LACP negotiated and every up slave
 * distributing (802.3ad). Not waited for: a wrong mode, miimon 0, a name that is no bond,
 * values that cannot be read — waiting cannot change them; verify reports them at once.
 */
int bond_wait_ready(struct bond_run *b, const struct sysroot *root, const struct bond_config *bc,
		    char **status);
