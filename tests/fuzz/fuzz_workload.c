// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload parsers (src/workload/workload-parse.c): sizes as LimitMEMLOCK= and the
 * config write them, netns_mode, unit names, device numbers. A size formatted back in its
 * shortest form parses to the same number of bytes.
 */
#include "fuzz.h"
#include "workload/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);
	uint64_t v, again;
	unsigned major, minor;
	char buf[32];
	int m;

	if (workload_parse_size(s, &v) == 0) {
		fuzz_assert(workload_format_size(v, buf, sizeof(buf)));
		fuzz_assert(workload_parse_size(buf, &again) == 0 && again == v);
	}
	m = workload_parse_netns_mode(s);
	fuzz_assert(m < 0 || netns_expect_to_string(m));
	(void)workload_unit_name_valid(s);
	/* Exactly the numbers written: a value too large must not wrap to a plausible one. */
	if (workload_parse_devnum(s, &major, &minor) == 0)
		fuzz_assert(strtoull(s, NULL, 10) == major &&
			    strtoull(strchr(s, ':') + 1, NULL, 10) == minor);
	if (size >= 8) {
		memcpy(&v, data, sizeof(v));
		if (workload_format_size(v, buf, sizeof(buf)))
			fuzz_assert(workload_parse_size(buf, &again) == 0 && again == v);
	}
	return 0;
}
