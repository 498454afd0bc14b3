// SPDX-License-Identifier: GPL-2.0-or-later
#include <time.h>

#include "run/config.h"
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
	char *name = NULL;

	if (sysroot_read_attr(root, SYSROOT_PROC, &name, "sys/kernel/hostname") < 0)
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

static int dup_files(const struct config *cfg, char ***ret)
{
	size_t n = 0;
	char **v;

	while (cfg->files && cfg->files[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		v[i] = strdup(config_file_shown(cfg, cfg->files[i]));
		if (!v[i]) {
			strv_free(v);
			return -ENOMEM;
		}
	}
	*ret = v;
	return 0;
}

int report_set_config(struct report *rep, const struct config *cfg)
{
	_cleanup_(freep) char *digest = NULL;
	int r;

	if (!cfg || !cfg->digest[0])
		return 0;
	digest = strdup(cfg->digest);
	if (!digest)
		return -ENOMEM;
	r = dup_files(cfg, &rep->config_files);
	if (r < 0)
		return r;
	rep->config_digest = TAKE_PTR(digest);
	return 0;
}
