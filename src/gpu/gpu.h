/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"

/*
 * [GPU]: the NVIDIA driver and GPUs, checked only (hostprep never loads the driver nor
 * resets a GPU). No [GPU] section (the default): nothing is read.
 *
 *   [GPU]
 *     MinDriver=VERSION  the loaded nvidia module's version is at least this (580.65.06;
 *                        fields compared as numbers)
 *     Driver=VERSION     ... is exactly this
 *     Persistence=yes|any  every GPU in persistence mode (nvidia-persistenced running, or
 *                        nvidia-smi -pm 1): default yes. NVML only.
 *     MIG=on|off|any     the MIG mode every GPU is in now and after its next reset
 *                        (default any). NVML only.
 *     MinVBIOS=VERSION   every GPU's VBIOS at least this (96.00.DA.00.0C; fields as hex)
 *     NVLinks=all|any|N  each GPU's NVLinks active: all that NVML reports for it (the
 *                        default), at least N, or not judged. NVML only.
 *
 * Always, once declared: every NVIDIA GPU on the bus (vendor 10de, class 0300/0302) is
 * initialised by the driver (its /proc/driver/nvidia/gpus entry), and its memory is
 * healthy (no uncorrectable ECC error since the driver loaded, no row remap pending or
 * failed, no retired page pending: NVML); each GPU NVML reports NVLinks for (or every
 * GPU, on an NVSwitch host) has them active (NVLinks=); on a host with NVSwitch functions
 * on the bus, the fabric manager is active and every GPU's fabric state is completed
 * with success; any GPU whose fabric info NVML answers (GB200 trays: no NVSwitch on the
 * bus) is judged on it too.
 *
 * NVML: the live host's libnvidia-ml.so.1 (dlopen'd, src/nvml/nvml-api.h). Under --root
 * the host's NVML describes another machine: the answers come from the root's recorded
 * file (NVML_RECORD below /run, src/nvml/nvml-run.h, written by `hostprep snapshot`, in the format
 * of tests/device/nvml-probe), else what needs NVML is unknown.
 */

#define GPU_VERSION_MAX 64

enum gpu_tristate { GPU_ANY, GPU_ON, GPU_OFF };

#define GPU_NVLINKS_ALL (-1) /* every link the GPU has */
#define GPU_NVLINKS_ANY (-2) /* not judged */
#define GPU_NVLINKS_MAX 18   /* NVML_NVLINK_MAX_LINKS */

struct gpu_config {
	struct config_singleton head; /* must come first */
	char min_driver[GPU_VERSION_MAX];
	struct origin min_driver_at;
	char driver[GPU_VERSION_MAX];
	struct origin driver_at;
	char min_vbios[GPU_VERSION_MAX];
	struct origin min_vbios_at;
	bool persistence; /* Persistence=yes */
	struct origin persistence_at;
	enum gpu_tristate mig;
	struct origin mig_at;
	int nvlinks; /* GPU_NVLINKS_ALL, GPU_NVLINKS_ANY or at least this many */
	struct origin nvlinks_at;
};

extern const struct config_part gpu_config_part;
static inline const struct gpu_config *gpu_config_get(const struct config *c)
{
	return config_part_state(c, &gpu_config_part);
}

/* Dotted versions, fields compared as numbers in base (10: drivers, 16: VBIOS): <0 = >0. */
int gpu_version_cmp(const char *a, const char *b, int base);
/* Whether s is such a version: 1 to 8 fields of digits of base, dot-separated. */
bool gpu_version_valid(const char *s, int base);

/* NVLinks='s value as written back: "all", "any" or the number. */
const char *gpu_nvlinks_text(int nvlinks, char *buf, size_t size);

struct run;
int gpu_verify(struct run *run);
