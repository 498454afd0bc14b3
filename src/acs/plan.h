/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/acs-config.h"
#include "pci/pci.h"

/*
 * Plan: config × inventory → what should be true (targets) and the writes
 * that would make it so (actions). Pure: reads nothing, writes nothing.
 */
/* What the plan could see of a selected port. */
enum acs_port_state {
	ACS_PORT_ACS,	     /* readable, with an ACS capability */
	ACS_PORT_NO_ACS,     /* readable, no ACS capability: nothing to change */
	ACS_PORT_UNREADABLE, /* only the first 64 bytes, or no extended config space */
	ACS_PORT_DEAD,	     /* config space reads all-ones: not responding */
	ACS_PORT_GONE,	     /* listed in sysfs, config space cannot be read */
	_ACS_PORT_STATE_MAX,
};

struct acs_target {
	char addr[PCI_ADDR_LEN];
	enum acs_port_state state;
	uint16_t off, cap, ctrl;      /* ACS_PORT_ACS: offset, Capability, Control at plan time */
	int err;		      /* ACS_PORT_GONE: why (negative errno) */
	bool no_ext;		      /* ACS_PORT_UNREADABLE: 256 bytes (PCI_CFG_NO_EXT) */
	bool ext_broken;	      /* ACS_PORT_UNREADABLE: PCI_CFG_EXT_BROKEN */
	struct acs_mask mask;	      /* merged over every rule that selects the port */
	char *rules;		      /* "gpu-paths,nics": who asked */
	const struct acs_rule *first; /* the first of them, named in conflict messages */
	bool declared;		      /* one of them is the admin's (struct acs_rule.declared) */
	bool allow_vfio;	      /* every one of them says AllowVFIO=yes */
	/* Set by plan_isolation() (src/acs/isolation.h), for an ACS_PORT_ACS port: */
	bool relaxes;	 /* the mask turns off an isolation bit (SV, RR, CR, UF) it has */
	bool refused;	 /* relaxes above a vfio-pci function, no AllowVFIO=yes: not written */
	bool translated; /* a function below is in a DMA or DMA-FQ IOMMU group */
	char *vfio;	 /* "0000:03:00.0 0000:04:00.0": functions below bound to vfio-pci */
	/* functions below whose driver link could not be read (not its absence: EACCES, a
	 * link out of the root...): counted as vfio-pci, so nothing relaxes above a device
	 * whose driver nobody knows (fail closed; AllowVFIO=yes allows it) */
	char *driver_unread;
	int *merged; /* relaxes: the IOMMU groups below, ascending, when 2 or more */
	size_t n_merged;
};

struct acs_action {
	char addr[PCI_ADDR_LEN];
	uint16_t off; /* ACS extended capability offset */
	uint16_t cap; /* ACS Capability word */
	uint16_t old; /* Control as seen at plan time */
	uint16_t new; /* Control the policy wants */
	const struct acs_target *target;
};

/*
 * An enabled rule that selects no port on this host: none of what it picks is a PCI bridge
 * or a function with ACS (or one whose ACS cannot be read). Its rule's allow_none says
 * whether that is a skip or a fail.
 */
struct plan_idle {
	const struct acs_rule *rule;
	size_t functions; /* what it picks all the same: endpoints without ACS */
};

struct plan {
	struct acs_target *targets;
	size_t n_targets;
	struct acs_action *actions;
	size_t n_actions;
	struct plan_idle *idle; /* enabled rules that select no port on this host */
	size_t n_idle;
	struct acs_action *refused; /* writes plan_isolation() took out of actions */
	size_t n_refused;
	size_t n_state[_ACS_PORT_STATE_MAX]; /* targets per state */
	size_t n_no_ext;		     /* of the unreadable: no extended config space */
	size_t n_ext_broken;		     /* of the unreadable: PCI_CFG_EXT_BROKEN */
};

/* What surrounds the plan in the dry-run document (docs/report-schema.md). */
struct json_object;

struct plan_doc {
	const char *version;
	const char *host;
	const char *time; /* ISO 8601 UTC, like the report's */
	bool apply;	  /* [Host] Apply=yes in effect */
	int scan_err;	  /* <0: PCI devices could not be enumerated at all */
	/* Why a port is unreadable, for this process: for the counts, and per port. */
	const char *limited_short;
	const char *limited_detail;
	struct json_object *modules; /* taken by plan_print_json: the module actions (array) */
};

/*
 * The devices the enabled rules can select, decided from identity and tree
 * alone (before any capability is read): each Select= match, and every port
 * above an upstream: match. Sets want[i] (inv->n entries) for those and returns
 * how many are set. Exclude= is not needed: it only removes selected ports.
 * The caller runs pcib_load_caps() on them before plan_build().
 */
int plan_candidates(const struct config *c, const struct pci_inventory *inv, bool *want);
/*
 * The same decision for one function during the scan (pcib_scan_caps(), ud: the config):
 * PCI_WANT_SELF for a Select= match, PCI_WANT_ABOVE for an upstream: match.
 */
unsigned plan_wants_caps(const struct pci_dev_info *d, void *config);
/* -EINVAL (logged with both rules' file:line) when two rules force a bit both ways. */
int plan_build(const struct config *c, const struct pci_inventory *inv, struct plan *ret);
/* Read the capabilities the rules' p2p: selectors need (call before plan_build()). */
int plan_load_caps(const struct config *c, struct pci_backend *b, struct pci_inventory *inv);
void plan_done(struct plan *p);
const char *acs_port_state_to_string(enum acs_port_state s);
/* Unreadable, dead or gone: the plan cannot say what a write would be. */
size_t plan_undecided(const struct plan *p);
/* "plan: N ports selected: ...; M writes" and one line per write or undecided port. */
int plan_print(const struct plan *p, const struct plan_doc *doc, FILE *f);
/* The dry-run document: the report envelope plus "plan" (docs/report-schema.md). */
int plan_print_json(const struct plan *p, const struct plan_doc *doc, FILE *f);
/* The document's "plan" object alone (doc: scan_err and the limited texts). */
struct json_object *plan_json(const struct plan *p, const struct plan_doc *doc);

/* The plan of the acs module in a run (src/acs/mod-acs.c), empty before its plan step. */
struct run;
const struct plan *acs_run_plan(const struct run *run);
