// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA ports module: [Port:*] rules against the ports. Read-only (apply waits for
 * ports to come up before judging them); it writes nothing but the rdma.env file that
 * runs writing the report leave for NCCL/UCX jobs.
 */
#include "core/log.h"
#include "rdma/rdma-check.h"
#include "core/run.h"

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
	if (!rdma_wanted(run))
		return 0;
	if (!run->rdma) {
		run->rdma = calloc(1, sizeof(*run->rdma));
		if (!run->rdma)
			return -ENOMEM;
		run->rdma->root = run->root;
		run->rdma->pc = port_config_get(run->cfg);
	}
	return rdma_run_scan(run->rdma, use_verbs(run));
}

/* The boot wait (src/core/run-wait.c): the selected ports not ACTIVE yet, their devices' events. */
static int rdma_wait_setup(struct run *run, char ***rdma_devices, uint64_t *recheck_usec)
{
	char **devs = NULL;
	size_t n = 0, m = 0;
	char **grown;
	int r;

	if (!run->rdma)
		return 0;
	r = rdma_wait_devices(run->rdma, &devs);
	if (r < 0)
		return r;
	while (*rdma_devices && (*rdma_devices)[n])
		n++;
	while (devs && devs[m])
		m++;
	grown = realloc(*rdma_devices, (n + m + 1) * sizeof(*grown));
	if (!grown) {
		strv_free(devs);
		return -ENOMEM;
	}
	memcpy(grown + n, devs, m * sizeof(*grown));
	grown[n + m] = NULL;
	*rdma_devices = grown;
	free(devs); /* the names moved */
	return m > 0;
}

static int rdma_wait_ready_step(struct run *run, char **status)
{
	return rdma_wait_ready(run->rdma, status);
}

static void rdma_wait_done_step(struct run *run, uint64_t waited_usec)
{
	rdma_wait_done(run->rdma, waited_usec);
}

static int rdma_verify_step(struct run *run)
{
	int r;

	if (!run->rdma)
		return 0;
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
	.wait_setup = rdma_wait_setup,
	.wait_ready = rdma_wait_ready_step,
	.wait_done = rdma_wait_done_step,
};
