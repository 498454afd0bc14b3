/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cmdline.h"
#include "config.h"
#include "result.h"
#include "sysroot.h"

/*
 * IOMMU: what the kernel was asked for (command line) and what it did
 * (/sys/class/iommu units, /sys/kernel/iommu_groups/N/type). The dmesg
 * "Default domain type" line is printed even without IOMMU hardware, so it
 * is not evidence; the groups are.
 */
enum iommu_group_type {
	IOMMU_GROUP_IDENTITY,
	IOMMU_GROUP_DMA,
	IOMMU_GROUP_DMA_FQ,
	IOMMU_GROUP_UNMANAGED,
	IOMMU_GROUP_BLOCKED,
	IOMMU_GROUP_OTHER,
	_IOMMU_GROUP_TYPE_MAX,
};

enum iommu_mode {
	IOMMU_MODE_OFF,
	IOMMU_MODE_PASSTHROUGH,
	IOMMU_MODE_TRANSLATED,
	IOMMU_MODE_MIXED,
	IOMMU_MODE_UNKNOWN,
};

#define IOMMU_MAX_UNITS 256

struct iommu_state {
	char **units; /* NULL-terminated, sorted: dmar0, ivhd0, smmu3.0x..., virtio-iommu ... */
	size_t n_units;
	size_t n_groups;
	size_t groups[_IOMMU_GROUP_TYPE_MAX];
};

int iommu_scan(const struct sysroot *root, struct iommu_state *ret);
void iommu_state_done(struct iommu_state *s);
enum iommu_mode iommu_mode(const struct iommu_state *s);
const char *iommu_mode_to_string(enum iommu_mode m);

/* One "iommu.mode" result for the host. */
int iommu_verify(const struct iommu_state *s, const struct cmdline *cmd, enum iommu_expect expect,
		 struct results *rs);
