/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cmdline.h"
#include "pci.h"
#include "plan.h"
#include "result.h"

/* One "acs" result per selected port, evaluated against a fresh inventory. */
int acs_verify(const struct plan *p, const struct pci_inventory *inv, bool apply_enabled,
	       const char *osrelease, struct results *rs);

/*
 * The boot-time form of the same policy: pci=config_acs="<mask>@<path>;..."
 * (Linux 6.11+), ports named by their path from the root bus so the
 * argument survives bus renumbering. -ENODATA when no ACS port is selected,
 * -EACCES when a selected port's config space is unreadable (not root).
 */
int acs_cmdline_format(const struct plan *p, const struct pci_inventory *inv, char **ret);

/* One "acs.cmdline" result: does the running kernel's command line carry it. */
int acs_cmdline_verify(const struct plan *p, const struct pci_inventory *inv,
		       const struct cmdline *cmd, const char *osrelease, struct results *rs);

/* The one remedy for a config-space write the kernel refused (lockdown), for every result. */
const char *acs_write_refused_remedy(const char *osrelease);
/* Did this run's acs.write/acs.revert results see the kernel refuse a write? */
bool acs_writes_refused(const struct results *rs, const char *osrelease);
