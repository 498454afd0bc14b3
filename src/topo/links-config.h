/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"
#include "pci/selector.h"

/*
 * [Links]: PCIe link speed and width per hop, from each selected endpoint up to its root
 * port (src/topo/links.h says what degraded means).
 *
 *   [Links]
 *     Degraded=warn|fail|ignore   the verdict of a degraded hop (default warn)
 *     Select=SELECTOR...          endpoints (list; address, vendor:device or class: as in
 *                                 [ACS:*], without upstream:); default: the GPUs,
 *                                 accelerators and NICs of the topology (src/topo/topo.h)
 *
 * No [Links] section: the check is off (`hostprep topology` shows the links anyway).
 */

#define LINKS_MAX_SELECTORS 64

enum links_degraded {
	LINKS_DEGRADED_WARN,
	LINKS_DEGRADED_FAIL,
	LINKS_DEGRADED_IGNORE,
	_LINKS_DEGRADED_MAX,
};

struct links_config {
	struct config_singleton head; /* must come first */
	enum links_degraded degraded;
	struct origin degraded_at;
	struct selector_entry *select; /* none: the default classes */
	size_t n_select;
};

extern const struct config_part links_config_part;
/* c's [Links] state; NULL when no file gives such a section. */
static inline const struct links_config *links_config_get(const struct config *c)
{
	return config_part_state(c, &links_config_part);
}

const char *links_degraded_to_string(enum links_degraded d);
/* Does a Select= entry match it? (No Select=: the caller uses the topology's endpoints.) */
bool links_config_selects(const struct links_config *lc, const struct pci_ident *id);
