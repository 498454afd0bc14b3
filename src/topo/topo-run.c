// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's topology: one classification of the endpoints per state of the host, however
 * many modules read it ([Topology] ExpectP2P=, the GPU map, [Inventory], [AER] each built
 * their own before). The run owns its lifetime (struct run_service, src/run/run.h).
 */
#include "run/run.h"
#include "nvml/nvml-run.h"
#include "topo/topo.h"

struct topo_run {
	bool endpoints; /* v holds the classification */
	bool complete;	/* ... and the capabilities and paths */
	bool nvlink;	/* ... and NVML's NVLink answers (or why there are none) */
	struct topo_view v;
};

static void topo_run_done(void *state)
{
	struct topo_run *t = state;

	if (t->endpoints)
		topo_view_done(&t->v);
}

static const struct run_service topo_service = {
	.name = "topology",
	.size = sizeof(struct topo_run),
	.done = topo_run_done,
};

static int endpoints(struct run *run, struct topo_run **ret)
{
	struct topo_run *t = run_service(run, &topo_service);
	int r;

	if (!t)
		return -ENOMEM;
	*ret = t;
	if (t->endpoints)
		return 0;
	if (run->pci_err < 0)
		return run->pci_err;
	r = topo_view_borrow(&t->v, run->root, topo_config_get(run->cfg), run->pci, &run->pci_inv,
			     false);
	if (r < 0)
		return r;
	t->endpoints = true;
	return 0;
}

int topo_run_endpoints(struct run *run, const struct topology **ret)
{
	struct topo_run *t;
	int r = endpoints(run, &t);

	if (r < 0)
		return r;
	*ret = &t->v.topo;
	return 0;
}

int topo_run_view(struct run *run, struct topo_view **ret)
{
	struct topo_run *t;
	int r = endpoints(run, &t);

	if (r < 0)
		return r;
	if (!t->complete) {
		r = topo_view_complete(&t->v);
		if (r < 0) {
			topo_view_done(&t->v);
			t->endpoints = false;
			return r;
		}
		t->complete = true;
	}
	*ret = &t->v;
	return 0;
}

int topo_run_nvlink(struct run *run, bool ask, struct topo_view **ret)
{
	struct topo_run *t = run_service(run, &topo_service);
	const struct nvml_view *nv = NULL;
	int r = topo_run_view(run, ret);

	if (r < 0)
		return r;
	if (t->nvlink || !topo_view_has_nvidia(&t->v))
		return 0;
	if (ask) {
		r = nvml_run_view(run, &nv);
		if (r < 0)
			return r;
	} else {
		nv = nvml_run_peek(run);
	}
	if (!nv) { /* asked again by a reader that may ask */
		snprintf(t->v.nvlink_why, sizeof(t->v.nvlink_why),
			 "this run did not ask NVML: a [GPU] section or an ExpectP2P= pair does");
		return 0;
	}
	r = topo_view_set_nvlink(&t->v, &nv->facts);
	if (r >= 0)
		t->nvlink = true;
	return r;
}
