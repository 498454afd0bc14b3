// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

#include "workload/workload.h"

static const char *const netns_names[_NETNS_MAX] = {
	[NETNS_ANY] = "any",
	[NETNS_SHARED] = "shared",
	[NETNS_EXCLUSIVE] = "exclusive",
};

const char *netns_expect_to_string(enum netns_expect e)
{
	return e >= 0 && e < _NETNS_MAX ? netns_names[e] : NULL;
}

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

int workload_parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	unsigned ma, mi;
	int end = 0;

	const char *colon = strchr(s, ':');

	/* sscanf alone would take "231: 5" and "231:-5" */
	if (!colon || strspn(s, "0123456789") != (size_t)(colon - s) || colon == s ||
	    colon[1] == '\0' || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -EINVAL;
	if (sscanf(s, "%u:%u%n", &ma, &mi, &end) != 2 || s[end] != '\0')
		return -EINVAL;
	*ret_major = ma;
	*ret_minor = mi;
	return 0;
}
