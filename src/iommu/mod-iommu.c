// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/log.h"
#include "run/run.h"
#include "iommu/iommu.h"

/* The iommu module's state in a run: what the scan read, or why it could not. */
struct iommu_mod {
	struct iommu_state iommu;
	int err;
};

const struct run_module run_module_iommu;

static struct iommu_mod *iommu_mod(const struct run *run)
{
	return run_state(run, &run_module_iommu);
}

static int iommu_mod_scan(struct run *run)
{
	struct iommu_mod *m = iommu_mod(run);
	int r = iommu_scan(run->root, iommu_config_get(run->cfg)->expect, &m->iommu);

	if (r == -ENOMEM)
		return r;
	m->err = r < 0 ? r : 0;
	return 0;
}

static int iommu_mod_verify(struct run *run)
{
	struct iommu_mod *m = iommu_mod(run);

	if (m->err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "iommu.mode",
					    .object = "host",
					    .expected = iommu_expect_to_string(
						    iommu_config_get(run->cfg)->expect),
					    .action = ACTION_INSPECT,
				    },
				    "cannot read the IOMMU state: %s", strerror(-m->err));
	return iommu_verify(&m->iommu, &run->host.cmdline, iommu_config_get(run->cfg)->expect,
			    &run->results);
}

static void iommu_mod_done(struct run *run)
{
	iommu_state_done(&iommu_mod(run)->iommu);
}

const struct run_module run_module_iommu = {
	.name = "iommu",
	.state_size = sizeof(struct iommu_mod),
	.scan = iommu_mod_scan,
	.verify = iommu_mod_verify,
	.done = iommu_mod_done,
};
