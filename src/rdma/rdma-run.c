// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's RDMA devices: one scan shared by the rdma module and [Inventory] (each ran
 * rdma_scan() before), owned by the run (struct run_service, src/run/run.h).
 */
#include "rdma/rdma-run.h"

struct rdma_view {
	bool listed; /* rr.inv holds the device list (to free) */
	struct rdma_run rr;
};

static void rdma_view_done(void *state)
{
	struct rdma_view *v = state;

	if (v->listed)
		rdma_inventory_done(&v->rr.inv);
}

static const struct run_service rdma_service = {
	.name = "rdma",
	.size = sizeof(struct rdma_view),
	.done = rdma_view_done,
};

static bool rule_selects(const struct rdma_device *d, void *userdata)
{
	return rdma_rules_select_device(userdata, d);
}

int rdma_run_view(struct run *run, bool all, struct rdma_run **ret)
{
	struct rdma_view *v = run_service(run, &rdma_service);
	int r;

	if (!v)
		return -ENOMEM;
	if (!v->listed) {
		v->rr.root = run->root;
		v->rr.pc = port_config_get(run->cfg);
		r = rdma_scan_devices(run->root, &v->rr.inv);
		v->listed = true;
		if (r < 0)
			return r;
	}
	/* verbs only on the live host: under --root the devices verbs see are not the tree's */
	r = rdma_scan_ports(run->root, &v->rr.inv, all ? NULL : rule_selects,
			    sysroot_is_host(run->root) ? rule_selects : NULL, (void *)v->rr.pc);
	if (r < 0)
		return r;
	*ret = &v->rr;
	return 0;
}
