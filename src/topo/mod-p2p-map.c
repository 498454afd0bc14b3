// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The P2P truth for jobs: an apply or revert that publishes leaves
 * /run/hostprep/p2p.json (docs/p2p-schema.md), world-readable, beside gpus.json and
 * rdma.env: this module gives the content, the one publish step writes it with the
 * report, in order, and removes it while a run that writes is in progress or after one
 * failed (no publish_pending: no verdict stands, so no file claims one). A check does not
 * read every GPU's path (it reads what its rules need): it keeps the last file, whose
 * verdict is the last apply's; report.json says whether the host still agrees.
 */
#include "core/log.h"
#include "run/run.h"
#include "topo/p2p-map.h"

static bool p2p_map_wanted(const struct run *run)
{
	return run->publishes && (run->mode == RUN_APPLY || run->mode == RUN_REVERT);
}

static unsigned p2p_map_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_view_caps(info, (void *)topo_config_get(run->cfg));
}

/*
 * From the run's topology view, as the host is after the apply (read again after it
 * wrote): FILE's content by format(), or none (the file removed) when the view cannot
 * be read.
 */
static int p2p_publish(struct run *run, const char *file,
		       int (*format)(const struct topo_view *v, char **ret), char **ret)
{
	struct topo_view *v;
	int r;

	*ret = NULL;
	if (!p2p_map_wanted(run))
		return RUN_PUBLISH_KEEP;
	r = topo_run_nvlink(run, false, &v); /* NVLink when a module of this run read NVML */
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		log_warning_errno(r, "Failed to read the PCI topology for %s, removing it: %m",
				  file);
		return 0;
	}
	return format(v, ret);
}

static int p2p_map_publish(struct run *run, char **ret)
{
	return p2p_publish(run, "p2p.json", p2p_map_text, ret);
}

/* p2p.env: the same verdict as variables, for job scripts (p2p-map.h). */
static int p2p_env_publish(struct run *run, char **ret)
{
	return p2p_publish(run, "p2p.env", p2p_map_env, ret);
}

/* Two files, one view: a module publishes one file. */
const struct run_module run_module_p2p_env = {
	.name = "p2p-env",
	.wants_pci = p2p_map_wanted,
	.pci_wants_caps = p2p_map_pci_wants_caps,
	.publish_file = "hostprep/p2p.env",
	.publish = p2p_env_publish,
};

const struct run_module run_module_p2p_map = {
	.name = "p2p-map",
	.wants_pci = p2p_map_wanted,
	.pci_wants_caps = p2p_map_pci_wants_caps,
	.publish_file = "hostprep/p2p.json",
	.publish = p2p_map_publish,
};
