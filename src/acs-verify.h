/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cmdline.h"
#include "pci.h"
#include "plan.h"
#include "result.h"

/*
 * Why only the first 64 bytes of config space could be read, for this
 * process (pci_limited_cause()): a short form for the plan's counts, and
 * the actual and remedy of an "unknown" result.
 */
struct acs_limited_text {
	const char *why;
	const char *actual;
	const char *remedy;
};
const struct acs_limited_text *acs_limited_text(enum pci_limited_cause c);

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
