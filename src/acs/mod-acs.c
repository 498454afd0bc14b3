// SPDX-License-Identifier: GPL-2.0-or-later
#include "acs/acs-grub.h"
#include "acs/acs-verify.h"
#include "acs/apply.h"
#include "core/log.h"
#include "core/run.h"

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

static void acs_release(struct run *run)
{
	pci_inventory_done(&run->pci_inv);
	pcib_close(run->pci);
	run->pci = NULL;
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

static int acs_scan(struct run *run)
{
	int r;

	if (!acs_wanted(run))
		return 0;
	acs_release(run);
	r = pcib_open(&run->pci, run->root);
	if (r >= 0)
		r = pcib_scan_caps(run->pci, &run->pci_inv, plan_wants_caps, (void *)run->cfg);
	if (r >= 0)
		r = acs_load_caps(run);
	/* p2p: selects ports by their pairs: after apply/revert too, not only for the plan. */
	if (r >= 0 && plan_load_caps(run->cfg, run->pci, &run->pci_inv) == -ENOMEM)
		r = -ENOMEM;
	if (r == -ENOMEM)
		return r;
	run->pci_err = r < 0 ? r : 0;
	if (r < 0)
		log_warning_errno(r, "Failed to enumerate PCI devices: %m");
	return 0;
}

static int acs_plan(struct run *run)
{
	int r;

	plan_done(&run->plan);
	if (run->pci_err < 0)
		return 0;
	r = plan_load_caps(run->cfg, run->pci, &run->pci_inv);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		log_warning_errno(r,
				  "Failed to read the capabilities of a p2p: path, ignoring: %m");
	return plan_build(run->cfg, &run->pci_inv, &run->plan);
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
	int r;

	if (run->pci_err < 0 || run->plan.n_actions == 0)
		return 0;
	r = apply_acs(&env, &run->plan, &run->results);
	if (r < 0)
		return r;
	return acs_scan(run); /* verify what the hardware says now, not what we meant */
}

static int acs_revert(struct run *run)
{
	struct apply_env env = acs_env(run);
	int r;

	/* The GRUB drop-in of `acs cmdline --install` is a file: it does not need the PCI scan. */
	r = acs_grub_revert(run->root, &run->results);
	if (r < 0)
		return r;
	if (run->pci_err < 0)
		return results_addf(&run->results, VERDICT_FAIL, "acs.revert", "host", "restored",
				    NULL, "cannot enumerate PCI devices: %s",
				    strerror(-run->pci_err));
	r = revert_acs(&env, &run->results);
	if (r < 0)
		return r;
	return acs_scan(run);
}

/* While hostprep's GRUB drop-in is recorded, every run says what grub-mkconfig makes of it. */
static int acs_grub_step(struct run *run)
{
	int r = acs_grub_recorded(run->root);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(&run->results, VERDICT_UNKNOWN, "acs.grub", ACS_GRUB_FILE,
				    "hostprep's record of the drop-in readable", NULL,
				    "cannot read /var/lib/hostprep/originals: %s", strerror(-r));
	return r > 0 ? acs_grub_chain_verify(run->root, &run->results) : 0;
}

static int acs_verify_step(struct run *run)
{
	int r;

	if (run->mode != RUN_REVERT) {
		r = acs_grub_step(run);
		if (r < 0)
			return r;
	}
	if (!acs_rules(run))
		return 0;
	if (run->pci_err < 0)
		return results_addf(&run->results, VERDICT_UNKNOWN, "acs", "host", "readable", NULL,
				    "cannot enumerate PCI devices: %s", strerror(-run->pci_err));
	r = acs_verify(&run->plan, &run->pci_inv, run->cfg->apply, run->host.osrelease,
		       &run->results);
	if (r < 0)
		return r;
	return acs_cmdline_verify(&run->plan, &run->pci_inv, &run->host.cmdline,
				  run->host.osrelease, &run->results);
}

static void acs_done(struct run *run)
{
	plan_done(&run->plan);
	acs_release(run);
}

const struct run_module run_module_acs = {
	.name = "acs",
	.scan = acs_scan,
	.plan = acs_plan,
	.apply = acs_apply,
	.revert = acs_revert,
	.verify = acs_verify_step,
	.done = acs_done,
};
