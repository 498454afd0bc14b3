// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The AER counter parsers (src/aer/aer-parse.c): aer_dev_* and aer_rootport_total_err_*
 * as the kernel prints them, and the [AER] thresholds. An accepted file has its detail
 * text bounded and terminated, and its total parses back from the kernel's own total line;
 * an accepted number or threshold formats back to itself.
 */
#include "aer/aer.h"
#include "fuzz.h"

static const char *const totals[_AER_KIND_MAX] = {
	[AER_COR] = "TOTAL_ERR_COR",
	[AER_NONFATAL] = "TOTAL_ERR_NONFATAL",
	[AER_FATAL] = "TOTAL_ERR_FATAL",
};

static void check_dev(const char *s, enum aer_kind k)
{
	struct aer_counts c, again;
	char line[64];

	if (aer_parse_dev(s, k, &c) < 0)
		return;
	fuzz_assert(memchr(c.detail, '\0', sizeof(c.detail)));
	snprintf(line, sizeof(line), "%s %" PRIu64 "\n", totals[k], c.total);
	fuzz_assert(aer_parse_dev(line, k, &again) == 0 && again.total == c.total);
	fuzz_assert(again.detail[0] == '\0');
	/* a total is never another kind's */
	fuzz_assert(aer_parse_dev(line, (k + 1) % _AER_KIND_MAX, &again) < 0);
}

static void check_total(const char *s)
{
	uint64_t v, again;
	char buf[32];

	if (aer_parse_total(s, &v) < 0)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64 "\n", v);
	fuzz_assert(aer_parse_total(buf, &again) == 0 && again == v);
}

static void check_limit(const char *s)
{
	uint64_t v, again;
	char buf[32];

	if (aer_parse_limit(s, &v) < 0)
		return;
	fuzz_assert(v == AER_OFF || v <= AER_COUNT_MAX);
	if (v == AER_OFF)
		snprintf(buf, sizeof(buf), "off");
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	fuzz_assert(aer_parse_limit(buf, &again) == 0 && again == v);
	fuzz_assert(!aer_exceeds(v, AER_OFF));
	fuzz_assert(v == AER_OFF || !aer_exceeds(v, v));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);

	for (int k = 0; k < _AER_KIND_MAX; k++)
		check_dev(s, k);
	check_total(s);
	check_limit(s);
	return 0;
}
