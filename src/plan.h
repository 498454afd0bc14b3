/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "config.h"
#include "pci.h"

/*
 * Plan: config × inventory → what should be true (targets) and the writes
 * that would make it so (actions). Pure: reads nothing, writes nothing.
 */
struct acs_target {
	char addr[PCI_ADDR_LEN];
	struct acs_mask mask;	      /* merged over every rule that selects the port */
	char *rules;		      /* "gpu-paths,nics": who asked */
	const struct acs_rule *first; /* the first of them, named in conflict messages */
};

struct acs_action {
	char addr[PCI_ADDR_LEN];
	uint16_t off; /* ACS extended capability offset */
	uint16_t cap; /* ACS Capability word */
	uint16_t old; /* Control as seen at plan time */
	uint16_t new; /* Control the policy wants */
	const struct acs_target *target;
};

struct plan {
	struct acs_target *targets;
	size_t n_targets;
	struct acs_action *actions;
	size_t n_actions;
	const struct acs_rule **idle; /* enabled rules that select no port on this host */
	size_t n_idle;
};

/* -EINVAL (logged with both rules' file:line) when two rules force a bit both ways. */
int plan_build(const struct config *c, const struct pci_inventory *inv, struct plan *ret);
void plan_done(struct plan *p);
int plan_print(const struct plan *p, FILE *f);
/* {"schema":1,"command":"apply --dry-run","apply":bool,"ports":N,"writes":[...]} */
int plan_print_json(const struct plan *p, bool apply_enabled, FILE *f);
