// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>

#include "kmod/kmod-check.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "run/run.h"

/* The kmod module's state in a run: NULL until a run with kmod rules scans. */
struct kmod_mod {
	struct kmod_run *k;
};

const struct run_module run_module_kmod;

static struct kmod_run *kmod_of(const struct run *run)
{
	return ((struct kmod_mod *)run_state(run, &run_module_kmod))->k;
}

static bool kmod_wanted(const struct run *run)
{
	const struct kmod_config *kc = kmod_config_get(run->cfg);

	return kc && (kc->n_rules || kc->gpudirect != GPUDIRECT_ANY);
}

static int kmod_scan_step(struct run *run)
{
	struct kmod_mod *m = run_state(run, &run_module_kmod);

	if (!kmod_wanted(run))
		return 0;
	if (!m->k) {
		m->k = calloc(1, sizeof(*m->k));
		if (!m->k)
			return -ENOMEM;
	}
	return kmod_run_scan(m->k, run);
}

static int kmod_plan_step(struct run *run)
{
	struct kmod_run *k = kmod_of(run);

	return k ? kmod_run_plan(k, run) : 0;
}

static int kmod_apply_step(struct run *run)
{
	struct kmod_run *k = kmod_of(run);
	int r;

	if (!k)
		return 0;
	r = kmod_run_apply(k, run);
	if (sysroot_is_host(run->root) && kmod_run_touched_kernel(k))
		run_pci_changed(run);
	if (r < 0 || !sysroot_is_host(run->root))
		return r;
	return kmod_run_scan(k, run); /* verify what the kernel says now */
}

/*
 * The modprobe.d file is restored from its record whatever the config says now. Its
 * module.revert results say whether it is back (pass) or nothing was recorded (none, or
 * skip); anything worse leaves it not restored.
 */
static int kmod_revert_step(struct run *run)
{
	size_t from = run->results.n;
	int r = kmod_persist_revert(run);

	if (r >= 0 && results_worst_from(&run->results, from) > VERDICT_SKIP)
		run_revert_incomplete(run);
	return r;
}

static int kmod_verify_step(struct run *run)
{
	struct kmod_run *k = kmod_of(run);

	return k ? kmod_run_verify(k, run) : 0;
}

static void kmod_done_step(struct run *run)
{
	struct kmod_mod *m = run_state(run, &run_module_kmod);

	kmod_run_free(m->k);
	m->k = NULL;
}

/*
 * apply --dry-run: the planned module actions, as lines (nothing without module rules) or
 * as the document's "modules" array (empty without module rules).
 */
static int kmod_print_plan(const struct run *run, FILE *f, struct json_object *doc)
{
	const struct kmod_run *k = kmod_of(run);
	struct json_object *actions;

	if (!doc)
		return k ? kmod_run_plan_print(k, f) : 0;
	actions = k ? kmod_run_plan_json(k) : json_object_new_array();
	if (!actions)
		actions = json_object_new_array();
	if (!actions || json_object_object_add(doc, "modules", actions) < 0)
		return -ENOMEM;
	return 0;
}

const struct run_module run_module_kmod = {
	.name = "kmod",
	.state_size = sizeof(struct kmod_mod),
	.scan = kmod_scan_step,
	.plan = kmod_plan_step,
	.apply = kmod_apply_step,
	.revert = kmod_revert_step,
	.verify = kmod_verify_step,
	.print_plan = kmod_print_plan,
	.done = kmod_done_step,
};
