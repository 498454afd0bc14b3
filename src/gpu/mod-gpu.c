// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPU module: expectations only. hostprep never loads the NVIDIA driver, changes a
 * GPU's mode nor resets one: the remedies say what the admin does.
 */
#include "run/run.h"
#include "gpu/gpu.h"

static bool gpu_wants_pci(const struct run *run)
{
	return gpu_config_get(run->cfg); /* no [GPU]: nothing read or reported */
}

const struct run_module run_module_gpu = {
	.name = "gpu",
	.wants_pci = gpu_wants_pci,
	.verify = gpu_verify,
};
