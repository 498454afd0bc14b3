// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVLink in the topology: which GPU pairs NVML says are joined by NVLink, and by how many
 * links (nvml_nvlink_pair()), the way nvidia-smi topo -m prints NV#. PCI sysfs does not
 * show NVLink: without NVML the topology is PCIe only, and says so.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nvml/nvml.h"
#include "topo/topo.h"

#define NV_VENDOR 0x10de

static bool nvidia_gpu(const struct topo_view *v, size_t i)
{
	const struct topo_endpoint *e = &v->topo.eps[i];

	return e->kind == TOPO_GPU && v->inv.devs[e->dev].id.vendor == NV_VENDOR;
}

bool topo_view_has_nvidia(const struct topo_view *v)
{
	for (size_t i = 0; i < v->topo.n; i++)
		if (nvidia_gpu(v, i))
			return true;
	return false;
}

/* What NVML says of the GPU endpoint i, NULL if it does not list it. */
static const struct nvml_gpu *gpu_of(const struct topo_view *v, const struct nvml_facts *f,
				     size_t i)
{
	if (!nvidia_gpu(v, i))
		return NULL;
	return nvml_find(f, v->inv.devs[v->topo.eps[i].dev].addr);
}

int topo_view_set_nvlink(struct topo_view *v, const struct nvml_facts *f)
{
	size_t n = v->topo.n_kind[TOPO_GPU];

	free(v->nvlink);
	v->nvlink = NULL;
	v->nvlink_why[0] = '\0';
	if (!topo_view_has_nvidia(v))
		return 0;
	if (!f || !f->loaded) {
		snprintf(v->nvlink_why, sizeof(v->nvlink_why), "%s",
			 f && f->why[0] ? f->why : "NVML was not asked");
		return 0;
	}
	_cleanup_(freep) const struct nvml_gpu **g = calloc(n ? n : 1, sizeof(*g));

	v->nvlink = calloc(n ? n * n : 1, 1);
	if (!v->nvlink || !g)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) /* NVML's answers per GPU endpoint, looked up once */
		g[i] = gpu_of(v, f, i);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int links = g[i] && g[j] && i != j ? nvml_nvlink_pair(g[i], g[j]) : -1;

			v->nvlink[i * n + j] = (int8_t)(links > 127 ? 127 : links);
		}
	return 0;
}

int topo_view_nvlink(const struct topo_view *v, size_t i, size_t j)
{
	size_t n = v->topo.n_kind[TOPO_GPU];

	if (!v->nvlink || i >= n || j >= n)
		return -1;
	return v->nvlink[i * n + j];
}
