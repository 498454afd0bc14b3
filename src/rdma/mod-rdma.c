// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA ports module: [Port:*] rules against the ports. Read-only (apply waits for
 * ports to come up before judging them); it writes nothing, and gives the content of the
 * rdma.env file that publishing runs leave for NCCL/UCX jobs.
 */
#include "core/log.h"
#include "rdma/rdma-run.h"
#include "rdma/rdma-verbs.h"
#include "run/run.h"

static bool rdma_wanted(const struct run *run)
{
	return port_config_get(run->cfg) && port_config_get(run->cfg)->n_rules;
}

/*
 * The selected ports, from the run's RDMA view (src/rdma/rdma-run.h): read on first use
 * after the write steps, so a device a module load brought is seen; NULL without rules.
 */
static int rdma_of(struct run *run, struct rdma_run **ret)
{
	*ret = NULL;
	return rdma_wanted(run) ? rdma_run_view(run, false, ret) : 0;
}

/*
 * The boot wait (src/run/run-wait.c): the selected ports not ACTIVE yet; their devices'
 * verbs async events wake it (sources NULL: no time left, nothing to open).
 */
static int rdma_wait_setup(struct run *run, struct linkwait_sources *sources,
			   uint64_t *recheck_usec)
{
	_cleanup_(strv_freep) char **devs = NULL;
	struct rdma_run *rr;
	int r;

	r = rdma_of(run, &rr);
	if (r < 0 || !rr)
		return r;
	r = rdma_wait_devices(rr, &devs);
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

/* Only called after wait_setup said 1: the view is there. */
static int rdma_wait_ready_step(struct run *run, char **status)
{
	struct rdma_run *rr;
	int r = rdma_of(run, &rr);

	return r < 0 ? r : rdma_wait_ready(rr, status);
}

static int rdma_wait_done_step(struct run *run, uint64_t waited_usec, bool timed_out)
{
	struct rdma_run *rr;
	int r = rdma_of(run, &rr);

	return r < 0 || !rr ? r : rdma_wait_done(rr, waited_usec, timed_out);
}

static int rdma_verify_step(struct run *run)
{
	struct rdma_run *rr;
	int r = rdma_of(run, &rr);

	if (r < 0 || !rr)
		return r;
	r = rdma_run_check(rr, &run->results);
	if (r >= 0)
		r = rdma_hcoll_result(rr, &run->results);
	return r < 0 ? r : 0;
}

/*
 * rdma.env, from the ports this run verified; none without [Port:*] rules (a file an
 * earlier configuration left goes: jobs must not source ports nobody checked).
 */
static int rdma_publish_step(struct run *run, char **ret)
{
	struct rdma_run *rr;
	int r = rdma_of(run, &rr);

	*ret = NULL;
	return r < 0 || !rr ? r : rdma_env_format(rr, ret);
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

const struct run_module run_module_rdma = {
	.name = "rdma",
	.verify = rdma_verify_step,
	.publish_file = "hostprep/rdma.env",
	.publish = rdma_publish_step,
	.publish_pending = rdma_publish_pending,
	.wait_setup = rdma_wait_setup,
	.wait_ready = rdma_wait_ready_step,
	.wait_done = rdma_wait_done_step,
};
