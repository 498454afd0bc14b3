/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"

/*
 * The IOMMU part of the configuration:
 *
 *   [IOMMU]
 *     Expect=any|off|passthrough|translated   the mode the kernel should run the IOMMU
 *                                             in (default any: nothing is checked)
 *
 * The last assignment wins, an empty one restores the default; the section may be given
 * more than once, in one file too. A bad value is logged "file:line: reason" and returned
 * as -EINVAL, which config.c counts like its own errors.
 */

enum iommu_expect {
	IOMMU_EXPECT_ANY,
	IOMMU_EXPECT_OFF,
	IOMMU_EXPECT_PASSTHROUGH,
	IOMMU_EXPECT_TRANSLATED,
	_IOMMU_EXPECT_MAX,
};

struct iommu_config {
	enum iommu_expect expect;
	struct origin expect_at; /* .file NULL: the default */
};

extern const struct config_part iommu_config_part; /* for src/modules.c */

/* c's [IOMMU] settings; never NULL: the defaults when no file has the section. */
const struct iommu_config *iommu_config_get(const struct config *c);

const char *iommu_expect_to_string(enum iommu_expect e);
