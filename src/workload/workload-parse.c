// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>

#include "workload/workload.h"
#include "core/string-table.h"

static const char *const netns_expect_table[_NETNS_MAX] = {
	[NETNS_ANY] = "any",
	[NETNS_SHARED] = "shared",
	[NETNS_EXCLUSIVE] = "exclusive",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(netns_expect, enum netns_expect);

const struct config_enum_names netns_expect_names = { netns_expect_table, _NETNS_MAX };

/* Suffixes as systemd's parse_size() with base 1024 takes them for Limit*= (upper case). */
static int suffix_shift(const char *s, unsigned *ret)
{
	static const char units[] = "KMGT";
	const char *p;

	if (s[0] == '\0') {
		*ret = 0;
		return 0;
	}
	if (s[1] != '\0' || !(p = strchr(units, s[0])))
		return -EINVAL;
	*ret = 10 * (unsigned)(p - units + 1);
	return 0;
}

int workload_parse_limits_memlock(const char *text, uint64_t *ret)
{
	static const char key[] = "Max locked memory";
	char soft[32];
	unsigned long long v;
	char *end;

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strneq(l, key, strlen(key)) || l[strlen(key)] != ' ')
			continue;
		if (sscanf(l + strlen(key), " %31s", soft) != 1)
			return -EINVAL;
		if (streq(soft, "unlimited")) {
			*ret = WORKLOAD_INFINITY;
			return 0;
		}
		if (!isdigit((unsigned char)soft[0]))
			return -EINVAL;
		errno = 0;
		v = strtoull(soft, &end, 10);
		if (errno || *end)
			return -EINVAL;
		*ret = v;
		return 0;
	}
	return -EINVAL;
}

int workload_parse_size(const char *s, uint64_t *ret)
{
	unsigned long long v;
	unsigned shift;
	char *end;

	if (streq(s, "infinity")) {
		*ret = WORKLOAD_INFINITY;
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL; /* strtoull would take "-1", " 1" and "+1" */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (suffix_shift(end, &shift) < 0)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (v == WORKLOAD_INFINITY)
		return -ERANGE; /* would read as infinity */
	*ret = v;
	return 0;
}

const char *workload_format_size(uint64_t v, char *buf, size_t n)
{
	static const char units[] = "TGMK";

	if (v == WORKLOAD_INFINITY) {
		snprintf(buf, n, "infinity");
		return buf;
	}
	for (unsigned i = 0; v && i < 4; i++) {
		unsigned shift = 10 * (4 - i);

		if ((v & ((UINT64_C(1) << shift) - 1)) == 0) {
			snprintf(buf, n, "%" PRIu64 "%c", v >> shift, units[i]);
			return buf;
		}
	}
	snprintf(buf, n, "%" PRIu64, v);
	return buf;
}

int workload_parse_netns_mode(const char *s)
{
	/* param_get_bool prints Y or N; accept what param_set_bool accepts too. */
	if (streq(s, "Y") || streq(s, "y") || streq(s, "1"))
		return NETNS_SHARED;
	if (streq(s, "N") || streq(s, "n") || streq(s, "0"))
		return NETNS_EXCLUSIVE;
	return -EINVAL;
}

bool workload_unit_name_valid(const char *s)
{
	static const char suffix[] = ".service";
	size_t n = strlen(s);

	if (n <= strlen(suffix) || n > WORKLOAD_UNIT_NAME_MAX)
		return false;
	if (!streq(s + n - strlen(suffix), suffix))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(":_.@-", *p))
			return false;
	return s[0] != '.' && s[0] != '@';
}

/* Decimal digits only, the whole of [s, end), and no more than an unsigned holds. */
static int parse_devnum_part(const char *s, const char *end, unsigned *ret)
{
	unsigned long v;
	char *stop;

	if (s == end || strspn(s, "0123456789") != (size_t)(end - s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &stop, 10);
	/* sscanf's %u wrapped a too large number into a plausible one */
	if (errno == ERANGE || v > UINT_MAX || stop != end)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

int workload_parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	const char *colon = strchr(s, ':');
	unsigned ma, mi;

	/* strtoul alone would take "231: 5" and "231:-5" */
	if (!colon || parse_devnum_part(s, colon, &ma) < 0 ||
	    parse_devnum_part(colon + 1, colon + 1 + strlen(colon + 1), &mi) < 0)
		return -EINVAL;
	*ret_major = ma;
	*ret_minor = mi;
	return 0;
}

bool workload_memlock_enough(uint64_t soft, uint64_t min)
{
	return soft >= min;
}

enum verdict workload_node_mode_verdict(unsigned mode, unsigned uid, unsigned want,
					bool strict_open)
{
	mode &= 07777;
	if (strict_open)
		return (mode & want) == want ? VERDICT_PASS : VERDICT_FAIL;
	return (mode & ~want & 0777) || uid != 0 ? VERDICT_WARN : VERDICT_PASS;
}
