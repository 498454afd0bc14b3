/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/acs-cmdline.h"
#include "core/cmdline.h"
#include "pci/pci.h"
#include "acs/plan.h"
#include "core/result.h"

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
/* The same for a PCIe function without extended config space (PCI_CFG_NO_EXT). */
const struct acs_limited_text *acs_no_ext_text(void);
/* The text for why d's ACS cannot be read (d->cfg is not PCI_CFG_FULL). */
const struct acs_limited_text *acs_unreadable_text(const struct pci_dev_info *d);

/* One "acs" result per selected port, evaluated against a fresh inventory. */
int acs_verify(const struct plan *p, const struct pci_inventory *inv, bool apply_enabled,
	       const char *osrelease, struct results *rs);

/* The one remedy for a config-space write the kernel refused (lockdown), for every result. */
const char *acs_write_refused_remedy(const char *osrelease);
