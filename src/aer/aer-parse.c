// SPDX-License-Identifier: GPL-2.0-or-later
/* The AER counter files and thresholds (see aer.h). */

#include "aer/aer.h"
#include "core/string-table.h"

static const char *const aer_kind_table[_AER_KIND_MAX] = {
	[AER_COR] = "correctable",
	[AER_NONFATAL] = "nonfatal",
	[AER_FATAL] = "fatal",
};

static const char *const total_names[_AER_KIND_MAX] = {
	[AER_COR] = "TOTAL_ERR_COR",
	[AER_NONFATAL] = "TOTAL_ERR_NONFATAL",
	[AER_FATAL] = "TOTAL_ERR_FATAL",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(aer_kind, enum aer_kind, "?");

/* Decimal digits only, no sign, at most max; the end of the number in *end. */
static int parse_u64(const char *s, uint64_t max, const char **end, uint64_t *ret)
{
	uint64_t v = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s)
		return -EINVAL;
	*end = p;
	*ret = v;
	return 0;
}

int aer_parse_limit(const char *s, uint64_t *ret)
{
	const char *end;

	if (strcasecmp(s, "off") == 0) {
		*ret = AER_OFF;
		return 0;
	}
	if ((s[0] == '0' && s[1]) || parse_u64(s, AER_COUNT_MAX, &end, ret) < 0 || *end)
		return -EINVAL;
	return 0;
}

static void detail_add(struct aer_counts *c, const char *name, size_t len, uint64_t n)
{
	size_t o = strlen(c->detail);

	if (n == 0 || o >= sizeof(c->detail) - 1)
		return;
	snprintf(c->detail + o, sizeof(c->detail) - o, "%s%.*s %" PRIu64, o ? ", " : "", (int)len,
		 name, n);
}

/* Words of the kernel's counter names: single blanks between them, none at either end. */
static bool name_ok(const char *s, size_t len)
{
	return len > 0 && s[0] != ' ' && s[len - 1] != ' ' && !memchr(s, '\t', len) &&
	       !memmem(s, len, "  ", 2);
}

/*
 * The kernel counts an error once in the total and once in each bit it set
 * (pci_dev_aer_stats_incr()): no counter of the file can exceed its total.
 */
int aer_parse_dev(const char *text, enum aer_kind k, struct aer_counts *ret)
{
	const char *line = text;
	uint64_t most = 0;

	*ret = (struct aer_counts){};
	while (*line) {
		/*
		 * "NAME COUNT": the count after the line's last blank. 4.19-5.x print names
		 * with blanks ("Receiver Error 2", "RELAY_NUM Rollover 0"), later kernels
		 * one word ("RxErr 2").
		 */
		const char *eol = line + strcspn(line, "\n"), *sp = eol, *end;
		size_t len;
		uint64_t n;

		while (sp > line && sp[-1] != ' ')
			sp--;
		len = sp > line ? (size_t)(sp - 1 - line) : 0;
		if (!name_ok(line, len) || parse_u64(sp, UINT64_MAX, &end, &n) < 0 || end != eol)
			return -EINVAL;
		if (len == strlen(total_names[k]) && strncmp(line, total_names[k], len) == 0) {
			ret->total = n;
			/* the total is last: nothing may follow it */
			return (*end && end[1]) || most > n ? -EINVAL : 0;
		}
		detail_add(ret, line, len, n);
		most = n > most ? n : most;
		line = *end ? end + 1 : end;
	}
	return -EINVAL; /* no total line */
}

int aer_parse_total(const char *text, uint64_t *ret)
{
	const char *end;

	if (parse_u64(text, UINT64_MAX, &end, ret) < 0)
		return -EINVAL;
	return *end == '\0' || (*end == '\n' && end[1] == '\0') ? 0 : -EINVAL;
}

enum aer_set aer_files_judge(unsigned dev, unsigned rp, int root_port)
{
	if (root_port == 0)
		rp = 0; /* never shown there: not read */
	if (dev == 0 && rp == 0)
		return AER_SET_NONE;
	if (dev != AER_FILES_ALL)
		return AER_SET_PARTIAL;
	if (root_port == 0)
		return AER_SET_DEV;
	if (rp == AER_FILES_ALL)
		return AER_SET_ROOT_PORT;
	/* none of the totals on a port of unread type: the kernel does not take it for one */
	return rp == 0 && root_port < 0 ? AER_SET_DEV : AER_SET_PARTIAL;
}

bool aer_exceeds(uint64_t count, uint64_t limit)
{
	return limit != AER_OFF && count > limit;
}
