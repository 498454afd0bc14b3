// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysctl module: expectations only. hostprep never writes /proc/sys: a setting made
 * at runtime is lost at reboot, the sysctl.d drop-in the remedy names is what lasts.
 */
#include "run/run.h"
#include "sysctl/sysctl.h"

const struct run_module run_module_sysctl = {
	.name = "sysctl",
	.verify = sysctl_verify,
};
