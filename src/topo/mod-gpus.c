// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPU map file: `apply` (the unit at boot) leaves /run/hostprep/gpus.json for
 * containers and job scripts, as it leaves rdma.env: root's apply writes it in the
 * publish step, after the report (not --dry-run). It judges nothing: a GPU without a driver entry
 * is a "problem" in the file and in `hostprep topology`.
 */
#include "core/log.h"
#include "core/run.h"
#include "topo/gpus.h"

static bool gpus_wanted(const struct run *run)
{
	return run->mode == RUN_APPLY && run->privileged;
}

static unsigned gpus_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_caps(info, (void *)topo_config_get(run->cfg));
}

/* From the run's PCI inventory: as the host is after the apply. */
static int gpus_publish(struct run *run)
{
	struct topo_view v;
	struct gpu_map m;
	int r;

	if (!gpus_wanted(run))
		return 0;
	r = run->pci_err;
	if (r >= 0)
		r = topo_view_borrow(&v, run->root, topo_config_get(run->cfg), run->pci,
				     &run->pci_inv);
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
	.wants_pci = gpus_wanted,
	.pci_wants_caps = gpus_pci_wants_caps,
	.publish = gpus_publish,
};
