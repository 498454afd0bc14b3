// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/log.h"
#include "core/run.h"

static int iommu_mod_scan(struct run *run)
{
	int r = iommu_scan(run->root, iommu_config_get(run->cfg)->expect, &run->iommu);

	if (r == -ENOMEM)
		return r;
	run->iommu_err = r < 0 ? r : 0;
	return 0;
}

static int iommu_mod_verify(struct run *run)
{
	if (run->iommu_err < 0)
		return results_addf(&run->results, VERDICT_UNKNOWN, "iommu.mode", "host",
				    iommu_expect_to_string(iommu_config_get(run->cfg)->expect),
				    NULL, "cannot read the IOMMU state: %s",
				    strerror(-run->iommu_err));
	return iommu_verify(&run->iommu, &run->host.cmdline, iommu_config_get(run->cfg)->expect,
			    &run->results);
}

static void iommu_mod_done(struct run *run)
{
	iommu_state_done(&run->iommu);
}

const struct run_module run_module_iommu = {
	.name = "iommu",
	.scan = iommu_mod_scan,
	.verify = iommu_mod_verify,
	.done = iommu_mod_done,
};
