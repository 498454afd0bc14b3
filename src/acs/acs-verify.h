/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/acs-cmdline.h"
#include "core/cmdline.h"
#include "pci/pci.h"
#include "acs/plan.h"
#include "core/result.h"

/* One "acs" result per selected port, evaluated against a fresh inventory. */
int acs_verify(const struct plan *p, const struct pci_inventory *inv, bool apply_enabled,
	       const char *osrelease, struct results *rs);

/* The one remedy for a config-space write the kernel refused (lockdown), for every result. */
const char *acs_write_refused_remedy(const char *osrelease);
