/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/result.h"
#include "core/sysroot.h"

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
