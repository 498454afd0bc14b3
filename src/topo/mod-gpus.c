// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPU map file: an apply or revert that publishes (the unit's apply at boot: the
 * command layer decides which runs publish) leaves /run/hostprep/gpus.json for
 * containers and job scripts, as it leaves rdma.env: this module gives the content, the
 * one publish step writes it with the report (and removes it while a run that writes is
 * in progress). A check does not read the GPU topology (it reads what its rules need):
 * it keeps the file. It judges nothing: a GPU without a driver entry is a "problem" in
 * the file and in `hostprep topology`.
 */
#include "core/log.h"
#include "run/run.h"
#include "topo/gpus.h"

/* An apply or revert that publishes (run->publishes: the command layer's fact). */
static bool gpus_wanted(const struct run *run)
{
	return run->publishes && (run->mode == RUN_APPLY || run->mode == RUN_REVERT);
}

static unsigned gpus_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_view_caps(info, (void *)topo_config_get(run->cfg));
}

/* From the run's PCI inventory: as the host is after the apply. NULL: no map to give. */
static int gpus_publish(struct run *run, char **ret)
{
	struct topo_view *v;
	struct gpu_map m;
	int r;

	*ret = NULL;
	if (!gpus_wanted(run))
		return RUN_PUBLISH_KEEP;
	r = topo_run_view(run, &v);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		log_warning_errno(r,
				  "Failed to read the PCI topology for gpus.json, removing it: %m");
		return 0;
	}
	r = gpu_map_build(&m, run->root, v);
	if (r >= 0) {
		r = gpu_map_text(&m, v, ret);
		gpu_map_done(&m);
	}
	return r;
}

/* No publish_pending: while no verdict stands there is no map (the file is removed). */
const struct run_module run_module_gpus = {
	.name = "gpus",
	.wants_pci = gpus_wanted,
	.pci_wants_caps = gpus_pci_wants_caps,
	.publish_file = "hostprep/gpus.json",
	.publish = gpus_publish,
};
