// SPDX-License-Identifier: GPL-2.0-or-later
/* `hostprep rdma` and `hostprep env`: the RDMA ports as they are now. */
#include <json-c/json.h>

#include "cli/cli.h"
#include "core/log.h"
#include "rdma/rdma-check.h"

/* `hostprep rdma`: every RDMA device and port, no config needed. */
static int cmd_rdma(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	struct rdma_inventory inv = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = rdma_scan(&root, sysroot_is_host(&root), NULL, NULL, &inv);
	if (r < 0) {
		rdma_inventory_done(&inv);
		return log_error_errno(r, "Failed to read the RDMA devices: %m");
	}
	if (o->json) {
		struct json_object *j = rdma_table_json(&inv);

		if (j)
			print_json(j);
		r = j ? 0 : -ENOMEM;
		json_object_put(j);
	} else {
		r = rdma_table_print(&inv, stdout);
	}
	rdma_inventory_done(&inv);
	return r < 0 ? log_error_errno(r, "Failed to print the RDMA table: %m") : 0;
}

/* `hostprep env`: what rdma.env holds, computed from the ports as they are now. */
static int cmd_env(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(freep) char *text = NULL;
	struct rdma_run rr = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	if (!port_config_get(&cfg) || !port_config_get(&cfg)->n_rules) {
		log_error(
			"No [Port:*] rule: the RDMA environment comes from the ports they select.");
		return EXIT_NOT_READY;
	}
	rr = (struct rdma_run){ .root = &root, .pc = port_config_get(&cfg) };
	r = rdma_run_scan(&rr, sysroot_is_host(&root));
	if (r >= 0)
		r = rdma_env_format(&rr, &text);
	rdma_inventory_done(&rr.inv);
	if (r < 0)
		return log_error_errno(r, "Failed to compute the RDMA environment: %m");
	fputs(text, stdout);
	return 0;
}

const struct command rdma_command = {
	.name = "rdma",
	.run = cmd_rdma,
	.help = "rdma                RDMA device/port, netdev, PCI function and bond table",
};

const struct command env_command = {
	.name = "env",
	.run = cmd_env,
	.help = "env                 print the NCCL/UCX environment (rdma.env) live",
};
