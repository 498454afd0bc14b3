/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "acs/acs.h"
#include "core/cmdline.h"
#include "pci/pci.h"
#include "acs/plan.h"
#include "core/result.h"

/*
 * The boot-time ACS parameters evaluated the way drivers/pci/pci.c does:
 * pci_setup() splits each pci= value on ',' and keeps a pointer to the last
 * config_acs= and the last disable_acs_redir=; at enumeration
 * __pci_config_acs() walks that string for each device, entries split by
 * ';', and the first entry that names the device wins. A parse error in an
 * entry ends the walk for every device not named before it.
 */
struct kacs_params {
	char *config_acs;	 /* value of the last config_acs= option, NULL if none */
	char *disable_acs_redir; /* value of the last disable_acs_redir= option, NULL if none */
};

int kacs_params_get(const struct cmdline *cmd, struct kacs_params *ret);
/* Each option of every pci= word, in order, as pci_setup() sees it; stops at fn's error. */
int kacs_params_each(const struct cmdline *cmd, int (*fn)(void *ud, const char *opt), void *ud);
void kacs_params_done(struct kacs_params *p);

/*
 * pci_dev_str_match() for an inventory device: "[dddd:]bb:dd.f[/dd.f]*" or
 * "pci:vvvv:dddd[:ssvv:ssdd]". 1 match, 0 no match, -EINVAL unparsable (the
 * kernel gives up), -ENODATA: a match depends on subsystem IDs (not in the
 * inventory). *end is set where the kernel continues (not on -EINVAL).
 */
int kacs_dev_str_match(const struct pci_inventory *inv, const struct pci_dev_info *d, const char *p,
		       const char **end);

enum kacs_state {
	KACS_NOT_NAMED, /* the walk reached the end of the string */
	KACS_ENDED,	/* the walk stopped without error: text after an entry is not ';' */
	KACS_STOPPED,	/* a parse error in an entry ends the walk */
	KACS_MATCHED,	/* the entry names the device: mask/flags apply */
	KACS_UNDECIDED, /* the entry names it only if subsystem IDs match */
};

struct kacs_eval {
	enum kacs_state state;
	unsigned entry;	      /* 1-based entry the state refers to */
	uint16_t mask, flags; /* KACS_MATCHED: bits set by the entry, and which of them to 1 */
	char dev[48];	      /* the entry's device text (escaped, shortened) */
	char why[96];	      /* KACS_STOPPED, KACS_ENDED */
};

/*
 * __pci_config_acs() for one device. config: the config_acs= form
 * ("flags@dev;..."), else disable_acs_redir= ("dev;...": mask RR|CR|EC).
 * buggy: the 6.11 parse before 9cf8a952d57b (flags read only while no
 * entry had set a bit). Entries up to skip are walked but never match (to
 * find what a later entry would have said).
 */
void kacs_evaluate(const char *param, bool config, bool buggy, unsigned skip,
		   const struct pci_inventory *inv, const struct pci_dev_info *d,
		   struct kacs_eval *ret);

/*
 * The boot-time form of the policy, ports named by their path from the
 * root bus so it survives bus renumbering: pci=config_acs="<mask>@<path>;..."
 * (quoted for GRUB's script parser, which removes the quotes). -ENODATA when
 * no ACS port is selected, -EACCES when a selected port's config space is
 * unreadable (not root), -ENOMEDIUM or -EBADMSG when its ACS cannot be read
 * (acs_cmdline_unreadable()).
 */
int acs_cmdline_format(const struct plan *p, const struct pci_inventory *inv, char **ret);
/* err is one of those "cannot tell which ports have ACS" answers; its words. */
bool acs_cmdline_unreadable(int err);
const struct pci_limited_text *acs_cmdline_unreadable_text(int err);
/*
 * The same as pci=disable_acs_redir="<path>;..." for kernels before 6.11:
 * -EDOM when a port's policy is not exactly x0x00xx (RR,CR,EC off), which is
 * all that parameter does; *bad (may be NULL) then names that target.
 */
int acs_cmdline_format_redir(const struct plan *p, const struct pci_inventory *inv, char **ret,
			     const struct acs_target **bad);

/* One "acs.cmdline" result: will the running kernel apply the policy at boot. */
int acs_cmdline_verify(const struct plan *p, const struct pci_inventory *inv,
		       const struct cmdline *cmd, const char *osrelease, struct results *rs);
/*
 * The same in a run (root: the run's): where the policy is not applied and the boot
 * entries `acs cmdline --install` wrote carry the argument, the result says the kernel did
 * not take it (the entry booted was another, or the kernel dropped it), or, for an entry
 * written after this boot began, that a reboot is still due. NULL root: acs_cmdline_verify().
 */
int acs_cmdline_verify_at(const struct sysroot *root, const struct plan *p,
			  const struct pci_inventory *inv, const struct cmdline *cmd,
			  const char *osrelease, struct results *rs);
/* The argument for the running kernel (-EDOM: none for it), -ENODATA: no port selected. */
int acs_cmdline_for_kernel(const struct plan *p, const struct pci_inventory *inv,
			   const char *osrelease, char **ret);
