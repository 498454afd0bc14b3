// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload module: checks only, nothing to plan or write. It reads at verify time,
 * so a check after an apply sees what the other modules left.
 */
#include "run/run.h"
#include "workload/workload.h"

static int workload_verify_step(struct run *run)
{
	int r;

	if (!workload_config_get(run->cfg))
		return 0; /* no [Workload] section: nothing read, nothing reported */
	r = workload_memlock_verify(run);
	if (r >= 0)
		r = workload_devices_verify(run);
	if (r >= 0)
		r = workload_netns_verify(run);
	return r;
}

const struct run_module run_module_workload = {
	.name = "workload",
	.verify = workload_verify_step,
};
