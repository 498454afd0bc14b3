// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bonding module: [Bond:IFNAME] rules, checked in check/verify from one scan. It never
 * writes; `apply` only waits for the bonds (bond_wait_ready(), hooked into src/run/linkwait.h).
 */
#include "bond/bond-check.h"
#include "run/linkwait.h"
#include "run/run.h"

/* The bond module's state in a run: the declared bonds, once a run with bond rules scans. */
struct bond_mod {
	bool scanned;
	struct bond_run b;
};

const struct run_module run_module_bond;

static struct bond_run *bond_of(const struct run *run)
{
	struct bond_mod *m = run_state(run, &run_module_bond);

	return m->scanned ? &m->b : NULL;
}

static bool bond_wanted(const struct run *run)
{
	return bond_config_get(run->cfg) && bond_config_get(run->cfg)->n_rules;
}

static int bond_scan_step(struct run *run)
{
	struct bond_mod *m = run_state(run, &run_module_bond);

	if (!bond_wanted(run))
		return 0;
	m->scanned = true;
	return bond_run_scan(&m->b, run->root, bond_config_get(run->cfg));
}

static int bond_verify_step(struct run *run)
{
	struct bond_run *b = bond_of(run);
	int r = 0;

	if (!b)
		return 0;
	/* apply may have waited: judge what the bonds look like now, not at the first scan. */
	if (run->mode == RUN_APPLY)
		r = bond_run_scan(b, run->root, bond_config_get(run->cfg));
	for (size_t i = 0; r >= 0 && i < b->n_bonds; i++)
		r = bond_evaluate(&b->bonds[i], &run->results);
	return r;
}

static void bond_done_step(struct run *run)
{
	struct bond_mod *m = run_state(run, &run_module_bond);

	bond_run_free(&m->b);
	*m = (struct bond_mod){};
}

/* The boot wait (src/run/run-wait.c): bonds come up on link events; LACP needs a re-check. */
static int bond_wait_setup(struct run *run, struct linkwait_sources *sources,
			   uint64_t *recheck_usec)
{
	const struct bond_run *b = bond_of(run);

	if (!b)
		return 0;
	for (size_t i = 0; i < bond_config_get(run->cfg)->n_rules; i++)
		if (bond_config_get(run->cfg)->rules[i].mode == BOND_MODE_8023AD)
			*recheck_usec = LINKWAIT_LACP_RECHECK_USEC;
	for (size_t i = 0; i < b->n_bonds; i++)
		if (b->bonds[i].mode_err == 0 && b->bonds[i].mode == BOND_MODE_8023AD)
			*recheck_usec = LINKWAIT_LACP_RECHECK_USEC;
	return 1;
}

static int bond_wait_ready_step(struct run *run, char **status)
{
	return bond_wait_ready(bond_of(run), run->root, bond_config_get(run->cfg), status);
}

const struct run_module run_module_bond = {
	.name = "bond",
	.state_size = sizeof(struct bond_mod),
	.scan = bond_scan_step,
	.verify = bond_verify_step,
	.done = bond_done_step,
	.wait_setup = bond_wait_setup,
	.wait_ready = bond_wait_ready_step,
};

/*
 * An up slave time may still bring into the LAG: our side not yet collecting and
 * distributing, or the switch's side not yet (or not yet in an aggregator: "N/A").
 * A state that cannot be read is not waited for; verify says unknown.
 */
static bool lacp_pending(const struct bond_slave_seen *s)
{
	if (s->actor_err < 0)
		return false;
	if ((s->actor_state & LACP_STATE_COLL_DIST) != LACP_STATE_COLL_DIST)
		return true;
	if (s->partner_state_err == -ENODATA)
		return true;
	return s->partner_state_err == 0 && !bond_slave_lacp_up(s);
}

/*
 * What can still change at boot: the bond appearing (networkd creates it), slaves coming
 * up, an active slave being elected, LACP negotiating. A wrong mode or miimon 0 never fixes
 * itself: waiting for it would only burn [Host] Wait=, so verify reports it at once.
 */
static const char *wait_reason(const struct bond_seen *b)
{
	size_t up = bond_slaves_up(b);
	size_t want = b->rule->min_slaves_up ? b->rule->min_slaves_up : b->n_slaves;

	if (b->err == -ENOENT)
		return "no such interface yet";
	if (b->err < 0 || b->mode_err < 0)
		return NULL;
	if (up < want || b->n_slaves == 0)
		return "";
	if (b->mode == BOND_MODE_ACTIVEBACKUP && b->active_err == 0 && !b->active)
		return ", no active slave";
	if (b->mode != BOND_MODE_8023AD)
		return NULL;
	if (b->agg_err == -ENODATA || (b->partner_err == 0 && bond_mac_is_zero(&b->partner_mac)))
		return ", LACP not negotiated";
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bond_slave_seen *s = &b->slave[i];

		if (s->mii_err == 0 && s->mii == BOND_MII_UP && lacp_pending(s))
			return ", LACP not distributing on every slave";
	}
	return NULL;
}

static int append_status(char **status, const struct bond_seen *b, const char *why)
{
	char *s;
	int n;

	if (b->err < 0)
		n = asprintf(&s, "%s%s%s (%s)", strempty(*status), *status ? ", " : "",
			     b->rule->name, why);
	else
		n = asprintf(&s, "%s%s%s (%zu of %zu slaves up%s)", strempty(*status),
			     *status ? ", " : "", b->rule->name, bond_slaves_up(b), b->n_slaves,
			     why);
	if (n < 0)
		return -ENOMEM;
	free(*status);
	*status = s;
	return 0;
}

int bond_wait_ready(struct bond_run *b, const struct sysroot *root, const struct bond_config *bc,
		    char **status)
{
	bool waiting = false;
	int r;

	*status = NULL;
	if (!b)
		return 1;
	r = bond_run_scan(b, root, bc);
	for (size_t i = 0; r >= 0 && i < b->n_bonds; i++) {
		const char *why = wait_reason(&b->bonds[i]);

		if (!why)
			continue;
		waiting = true;
		r = append_status(status, &b->bonds[i], why);
	}
	if (r < 0) {
		free(*status);
		*status = NULL;
		return r;
	}
	return !waiting;
}
