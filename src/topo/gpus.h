/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "topo/topo.h"

/*
 * The GPU map without NVML: for every GPU/accelerator of the topology, its PCI address,
 * the NVIDIA driver's facts from <root>/proc/driver/nvidia/gpus/DDDD:BB:DD.F/information
 * (Model, GPU UUID, Device Minor; present while the nvidia module is loaded), NUMA node,
 * local CPUs and the nearest NIC(s) with their distance class. What containers need to
 * turn NVIDIA_VISIBLE_DEVICES UUIDs into CUDA_VISIBLE_DEVICES indexes and to pin NICs.
 *
 * "index" is an NVIDIA GPU's position in PCI address order among the NVIDIA GPUs only:
 * nvidia-smi's index and CUDA's with CUDA_DEVICE_ORDER=PCI_BUS_ID (CUDA's default order is
 * fastest-first); the other vendors' GPUs and accelerators do not shift it. They have no
 * index (-1, null in JSON, "-" in text) and no such file: their driver facts are null and
 * the map still gives address, NUMA node, CPUs and NICs. An NVIDIA GPU on PCI without an
 * entry, and an entry without a PCI function, are listed as problems.
 * docs/gpus-schema.md documents the JSON.
 */

#define GPU_UUID_MAX  64
#define GPU_MODEL_MAX 96
#define GPU_INFO_MAX  4096
#define GPU_NICS_MAX  16

/* One information file, parsed. */
struct nv_info {
	char addr[PCI_ADDR_LEN]; /* Bus Location, canonical lowercase */
	char uuid[GPU_UUID_MAX]; /* "GPU-..." */
	char model[GPU_MODEL_MAX];
	int minor;	/* Device Minor: /dev/nvidiaN; -1 unknown */
	char vbios[32]; /* Video BIOS: "96.00.da.00.0c" ("" without one) */
	bool excluded;	/* GPU Excluded: Yes (NVreg_ExcludedGpus): no tool sees it */
};

struct gpu_nic {
	size_t ep; /* index into topology.eps */
	enum topo_dist dist;
};

struct gpu_entry {
	size_t ep;			   /* index into topology.eps */
	int index;			   /* nvidia-smi's: PCI order among NVIDIA GPUs; -1 other */
	bool nvidia;			   /* vendor 10de: a driver entry is expected */
	const struct nv_info *info;	   /* NULL: no driver entry */
	struct gpu_nic nics[GPU_NICS_MAX]; /* the nearest, all at one class */
	size_t n_nics;
};

struct gpu_map {
	bool driver_loaded;    /* <root>/proc/driver/nvidia/gpus exists */
	struct nv_info *infos; /* every entry read, by address */
	size_t n_infos;
	struct gpu_entry *gpus;
	size_t n_gpus;
};

/* Parse an information file; -EINVAL when Bus Location is missing or malformed. */
int nv_info_parse(const char *text, struct nv_info *ret);

/* Read the driver entries and build the map over v's topology. Only -ENOMEM fails. */
int gpu_map_build(struct gpu_map *m, const struct sysroot *root, const struct topo_view *v);
void gpu_map_done(struct gpu_map *m);

/* Driver entries whose address is no PCI GPU of the topology (a GPU fallen off the bus). */
bool gpu_map_info_orphan(const struct gpu_map *m, const struct topo_view *v, size_t i);

/* The map as text (the "GPUs" section of `hostprep topology`) or as the gpus.json
 * document (also the "gpu_map" member of `topology --json`). */
struct emit;
void gpu_map_emit(const struct gpu_map *m, const struct topo_view *v, struct emit *e);
/* The "GPUs" section of `hostprep topology`, text and JSON ("gpu_map"): links-show.c. */
int gpus_show(const struct topo_view *v, struct emit *e);

/* The gpus.json file's text (the document and a newline), malloc'd; -ENOMEM. */
int gpu_map_text(const struct gpu_map *m, const struct topo_view *v, char **ret);
