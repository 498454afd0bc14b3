// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>

#include "kmod/kmod-check.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "core/run.h"

static bool kmod_wanted(const struct run *run)
{
	const struct kmod_config *kc = kmod_config_get(run->cfg);

	return kc && (kc->n_rules || kc->gpudirect != GPUDIRECT_ANY);
}

static int kmod_scan_step(struct run *run)
{
	if (!kmod_wanted(run))
		return 0;
	if (!run->kmod) {
		run->kmod = calloc(1, sizeof(*run->kmod));
		if (!run->kmod)
			return -ENOMEM;
	}
	return kmod_run_scan(run->kmod, run);
}

static int kmod_plan_step(struct run *run)
{
	return run->kmod ? kmod_run_plan(run->kmod, run) : 0;
}

static int kmod_apply_step(struct run *run)
{
	int r;

	if (!run->kmod)
		return 0;
	r = kmod_run_apply(run->kmod, run);
	if (r < 0 || !sysroot_is_host(run->root))
		return r;
	return kmod_run_scan(run->kmod, run); /* verify what the kernel says now */
}

/* The modprobe.d file is restored from its record whatever the config says now. */
static int kmod_revert_step(struct run *run)
{
	return kmod_persist_revert(run);
}

static int kmod_verify_step(struct run *run)
{
	return run->kmod ? kmod_run_verify(run->kmod, run) : 0;
}

static void kmod_done_step(struct run *run)
{
	kmod_run_free(run->kmod);
	run->kmod = NULL;
}

const struct run_module run_module_kmod = {
	.name = "kmod",
	.scan = kmod_scan_step,
	.plan = kmod_plan_step,
	.apply = kmod_apply_step,
	.revert = kmod_revert_step,
	.verify = kmod_verify_step,
	.done = kmod_done_step,
};

int kmod_plan_print(const struct run *run, FILE *f)
{
	return run->kmod ? kmod_run_plan_print(run->kmod, f) : 0;
}

struct json_object *kmod_plan_json(const struct run *run)
{
	return run->kmod ? kmod_run_plan_json(run->kmod) : json_object_new_array();
}
