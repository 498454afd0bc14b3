// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the host is (core/fact.h): the kernel, the PCIe topology's digest, the NVIDIA
 * driver and its GPUs, the RDMA devices' firmware, set on the run for the Prometheus and
 * NFD sinks, so that the fleet's Prometheus finds the odd host out (fleet/prometheus).
 * Judges nothing, adds no result. Read from the run's shared views (the topology, the GPU
 * map's reader of the driver's entries, the RDMA view): no scan of its own, and only in
 * a run that publishes to one of those sinks, whatever the configuration declares, so
 * every such run says the same of the same host.
 */
#include "core/log.h"
#include "rdma/rdma-run.h"
#include "report/sink-config.h"
#include "run/run.h"
#include "topo/gpus.h"
#include "topo/topo-digest.h"

/*
 * Only when a sink will write them: the facts read the topology and the RDMA devices
 * whatever the config declares, a cost no host without node_exporter or NFD (their
 * directory) should pay (fake 65 and 127 count such a run's reads).
 */
static bool facts_wanted(const struct run *run)
{
	return run->publishes && run->cfg && sinks_will_write(run->cfg, run->root);
}

static unsigned facts_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_caps(info, (void *)topo_config_get(run->cfg));
}

static int set1(struct run *run, enum fact_kind k, const char *object, const char *value)
{
	return facts_set(&run->facts, k, object, (const char *const[]){ value, NULL });
}

/* v NULL: the topology could not be read, its digest is unknown. */
static int topology_fact(struct run *run, const struct topo_view *v)
{
	char digest[TOPO_DIGEST_LEN + 1];
	int r = v ? topo_digest(run->root, &v->topo, &v->inv, digest) : -ENODATA;

	if (r == -ENOMEM)
		return r;
	return set1(run, FACT_PCIE_TOPOLOGY, NULL, r < 0 ? NULL : digest);
}

static const char *addr_of(const struct topo_view *v, const struct gpu_entry *g)
{
	return v->inv.devs[v->topo.eps[g->ep].dev].addr;
}

/*
 * The driver's version (the loaded module's, as gpu.driver reads it) wherever it is
 * loaded or an NVIDIA GPU is on the bus (unknown then); each NVIDIA GPU's model and
 * VBIOS from its driver entry (unknown without one): the one source with or without NVML.
 */
static int gpu_facts(struct run *run, const struct topo_view *v)
{
	_cleanup_(freep) char *ver = NULL;
	struct gpu_map m;
	size_t n = 0;
	int r = gpu_map_build(&m, run->root, v);

	for (size_t i = 0; r >= 0 && i < m.n_gpus; i++) {
		const struct gpu_entry *g = &m.gpus[i];

		if (!g->nvidia)
			continue;
		n++;
		r = facts_set(&run->facts, FACT_GPU, addr_of(v, g),
			      (const char *const[]){ g->info ? g->info->model : NULL,
						     g->info ? g->info->vbios : NULL });
	}
	gpu_map_done(&m);
	if (r < 0)
		return r;
	r = sysroot_read_attr(run->root, SYSROOT_SYS, &ver, "module/nvidia/version");
	if (r == -ENOMEM)
		return r;
	if (r < 0 && !n)
		return 0; /* no NVIDIA GPU, no driver: nothing to say */
	return set1(run, FACT_NVIDIA_DRIVER, NULL, r < 0 ? NULL : ver);
}

/* Whether addr is an endpoint of the topology (a virtual function is none). */
static bool is_endpoint(const struct topo_view *v, const char *addr)
{
	for (size_t i = 0; i < v->topo.n; i++)
		if (streq(v->inv.devs[v->topo.eps[i].dev].addr, addr))
			return true;
	return false;
}

/*
 * Every RDMA device of a PCI function: its firmware and board id (unknown where the
 * file is missing). Soft devices (rxe, siw) have no firmware to compare; the devices of
 * SR-IOV virtual functions repeat their PF's, one series each would be noise.
 */
static int rdma_facts(struct run *run, const struct topo_view *v)
{
	struct rdma_run *rr;
	int r = rdma_run_view(run, false, &rr);

	if (r == -ENOMEM)
		return r;
	if (r < 0 || rr->inv.err)
		return 0;
	for (size_t i = 0; r >= 0 && i < rr->inv.n_devs; i++) {
		const struct rdma_device *d = &rr->inv.devs[i];

		if (!d->pci || (v && !is_endpoint(v, d->pci)))
			continue;
		r = facts_set(&run->facts, FACT_RDMA_DEVICE, d->name,
			      (const char *const[]){ d->fw_ver, d->board_id });
	}
	return r;
}

static int facts_verify(struct run *run)
{
	struct topo_view *v = NULL;
	int r;

	if (!facts_wanted(run))
		return 0;
	r = set1(run, FACT_KERNEL, NULL, run->host.osrelease);
	if (r >= 0)
		r = topo_run_view(run, &v);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		v = NULL; /* run->pci_err: the topology's facts are unknown */
	r = topology_fact(run, v);
	if (r >= 0 && v)
		r = gpu_facts(run, v);
	if (r >= 0)
		r = rdma_facts(run, v);
	if (r == -E2BIG)
		log_warning("More than %d host facts: the rest are not published.", FACTS_MAX);
	return r == -ENOMEM ? r : 0;
}

const struct run_module run_module_facts = {
	.name = "facts",
	.wants_pci = facts_wanted,
	.pci_wants_caps = facts_pci_wants_caps,
	.verify = facts_verify,
};
