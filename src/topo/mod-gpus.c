// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPU map file: `apply` (the unit at boot) leaves /run/hostprep/gpus.json for
 * containers and job scripts, as it leaves rdma.env. Only a run that writes the report
 * writes it (root, not --dry-run). It judges nothing: a GPU without a driver entry is a
 * "problem" in the file and in `hostprep topology`.
 */
#include "core/log.h"
#include "core/run.h"
#include "topo/gpus.h"

static int gpus_verify(struct run *run)
{
	struct topo_view v;
	struct gpu_map m;
	int r;

	if (run->mode != RUN_APPLY || geteuid() != 0)
		return 0;
	r = topo_view_open(&v, run->root, topo_config_get(run->cfg));
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		log_warning_errno(r, "Failed to read the PCI topology for gpus.json, ignoring: %m");
		return 0;
	}
	r = gpu_map_build(&m, run->root, &v);
	if (r >= 0) {
		r = gpu_map_write(&m, &v, run->root);
		if (r < 0 && r != -ENOMEM) {
			log_warning_errno(r, "Failed to write gpus.json, ignoring: %m");
			r = 0;
		}
		gpu_map_done(&m);
	}
	topo_view_done(&v);
	return r;
}

const struct run_module run_module_gpus = {
	.name = "gpus",
	.verify = gpus_verify,
};
