// SPDX-License-Identifier: GPL-2.0-or-later
/* [Sysctl]: read each setting under <root>/proc/sys and compare. */
#include "core/fileio.h"
#include "run/run.h"
#include "sysctl/sysctl.h"

#define CHECK_SYSCTL	"sysctl"
#define SYSCTL_READ_MAX 4096

/* kernel.numa_balancing -> kernel/numa_balancing below <root>/proc/sys (names have no '/'). */
static char *proc_rel(const char *name)
{
	char *rel = strdup(name);

	for (char *p = rel; p && *p; p++)
		if (*p == '.')
			*p = '/';
	return rel;
}

static int expect_one(struct run *run, const struct sysctl_expect *e)
{
	struct sysroot host = { .dir = (char *)"" };
	_cleanup_(freep) char *rel = proc_rel(e->name), *raw = NULL, *seen = NULL;
	_cleanup_(freep) char *dropin = sysroot_path(&host, SYSROOT_ETC, SYSCTL_DROPIN);
	char remedy[512];
	int r;

	if (!rel || !dropin)
		return -ENOMEM;
	snprintf(remedy, sizeof(remedy),
		 "add the line '%s = %s' to %s (a sysctl.d drop-in), then sysctl -p %s", e->name,
		 e->value, dropin, dropin);
	r = sysroot_read_file(run->root, SYSROOT_PROC, SYSCTL_READ_MAX, &raw, NULL, "sys/%s", rel);
	if (r == -ENOENT || r == -ENOTDIR)
		return results_add(&run->results,
				   &(const struct result_spec){
					   .verdict = VERDICT_FAIL,
					   .check = CHECK_SYSCTL,
					   .object = e->name,
					   .expected = e->value,
					   .actual = "no such setting in this kernel (or its "
						     "module is not loaded)",
					   .action = ACTION_APPLY,
				   });
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK_SYSCTL,
					    .object = e->name,
					    .expected = e->value,
					    .action = ACTION_INSPECT,
				    },
				    "cannot read it: %s", strerror(-r));
	seen = sysctl_normalize(raw);
	if (!seen)
		return -ENOMEM;
	if (sysctl_values_equal(seen, e->value))
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_PASS,
							  .check = CHECK_SYSCTL,
							  .object = e->name,
							  .expected = e->value,
							  .actual = seen,
						  });
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = VERDICT_FAIL,
						  .check = CHECK_SYSCTL,
						  .object = e->name,
						  .expected = e->value,
						  .actual = seen,
						  .remedy = remedy,
						  .action = ACTION_APPLY,
					  });
}

int sysctl_verify(struct run *run)
{
	const struct sysctl_config *sc = sysctl_config_get(run->cfg);
	int r;

	if (!sc)
		return 0; /* no [Sysctl] section: nothing read, nothing reported */
	for (size_t i = 0; i < sc->n_expect; i++) {
		r = expect_one(run, &sc->expect[i]);
		if (r < 0)
			return r;
	}
	return 0;
}
