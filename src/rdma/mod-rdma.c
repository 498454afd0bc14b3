// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA ports module: [Port:*] rules against the ports. Read-only (apply waits for
 * ports to come up before judging them); it writes nothing, and gives the content of the
 * rdma.env file that publishing runs leave for NCCL/UCX jobs.
 */
#include "core/log.h"
#include "rdma/rdma-check.h"
#include "rdma/rdma-verbs.h"
#include "run/run.h"

/* The rdma module's state in a run: the selected ports, once a run with port rules scans. */
struct rdma_mod {
	bool scanned;
	struct rdma_run rr;
};

const struct run_module run_module_rdma;

static struct rdma_run *rdma_of(const struct run *run)
{
	struct rdma_mod *m = run_state(run, &run_module_rdma);

	return m->scanned ? &m->rr : NULL;
}

static bool rdma_wanted(const struct run *run)
{
	return port_config_get(run->cfg) && port_config_get(run->cfg)->n_rules;
}

/* verbs only on the live host: under --root the devices verbs see are not the tree's */
static bool use_verbs(const struct run *run)
{
	return sysroot_is_host(run->root);
}

static int rdma_scan_step(struct run *run)
{
	struct rdma_mod *m = run_state(run, &run_module_rdma);

	if (!rdma_wanted(run))
		return 0;
	if (!m->scanned) {
		m->scanned = true;
		m->rr.root = run->root;
		m->rr.pc = port_config_get(run->cfg);
	}
	return rdma_run_scan(&m->rr, use_verbs(run));
}

/*
 * The boot wait (src/run/run-wait.c): the selected ports not ACTIVE yet; their devices'
 * verbs async events wake it (sources NULL: no time left, nothing to open).
 */
static int rdma_wait_setup(struct run *run, struct linkwait_sources *sources,
			   uint64_t *recheck_usec)
{
	_cleanup_(strv_freep) char **devs = NULL;
	int r;

	if (!rdma_of(run))
		return 0;
	r = rdma_wait_devices(rdma_of(run), &devs);
	if (r < 0)
		return r;
	if (!devs || !*devs)
		return 0;
	if (sources) {
		r = rdma_verbs_wait_sources((const char *const *)devs, sources);
		if (r < 0)
			return r;
	}
	return 1;
}

static int rdma_wait_ready_step(struct run *run, char **status)
{
	return rdma_wait_ready(rdma_of(run), status);
}

static void rdma_wait_done_step(struct run *run, uint64_t waited_usec)
{
	rdma_wait_done(rdma_of(run), waited_usec);
}

static int rdma_verify_step(struct run *run)
{
	const struct rdma_run *rr = rdma_of(run);
	int r;

	if (!rr)
		return 0;
	r = rdma_run_check(rr, &run->results);
	return r < 0 ? r : 0;
}

/*
 * rdma.env, from the ports this run verified; none without [Port:*] rules (a file an
 * earlier configuration left goes: jobs must not source ports nobody checked).
 */
static int rdma_publish_step(struct run *run, char **ret)
{
	const struct rdma_run *rr = rdma_of(run);

	*ret = NULL;
	return rr ? rdma_env_format(rr, ret) : 0;
}

/*
 * While no verdict stands (a run that writes is in progress, was killed, or failed),
 * jobs that source the file get nothing stale: it says why and exports nothing. Fixed
 * text: nothing of the host may reach a file that shells and systemd read.
 */
static int rdma_publish_pending(const struct run *run, char **ret)
{
	*ret = NULL;
	if (!rdma_wanted(run))
		return 0;
	*ret = strdup("# RDMA environment for NCCL and UCX, written by hostprep.\n"
		      "# Not ready: a hostprep run is in progress, was killed, or failed "
		      "('hostprep status'\n"
		      "# says which): nothing is exported until a run has a verdict.\n");
	return *ret ? 0 : -ENOMEM;
}

static void rdma_done_step(struct run *run)
{
	struct rdma_mod *m = run_state(run, &run_module_rdma);

	rdma_inventory_done(&m->rr.inv);
	*m = (struct rdma_mod){};
}

const struct run_module run_module_rdma = {
	.name = "rdma",
	.state_size = sizeof(struct rdma_mod),
	.scan = rdma_scan_step,
	.verify = rdma_verify_step,
	.publish_file = "hostprep/rdma.env",
	.publish = rdma_publish_step,
	.publish_pending = rdma_publish_pending,
	.done = rdma_done_step,
	.wait_setup = rdma_wait_setup,
	.wait_ready = rdma_wait_ready_step,
	.wait_done = rdma_wait_done_step,
};
