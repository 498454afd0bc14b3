// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one list of pipeline modules. A new capability adds its run module (and, if it has
 * config sections of its own, its config part; if it has commands, each of them) here, and
 * nothing else outside its folder. Order is report order.
 */
#include "modules.h"

/*
 * Declared here, not by including the capabilities' headers: the table is all the
 * plumbing knows of them (each definition is in the capability's folder).
 */
extern const struct run_module run_module_iommu;
extern const struct run_module run_module_acs;
extern const struct run_module run_module_topology;
extern const struct run_module run_module_kmod;
extern const struct run_module run_module_rdma;
extern const struct run_module run_module_rdma_counters;
extern const struct run_module run_module_bond;
extern const struct run_module run_module_workload;
extern const struct run_module run_module_links;
extern const struct run_module run_module_sysctl;
extern const struct run_module run_module_gpus;
extern const struct run_module run_module_p2p_map;
extern const struct run_module run_module_p2p_env;
extern const struct run_module run_module_gpu;
extern const struct run_module run_module_inventory;
extern const struct run_module run_module_aer;
extern const struct run_module run_module_xid;
extern const struct run_module run_module_facts;

const struct run_module *const run_modules[] = {
	&run_module_iommu,     &run_module_acs,	     &run_module_topology,
	&run_module_kmod,      &run_module_rdma,     &run_module_rdma_counters,
	&run_module_bond,      &run_module_workload, &run_module_links,
	&run_module_sysctl,    &run_module_gpus,     &run_module_gpu,
	&run_module_inventory, &run_module_aer,	     &run_module_p2p_map,
	&run_module_p2p_env,   &run_module_xid,	     &run_module_facts,
};
/* run.c asserts it at run time; a table that outgrows it must not build */
_Static_assert(ARRAY_SIZE(run_modules) <= RUN_MODULES_MAX, "run/run.h: RUN_MODULES_MAX");
const size_t n_run_modules = ARRAY_SIZE(run_modules);
const struct run_table run_table = { .v = run_modules, .n = ARRAY_SIZE(run_modules) };

extern const struct config_part iommu_config_part;
extern const struct config_part acs_config_part;
extern const struct config_part kmod_config_part;
extern const struct config_part port_config_part;
extern const struct config_part bond_config_part;
extern const struct config_part workload_config_part;
extern const struct config_part sinks_config_part;
extern const struct config_part topo_config_part;
extern const struct config_part links_config_part;
extern const struct config_part sysctl_config_part;
extern const struct config_part inventory_config_part;
extern const struct config_part aer_config_part;
extern const struct config_part gpu_config_part;
extern const struct config_part xid_config_part;

/* Order is `hostprep config` dump order and the "unknown section" list's. */
const struct config_part *const config_parts[] = {
	&iommu_config_part, &acs_config_part,	   &kmod_config_part,	   &port_config_part,
	&bond_config_part,  &workload_config_part, &sinks_config_part,	   &topo_config_part,
	&links_config_part, &sysctl_config_part,   &inventory_config_part, &aer_config_part,
	&gpu_config_part,   &xid_config_part,
};
const size_t n_config_parts = ARRAY_SIZE(config_parts);
_Static_assert(ARRAY_SIZE(config_parts) <= CONFIG_PARTS_MAX, "struct config has room for each");

/* The pipeline's (cli/run-cmd.c), then each capability's. */
extern const struct command apply_command;
extern const struct command check_command;
extern const struct command revert_command;
extern const struct command status_command;
extern const struct command gate_command;
extern const struct command config_command;
extern const struct command acs_command;
extern const struct command rdma_command;
extern const struct command env_command;
extern const struct command topology_command;
extern const struct command snapshot_command;

/* Order is `hostprep --help` and dispatch order. */
const struct command *const commands[] = {
	&apply_command,	 &check_command,    &status_command,   &gate_command,
	&revert_command, &config_command,   &acs_command,      &rdma_command,
	&env_command,	 &topology_command, &snapshot_command,
};
const size_t n_commands = ARRAY_SIZE(commands);
