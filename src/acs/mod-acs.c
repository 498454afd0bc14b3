// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>

#include "acs/acs-boot.h"
#include "acs/acs-cmdline.h"
#include "acs/acs-grub.h"
#include "acs/acs-verify.h"
#include "acs/apply.h"
#include "acs/isolation.h"
#include "core/log.h"
#include "run/run.h"

/*
 * The acs module's state in a run: the plan, built from the run's PCI inventory, and why
 * the inventory (with the capabilities the rules need) is missing, 0 if present.
 */
struct acs_state {
	struct plan plan;
	int err;
	unsigned loaded; /* the run->pci_scans whose capabilities were loaded */
};

const struct run_module run_module_acs;

static struct acs_state *acs_state(const struct run *run)
{
	return run_state(run, &run_module_acs);
}

const struct plan *acs_run_plan(const struct run *run)
{
	return &acs_state(run)->plan;
}

static bool acs_rules(const struct run *run)
{
	for (size_t i = 0; i < acs_config_get(run->cfg)->n_rules; i++)
		if (acs_config_get(run->cfg)->rules[i].enabled)
			return true;
	return false;
}

/* revert restores what was recorded even when the rules are gone from the config. */
static bool acs_wanted(const struct run *run)
{
	return acs_rules(run) || run->mode == RUN_REVERT;
}

/*
 * The scan read each function's header, and the capability chains of what a rule can
 * select while it had the function open (plan_wants_caps()); this catches any it could
 * not place then (a parent listed after its child), and nothing else is read before
 * the plan.
 */
static int acs_load_caps(struct run *run)
{
	_cleanup_(freep) bool *want = calloc(run->pci_inv.n + 1, sizeof(*want));

	if (!want)
		return -ENOMEM;
	if (plan_candidates(run->cfg, &run->pci_inv, want) == 0)
		return 0;
	for (size_t i = 0; i < run->pci_inv.n; i++)
		if (want[i]) {
			int r = pcib_load_caps(run->pci, &run->pci_inv, i);

			if (r < 0)
				return r;
		}
	return 0;
}

static bool acs_wants_pci(const struct run *run)
{
	return acs_wanted(run);
}

static unsigned acs_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return plan_wants_caps(info, (void *)run->cfg);
}

/*
 * After each read of the run's inventory (the scan, the refresh after apply or revert):
 * the capabilities of what a rule can select, and of the p2p: pairs' ports.
 */
static int acs_load(struct run *run)
{
	struct acs_state *s = acs_state(run);
	int r = run->pci_err;

	if (s->loaded == run->pci_scans)
		return 0;
	s->loaded = run->pci_scans;
	if (r >= 0)
		r = acs_load_caps(run);
	/* p2p: selects ports by their pairs: after apply/revert too, not only for the plan. */
	if (r >= 0 && plan_load_caps(run->cfg, run->pci, &run->pci_inv) == -ENOMEM)
		r = -ENOMEM;
	if (r == -ENOMEM)
		return r;
	s->err = r < 0 ? r : 0;
	if (r < 0)
		log_warning_errno(r, "Failed to enumerate PCI devices: %m");
	return 0;
}

static int acs_scan(struct run *run)
{
	return acs_wanted(run) ? acs_load(run) : 0;
}

static int acs_plan(struct run *run)
{
	struct plan *plan = &acs_state(run)->plan;
	_cleanup_(freep) struct acs_fn_iommu *fn = NULL;
	int r;

	plan_done(plan);
	if (!acs_wanted(run)) {
		/* no rule: the inventory other modules may have read is not the plan's */
		const struct pci_inventory none = {};

		return plan_build(run->cfg, &none, plan);
	}
	r = acs_load(run); /* revert read the inventory again */
	if (r < 0 || acs_state(run)->err < 0)
		return r;
	r = plan_load_caps(run->cfg, run->pci, &run->pci_inv);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		log_warning_errno(r,
				  "Failed to read the capabilities of a p2p: path, ignoring: %m");
	r = plan_build(run->cfg, &run->pci_inv, plan);
	if (r < 0 || plan->n_targets == 0)
		return r;
	/* what relaxing each port does to the IOMMU groups below, and to VMs' devices */
	r = acs_isolation_read(run->root, &run->pci_inv, plan, &fn);
	if (r < 0)
		return r;
	return plan_isolation(plan, &run->pci_inv, fn);
}

static struct apply_env acs_env(const struct run *run)
{
	return (struct apply_env){
		.root = run->root,
		.pci = run->pci,
		.lockdown = run->host.lockdown,
		.osrelease = run->host.osrelease,
	};
}

static int acs_apply(struct run *run)
{
	struct apply_env env = acs_env(run);
	struct plan *plan = &acs_state(run)->plan;
	int r;

	if (acs_state(run)->err < 0 || plan->n_actions == 0)
		return 0;
	r = apply_acs(&env, plan, &run->results);
	if (r < 0)
		return r;
	run_pci_changed(run); /* verify what the hardware says now, not what we meant */
	return 0;
}

static int acs_revert_all(struct run *run)
{
	struct apply_env env = acs_env(run);
	int r;

	/* What `acs cmdline --install` wrote are files: they do not need the PCI scan. */
	r = acs_grub_revert(run->root, &run->results);
	if (r >= 0)
		r = acs_boot_revert(run->root, &run->results);
	if (r < 0)
		return r;
	if (acs_state(run)->err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = "host",
					    .expected = "restored",
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s",
				    strerror(-acs_state(run)->err));
	r = revert_acs(&env, &run->results);
	if (r < 0)
		return r;
	run_pci_changed(run);
	return 0;
}

/*
 * Each acs.revert result says of one original (or of the record) whether it is back:
 * pass restored, skip nothing recorded; anything worse leaves something not restored.
 */
static int acs_revert(struct run *run)
{
	size_t from = run->results.n;
	int r = acs_revert_all(run);

	if (r >= 0 && results_worst_from(&run->results, from) > VERDICT_SKIP)
		run_revert_incomplete(run);
	return r;
}

/* While hostprep's GRUB drop-in is recorded, every run says what grub-mkconfig makes of it. */
static int acs_grub_step(struct run *run)
{
	int r = acs_grub_recorded(run->root);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "acs.grub",
					    .object = ACS_GRUB_FILE,
					    .expected = "hostprep's record of the drop-in readable",
					    .action = ACTION_INSPECT,
				    },
				    "cannot read /var/lib/hostprep/originals: %s", strerror(-r));
	return r > 0 ? acs_grub_chain_verify(run->root, run->privileged, &run->results) : 0;
}

/*
 * While `acs cmdline --install` has BLS or kernel-install files recorded, every check judges
 * every entry again: one edited since, or a new kernel's made without the argument.
 */
static int acs_boot_step(struct run *run)
{
	_cleanup_(freep) char *arg = NULL;
	int r = acs_cmdline_for_kernel(acs_run_plan(run), &run->pci_inv, run->host.osrelease, &arg);

	if (r == -ENOMEM)
		return r;
	if (r < 0) /* no argument for this policy: acs.cmdline says why */
		return 0;
	return acs_boot_check(run->root, arg, &run->results);
}

static int acs_verify_step(struct run *run)
{
	const struct plan *plan = acs_run_plan(run);
	int r;

	if (run->mode != RUN_REVERT) {
		r = acs_grub_step(run);
		if (r < 0)
			return r;
	}
	if (!acs_rules(run))
		return 0;
	r = acs_load(run); /* apply wrote: the inventory was read again */
	if (r < 0)
		return r;
	if (acs_state(run)->err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "acs",
					    .object = "host",
					    .expected = "readable",
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s",
				    strerror(-acs_state(run)->err));
	r = acs_verify(plan, &run->pci_inv, run->cfg->apply, run->host.osrelease, &run->results);
	if (r < 0)
		return r;
	if (run->mode != RUN_REVERT) {
		r = acs_boot_step(run);
		if (r < 0)
			return r;
	}
	return acs_cmdline_verify_at(run->root, plan, &run->pci_inv, &run->host.cmdline,
				     run->host.osrelease, &run->results);
}

/* apply --dry-run: the plan's lines, or the document's "plan" object. */
static int acs_print_plan(const struct run *run, FILE *f, struct json_object *doc)
{
	struct plan_doc pd = {
		.scan_err = acs_state(run)->err,
		.limited_short = pci_limited_text(pci_limited_cause())->why,
		.limited_detail = pci_limited_text(pci_limited_cause())->actual,
	};
	struct json_object *plan;

	if (!doc)
		return plan_print(acs_run_plan(run), &pd, f);
	plan = plan_json(acs_run_plan(run), &pd);
	if (!plan || json_object_object_add(doc, "plan", plan) < 0)
		return -ENOMEM;
	return 0;
}

static void acs_done(struct run *run)
{
	plan_done(&acs_state(run)->plan);
}

const struct run_module run_module_acs = {
	.name = "acs",
	.state_size = sizeof(struct acs_state),
	.wants_pci = acs_wants_pci,
	.pci_wants_caps = acs_pci_wants_caps,
	.scan = acs_scan,
	.plan = acs_plan,
	.apply = acs_apply,
	.revert = acs_revert,
	.verify = acs_verify_step,
	.print_plan = acs_print_plan,
	.done = acs_done,
};
