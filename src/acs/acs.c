// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "acs/acs.h"

static const char *const acs_bit_names[ACS_MASK_BITS] = {
	"SV", "TB", "RR", "CR", "UF", "EC", "DT"
};

/* mask |= 1 << shift on a u16: bits 16..31 fall off; the CPU takes the shift mod 32. */
static uint16_t flag_bit(unsigned shift)
{
	shift &= 31;
	return shift < 16 ? (uint16_t)(1u << shift) : 0;
}

int acs_flags_parse(const char *text, size_t len, uint16_t *ret_mask, uint16_t *ret_flags,
		    char *ret_bad)
{
	uint16_t mask = 0, flags = 0;
	unsigned shift = 0;

	for (const char *c = text + len; c-- > text; shift++) {
		uint16_t bit = flag_bit(shift);

		switch (*c) {
		case '1':
			flags |= bit;
			mask |= bit;
			break;
		case '0':
			mask |= bit;
			break;
		case 'x':
		case 'X':
			break;
		default:
			*ret_bad = *c;
			return -EINVAL;
		}
	}
	*ret_mask = mask;
	*ret_flags = flags;
	return 0;
}

int acs_mask_parse(const char *text, struct acs_mask *ret)
{
	uint16_t mask, flags;
	char bad;

	if (strlen(text) != ACS_MASK_BITS ||
	    acs_flags_parse(text, ACS_MASK_BITS, &mask, &flags, &bad) < 0)
		return -EINVAL;
	*ret = (struct acs_mask){ .clear = mask & ~flags, .set = flags };
	return 0;
}

void acs_mask_format(const struct acs_mask *m, char buf[static ACS_MASK_BITS + 1])
{
	for (int i = 0; i < ACS_MASK_BITS; i++) {
		uint16_t bit = 1u << (ACS_MASK_BITS - 1 - i);

		buf[i] = (m->clear & bit) ? '0' : (m->set & bit) ? '1' : 'x';
	}
	buf[ACS_MASK_BITS] = '\0';
}

bool acs_mask_equal(const struct acs_mask *a, const struct acs_mask *b)
{
	return a->clear == b->clear && a->set == b->set;
}

int acs_mask_merge(struct acs_mask *a, const struct acs_mask *b)
{
	if ((a->clear & b->set) || (a->set & b->clear))
		return -EEXIST;
	a->clear |= b->clear;
	a->set |= b->set;
	return 0;
}

uint16_t acs_ctrl_target(uint16_t ctrl, uint16_t cap, const struct acs_mask *m)
{
	uint16_t clear = m->clear & ACS_POLICY_BITS;
	uint16_t set = m->set & ACS_POLICY_BITS & cap;

	return (uint16_t)((ctrl & ~clear) | set);
}

bool acs_ctrl_matches(uint16_t ctrl, uint16_t cap, const struct acs_mask *m)
{
	return acs_ctrl_target(ctrl, cap, m) == ctrl;
}

void acs_ctrl_describe(uint16_t ctrl, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < ACS_MASK_BITS; i++) {
		if (!(ctrl & (1u << i)))
			continue;
		n += snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? "," : "",
			      acs_bit_names[i]);
	}
	if (n == 0)
		snprintf(buf, size, "none");
}

bool acs_mask_is_redir(const struct acs_mask *m)
{
	return m->clear == ACS_REDIR_BITS && m->set == 0;
}

enum kernel_acs_param kernel_acs_param(const char *osrelease)
{
	unsigned major = 0, minor = 0, sub = 0;
	int n = osrelease ? sscanf(osrelease, "%u.%u.%u", &major, &minor, &sub) : 0;

	if (n < 2)
		return KERNEL_ACS_UNKNOWN;
	if (major != 6)
		return major > 6				   ? KERNEL_ACS_CONFIG
		       : major == 5 || (major == 4 && minor >= 19) ? KERNEL_ACS_REDIR
								   : KERNEL_ACS_NONE;
	if (minor < 11)
		return KERNEL_ACS_REDIR;
	/* The stable releases that carry 9cf8a952d57b; 6.11 ended before it. */
	if (minor == 11 || (minor == 12 && sub < 23) || (minor == 13 && sub < 11) ||
	    (minor == 14 && sub < 2))
		return KERNEL_ACS_CONFIG_BUGGY;
	return KERNEL_ACS_CONFIG;
}

enum kernel_acs_param kernel_acs_param_assumed(const char *osrelease)
{
	enum kernel_acs_param k = kernel_acs_param(osrelease);

	return k == KERNEL_ACS_UNKNOWN ? KERNEL_ACS_CONFIG : k;
}

bool kernel_has_boot_form(const char *osrelease, const struct acs_mask *m)
{
	switch (kernel_acs_param_assumed(osrelease)) {
	case KERNEL_ACS_NONE:
		return false;
	case KERNEL_ACS_REDIR:
		return acs_mask_is_redir(m);
	default:
		return true;
	}
}
