/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "bond/bond-parse.h"
#include "run/config.h"

/*
 * The bonding part of the configuration: [Bond:IFNAME], one section per bond.
 *
 *   [Bond:IFNAME]   IFNAME a valid interface name (1-15 bytes, no '/', ':' or blanks)
 *     Mode=balance-rr|active-backup|balance-xor|broadcast|802.3ad|balance-tlb|balance-alb
 *                   (unset: any mode)
 *     MinSlavesUp=N (1-64; unset: every slave)
 *     Miimon=yes|no (default yes: miimon must be > 0)
 *     RDMA=NAME     the mlx5 RoCE LAG device that must sit on this bond
 *
 * Scalar keys, the last assignment wins, an empty one restores the default. A section
 * repeated in one file is an error; in a later file it overrides (drop-ins). A rule that
 * cannot be satisfied (RDMA= with a mode mlx5 cannot offload as LAG) is an error once all
 * files are read. Every problem is logged "file:line: reason" and returned as -EINVAL.
 */

#define BOND_MAX_RULES 32
#define BOND_MODE_ANY  (-1)

struct bond_rule {
	char name[BOND_IFNAME_MAX + 1];
	struct origin at; /* first header */
	int mode;	  /* enum bond_mode or BOND_MODE_ANY */
	struct origin mode_at;
	unsigned min_slaves_up; /* 0: every slave */
	struct origin min_at;
	bool miimon;
	struct origin miimon_at;
	char *rdma; /* NULL: no LAG device asked for */
	struct origin rdma_at;
	struct config_header header; /* for duplicates within one file */
};

struct bond_config {
	struct bond_rule *rules;
	size_t n_rules;
	size_t cur;
};

/* mlx5 offloads a bond as RoCE LAG only in these modes (mlx5_lag_is_supported / mode 1,2,4). */
bool bond_mode_lag_capable(int mode);

extern const struct config_part bond_config_part; /* for src/modules.c */
/* c's [Bond:*] state; NULL when no file gives such a section. */
static inline const struct bond_config *bond_config_get(const struct config *c)
{
	return config_part_state(c, &bond_config_part);
}
