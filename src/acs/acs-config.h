/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/acs.h"
#include "run/config.h"
#include "pci/selector.h"

/*
 * The ACS part of the configuration: one [ACS:NAME] section per rule, NAME
 * [A-Za-z0-9_.-]{1,32}.
 *
 *   [ACS:NAME]  Select=SELECTOR...            list; accumulates, empty assignment resets
 *               Exclude=SELECTOR...           list; likewise
 *               Mask=xxxxxxx                  7 chars of 0/1/x, default x0x00xx
 *               Enabled=yes|no                default yes
 *               AllowNone=yes|no              default: yes when every Select= is the
 *                                             vendor's, no when an admin wrote one
 *               AllowVFIO=yes|no              default no
 *
 * A rule repeated in the same file is an error (duplicate rule); in a later file it
 * extends/overrides the rule (that is what drop-ins are for). An empty assignment restores
 * a scalar's default. An enabled rule without Select= after merging is an error, unless an
 * error inside the rule was already reported. Every problem is logged "file:line: reason"
 * and returned as -EINVAL, which config.c counts like its own errors.
 */

#define ACS_PREFIX	  "ACS:"
#define ACS_MAX_RULES	  64
#define ACS_RULE_NAME_MAX 32

struct acs_rule {
	char *name;
	struct origin at; /* first [ACS:NAME] header */
	bool enabled;
	struct origin enabled_at; /* .file NULL when the default is in effect */
	struct acs_mask mask;
	struct origin mask_at; /* .file NULL when the default is in effect */
	struct selector_entry *select;
	size_t n_select;
	struct selector_entry *exclude;
	size_t n_exclude;
	/*
	 * AllowNone=: may the rule select no port on a host (a skip), or is that a fail? In
	 * effect after loading; the default is decided then: only the vendor's own selection
	 * may be idle (an admin's Select= that matches nothing is a typo or the wrong host:
	 * fail closed).
	 */
	bool allow_none;
	struct origin allow_none_at; /* .file NULL when the default is in effect */
	/*
	 * AllowVFIO=: may the rule relax ACS on a port above a function bound to vfio-pci?
	 * Its IOMMU group was formed with ACS on: relaxed, a guest's device can reach what
	 * another guest's device (or the host) maps. Default no: the port is not written.
	 */
	bool allow_vfio;
	struct origin allow_vfio_at; /* .file NULL when the default is in effect */
	/*
	 * The admin declared this rule: it, or one of its keys, comes from a file
	 * outside the vendor directory /usr/lib/hostprep (or from --config). Only a
	 * declared rule, or any rule once [Host] Apply=yes, can make a host "not
	 * ready"; the vendor's rule alone is advice (warn).
	 */
	bool declared;
	/* For the loading only. */
	struct config_header header;   /* for duplicates within one file */
	struct origin select_reset_at; /* an empty Select= that left the list empty */
	bool had_error; /* an error was reported inside the rule: no follow-up errors */
};

struct acs_config {
	struct acs_rule *rules; /* in first-seen order */
	size_t n_rules;
	size_t cur; /* the rule of the current section */
};

extern const struct config_part acs_config_part; /* for src/modules.c */

/* c's [ACS:*] rules; never NULL: no rules when no file has such a section. */
const struct acs_config *acs_config_get(const struct config *c);
