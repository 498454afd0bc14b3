/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/cmdline.h"
#include "iommu/iommu-config.h"
#include "core/result.h"
#include "core/sysroot.h"

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

#define IOMMU_MAX_UNITS	       256
#define IOMMU_MAX_GROUP_DETAIL 4096 /* groups whose devices are kept for remedies */
#define IOMMU_MAX_GROUP_DEVS   64

/* One group, so that a remedy can name it and what is in it. */
struct iommu_group {
	char *name; /* the group number, as in the directory name */
	enum iommu_group_type type;
	char **devices; /* NULL-terminated, sorted: "0000:3a:00.0" */
	char **drivers; /* parallel to devices: bound driver, "" when none */
	size_t n_devices;
	bool matters; /* neither identity nor DMA, with a GPU, accelerator or NIC in it */
};

struct iommu_state {
	char **units; /* NULL-terminated, sorted: dmar0, ivhd0, smmu3.0x..., virtio-iommu ... */
	size_t n_units;
	size_t n_groups;
	size_t groups[_IOMMU_GROUP_TYPE_MAX];
	struct iommu_group *group; /* sorted by number; may be NULL (counts only) */
	size_t n_group;
	char *groups_dir; /* <root>/sys/kernel/iommu_groups as scanned, for remedies; may be NULL */
	bool untyped;	  /* Expect=any: groups counted, their type not read (groups[] all 0) */
	/*
	 * Groups whose type says nothing about translation (unmanaged, blocked, unreadable)
	 * holding a device that matters (a GPU, accelerator or NIC): then the other groups'
	 * identity or DMA is partial evidence, and the mode is unknown.
	 */
	size_t n_opaque_matter;
};

/*
 * Reads what expect needs and no more: with Expect=any only the units and the
 * number of groups (no iommu_groups/N/type, one file per group); otherwise the
 * types, and the members and their drivers only when the mode misses expect
 * (the remedy names them).
 */
int iommu_scan(const struct sysroot *root, enum iommu_expect expect, struct iommu_state *ret);
void iommu_state_done(struct iommu_state *s);
enum iommu_mode iommu_mode(const struct iommu_state *s);
const char *iommu_mode_to_string(enum iommu_mode m);

/*
 * One "iommu.mode" result for the host. The remedy is built from what is on
 * the command line: it never asks to add a word that is already there, or to
 * remove one that is not; when the kernel was asked for the expected mode and
 * did something else, it names the groups that differ and their devices.
 */
int iommu_verify(const struct iommu_state *s, const struct cmdline *cmd, enum iommu_expect expect,
		 struct results *rs);
