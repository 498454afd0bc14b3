// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.netns: ib_core's netns_mode. Shared (Y, the default): every RDMA device is
 * visible in every network namespace. Exclusive (N): a device belongs to one namespace
 * and has to be moved into a pod's (what the SR-IOV/RDMA CNI expects); the two need
 * different device plugin setups, so a host in the other mode fails pods quietly.
 */
#include <sys/stat.h>

#include "core/fileio.h"
#include "run/run.h"
#include "workload/workload.h"

#define CHECK "workload.netns"

static const char *remedy_for(enum netns_expect want)
{
	if (want == NETNS_EXCLUSIVE)
		return "now: rdma system set netns exclusive (lost at reboot; refused while other "
		       "network namespaces exist); for good: 'options ib_core netns_mode=0' in "
		       "/etc/modprobe.d/ib_core.conf, then rebuild the initramfs (ib_core loads "
		       "from it) and reboot";
	return "now: rdma system set netns shared (lost at reboot); for good: remove "
	       "netns_mode=0 from the ib_core options in /etc/modprobe.d (or set "
	       "'options ib_core netns_mode=1'), then rebuild the initramfs and reboot";
}

/* Why the parameter file is missing: the module is not loaded, or too old to have it. */
static const char *missing_reason(const struct run *run)
{
	if (sysroot_exists(run->root, SYSROOT_SYS, "module/ib_core") == 0)
		return "ib_core is not loaded: no RDMA netns mode to read";
	return "ib_core has no netns_mode parameter (kernel older than 5.3?)";
}

int workload_netns_verify(struct run *run)
{
	enum netns_expect want = workload_config_get(run->cfg)->netns;
	_cleanup_(freep) char *path = NULL, *line = NULL;
	const char *expected = netns_expect_to_string(want);
	int r, mode;

	if (want == NETNS_ANY)
		return 0;
	path = sysroot_path(run->root, SYSROOT_SYS, "module/ib_core/parameters/netns_mode");
	if (!path)
		return -ENOMEM;
	r = sysroot_read_attr(run->root, SYSROOT_SYS, &line,
			      "module/ib_core/parameters/netns_mode");
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_UNKNOWN,
							  .check = CHECK,
							  .object = "rdma",
							  .expected = expected,
							  .actual = missing_reason(run),
							  .action = ACTION_INSPECT,
						  });
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK,
					    .object = "rdma",
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "cannot read %s: %s", sysroot_strip(run->root, path),
				    strerror(-r));
	mode = workload_parse_netns_mode(line);
	if (mode < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK,
					    .object = "rdma",
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "%s holds '%s', not Y or N", sysroot_strip(run->root, path),
				    line);
	if ((enum netns_expect)mode != want)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = CHECK,
					    .object = "rdma",
					    .expected = expected,
					    .remedy = remedy_for(want),
					    .action = ACTION_CONFIG,
				    },
				    "%s (ib_core netns_mode=%s)", netns_expect_to_string(mode),
				    line);
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = CHECK,
				    .object = "rdma",
				    .expected = expected,
			    },
			    "%s (ib_core netns_mode=%s)", netns_expect_to_string(mode), line);
}
