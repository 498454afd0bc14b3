/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"

/*
 * ACS Control policy in the kernel's pci=config_acs= / rdma_topo notation:
 * 7 characters, bit 6 first, bit 0 (SV) last; '0' force off, '1' force on,
 * 'x' leave. Bits 7..15 (ACS Enhanced fields) are never touched.
 */
#define ACS_MASK_BITS	 7
#define ACS_POLICY_BITS	 0x007fu
#define ACS_MASK_DEFAULT "x0x00xx" /* RR, CR, EC off: what pci=disable_acs_redir= does */

/* ACS Control bits the kernel's boot-time parameters name. */
#define ACS_RR	       0x0004u /* P2P Request Redirect */
#define ACS_CR	       0x0008u /* P2P Completion Redirect */
#define ACS_EC	       0x0020u /* P2P Egress Control */
#define ACS_REDIR_BITS (ACS_RR | ACS_CR | ACS_EC)

struct acs_mask {
	uint16_t clear; /* bits forced to 0 */
	uint16_t set;	/* bits forced to 1 */
};

/*
 * The flag characters text[0..len) as the kernel reads pci=config_acs= flags: from the
 * right, the last character is bit 0; '0' force off, '1' force on, 'x' or 'X' leave. Any
 * length: a bit from 16 on is lost as in the kernel's u16 (the shift wraps at 32). 0 with
 * *ret_mask (the bits given as 0 or 1) and *ret_flags (those given as 1), or -EINVAL with
 * *ret_bad the first other character from the right.
 */
int acs_flags_parse(const char *text, size_t len, uint16_t *ret_mask, uint16_t *ret_flags,
		    char *ret_bad);
/* Exactly ACS_MASK_BITS flags ("x0x00xx", bit 6 first); -EINVAL otherwise. */
int acs_mask_parse(const char *text, struct acs_mask *ret);
void acs_mask_format(const struct acs_mask *m, char buf[static ACS_MASK_BITS + 1]);
bool acs_mask_equal(const struct acs_mask *a, const struct acs_mask *b);
/* Merge b into a; -EEXIST if one forces a bit on and the other off. */
int acs_mask_merge(struct acs_mask *a, const struct acs_mask *b);

/*
 * Masked read-modify-write: the Control word the policy wants, given the
 * current word and the Capability word (a Control bit can only be set
 * where the Capability bit is 1; hardware masks the rest).
 */
uint16_t acs_ctrl_target(uint16_t ctrl, uint16_t cap, const struct acs_mask *m);
bool acs_ctrl_matches(uint16_t ctrl, uint16_t cap, const struct acs_mask *m);

/* "SV,RR,CR,UF" for the policy bits set in ctrl ("none" if none). */
void acs_ctrl_describe(uint16_t ctrl, char *buf, size_t size);

/* x0x00xx exactly: RR, CR, EC off and nothing else forced, what pci=disable_acs_redir= does. */
bool acs_mask_is_redir(const struct acs_mask *m);

/*
 * Which boot-time ACS parameter a kernel release understands, and how well:
 * pci=disable_acs_redir= came with 4.19 (clears RR|CR|EC), pci=config_acs=
 * with 6.11. Until upstream 9cf8a952d57b ("PCI/ACS: Fix pci=config_acs=
 * parameter", in 6.12.23, 6.13.11, 6.14.2 and 6.15) the kernel parsed the
 * flags of the first entry only, so a second device failed to parse, and
 * took a '0' flag (and disable_acs_redir's clears) from the firmware's value.
 * A release that is unknown (unreadable) or unparsable is KERNEL_ACS_UNKNOWN: what the
 * kernel takes at boot cannot be said, and 'acs cmdline' refuses to guess; the checks
 * (kernel_acs_param_assumed()) judge it as a current kernel.
 */
enum kernel_acs_param {
	KERNEL_ACS_UNKNOWN,	 /* no release, or one that does not parse */
	KERNEL_ACS_NONE,	 /* < 4.19: neither parameter */
	KERNEL_ACS_REDIR,	 /* 4.19 - 6.10: pci=disable_acs_redir= only */
	KERNEL_ACS_CONFIG_BUGGY, /* 6.11 - 6.14.1 without the 2025 fix (as far as the release says)
				  */
	KERNEL_ACS_CONFIG,	 /* both, parsed as intended */
};

enum kernel_acs_param kernel_acs_param(const char *osrelease);
/* As kernel_acs_param(), an unknown release taken as a current kernel (the checks). */
enum kernel_acs_param kernel_acs_param_assumed(const char *osrelease);
/* Can this kernel be given mask m at boot (config_acs, or disable_acs_redir for x0x00xx)? */
bool kernel_has_boot_form(const char *osrelease, const struct acs_mask *m);
