/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/result.h"
#include "core/sysroot.h"

struct config;

/*
 * The header every report carries (docs/report-schema.md), made in one place for a run's
 * report, a report about the run itself and the report of `acs cmdline --install`.
 */

/* The report's time: now, or SOURCE_DATE_EPOCH when set (reproducible golden tests). */
uint64_t report_time(void);
/* <root>/proc/sys/kernel/hostname, "unknown" when it cannot be read; malloc'd, NULL: ENOMEM. */
char *root_hostname(const struct sysroot *root);
/*
 * *rep = schema REPORT_SCHEMA_VERSION, this version, command ("check", "apply --dry-run",
 * "acs cmdline --install", ...), host (copied; NULL: "unknown"), report_time(), applied
 * ([Host] Apply=yes in effect) and no results. -ENOMEM leaves *rep empty (report_done() safe).
 */
int report_init(struct report *rep, const char *command, const char *host, bool applied);
/*
 * The configuration the run used: cfg's digest and its files as shown (without the root
 * prefix). cfg NULL or not loaded (no digest): both stay NULL, the report says null and [].
 * 0 or -ENOMEM.
 */
int report_set_config(struct report *rep, const struct config *cfg);
