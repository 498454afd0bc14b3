// SPDX-License-Identifier: GPL-2.0-or-later
#include <time.h>

#include "core/fileio.h"
#include "report/report-header.h"
#include "report/sinks.h"

uint64_t report_time(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;

	if (e && *e) {
		unsigned long long v = strtoull(e, &end, 10);

		if (!*end)
			return v;
	}
	return (uint64_t)time(NULL);
}

char *root_hostname(const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_PROC, "sys/kernel/hostname");
	char *name = NULL;

	if (!path || read_one_line(path, &name) < 0)
		return strdup("unknown");
	return name;
}

int report_init(struct report *rep, const char *command, const char *host, bool applied)
{
	*rep = (struct report){
		.schema = REPORT_SCHEMA_VERSION,
		.version = strdup(HOSTPREP_VERSION),
		.command = strdup(command),
		.host = strdup(host ? host : "unknown"),
		.time_sec = report_time(),
		.applied = applied,
	};
	if (!rep->version || !rep->command || !rep->host) {
		report_done(rep);
		return -ENOMEM;
	}
	return 0;
}
