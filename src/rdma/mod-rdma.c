// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA ports module: [Port:*] rules against the ports. Read-only (apply waits for
 * ports to come up before judging them); it writes nothing but the rdma.env file that
 * runs writing the report leave for NCCL/UCX jobs.
 */
#include "linkwait.h"
#include "log.h"
#include "rdma/rdma-check.h"
#include "run.h"

static bool rdma_wanted(const struct run *run)
{
	return run->cfg->port && run->cfg->port->n_rules;
}

/* verbs only on the live host: under --root the devices verbs see are not the tree's */
static bool use_verbs(const struct run *run)
{
	return sysroot_is_host(run->root);
}

static int rdma_scan_step(struct run *run)
{
	if (!rdma_wanted(run))
		return 0;
	if (!run->rdma) {
		run->rdma = calloc(1, sizeof(*run->rdma));
		if (!run->rdma)
			return -ENOMEM;
		run->rdma->root = run->root;
		run->rdma->pc = run->cfg->port;
	}
	return rdma_run_scan(run->rdma, use_verbs(run));
}

static void strv_freep(char ***v)
{
	strv_free(*v);
}

/*
 * Boot: wait for the selected ports that are not ACTIVE yet, up to [Host] Wait= after the
 * run started, woken by link and verbs events (src/linkwait.c), then judge them. Waiting
 * writes nothing, so every apply waits, Apply=no too: the unit at boot must not call a
 * port that is still training "down". check never waits.
 */
static void rdma_wait(struct run *run)
{
	_cleanup_(strv_freep) char **devs = NULL;
	struct linkwait_target t = { .ready = rdma_wait_ready, .userdata = run->rdma };
	int r;

	if (run->mode != RUN_APPLY || !run->cfg->wait_usec || !sysroot_is_host(run->root))
		return;
	r = rdma_wait_devices(run->rdma, &devs);
	if (r >= 0) {
		t.rdma_devices = (const char *const *)devs;
		r = linkwait(run->root, &t, run->started_usec + run->cfg->wait_usec);
	}
	if (r == 0)
		rdma_wait_done(run->rdma, linkwait_now_usec() - run->started_usec);
	else if (r < 0)
		log_warning_errno(r, "Waiting for RDMA ports failed, judging them as they are: %m");
}

static int rdma_verify_step(struct run *run)
{
	int r;

	if (!run->rdma)
		return 0;
	rdma_wait(run);
	r = rdma_run_check(run->rdma, &run->results);
	if (r < 0)
		return r;
	/* the env file follows the report: only runs that write the report write it */
	if (geteuid() != 0 || run->mode == RUN_DRY_RUN)
		return 0;
	r = rdma_env_write(run->rdma);
	if (r < 0)
		log_warning_errno(r, "Failed to write the RDMA environment file, ignoring: %m");
	return 0;
}

static void rdma_done_step(struct run *run)
{
	rdma_run_free(run->rdma);
	run->rdma = NULL;
}

const struct run_module run_module_rdma = {
	.name = "rdma",
	.scan = rdma_scan_step,
	.verify = rdma_verify_step,
	.done = rdma_done_step,
};
