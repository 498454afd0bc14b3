// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep acs cmdline [--install|--uninstall]`: the boot-time form of the ACS policy,
 * printed, or written as hostprep's GRUB drop-in, or that drop-in removed.
 */
#include "acs/acs-cmdline.h"
#include "acs/acs-grub.h"
#include "acs/acs-verify.h"
#include "core/cli.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/record.h"
#include "report/report-header.h"

/*
 * What the argument is made of, and nothing more: the running kernel's release, the PCI
 * functions the ACS rules can select (their capabilities) and the rules' plan for them.
 */
struct acs_cmd_view {
	char *osrelease;
	struct pci_backend *pci;
	struct pci_inventory inv;
	int pci_err; /* why the inventory is missing: the plan is empty then */
	struct plan plan;
};

static void acs_cmd_view_done(struct acs_cmd_view *v)
{
	plan_done(&v->plan);
	pci_inventory_done(&v->inv);
	pcib_close(v->pci);
	free(v->osrelease);
	*v = (struct acs_cmd_view){};
}

static bool acs_rules_enabled(const struct config *cfg)
{
	for (size_t i = 0; i < cfg->n_acs; i++)
		if (cfg->acs[i].enabled)
			return true;
	return false;
}

static void read_osrelease(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_PROC, "sys/kernel/osrelease");
	int r;

	if (!path)
		return;
	r = read_one_line(path, ret);
	if (r < 0 && r != -ENOENT)
		log_debug_errno(r, "Failed to read %s: %m", path);
}

/*
 * The capability chains of what a rule can select that the scan could not place while it
 * had the function open (a parent listed after its child), as the acs module's scan does.
 */
static int load_candidate_caps(const struct config *cfg, struct acs_cmd_view *v)
{
	_cleanup_(freep) bool *want = calloc(v->inv.n + 1, sizeof(*want));

	if (!want)
		return -ENOMEM;
	if (plan_candidates(cfg, &v->inv, want) == 0)
		return 0;
	for (size_t i = 0; i < v->inv.n; i++)
		if (want[i]) {
			int r = pcib_load_caps(v->pci, &v->inv, i);

			if (r < 0)
				return r;
		}
	return 0;
}

/* The acs module's scan and plan (src/acs/mod-acs.c), with the same messages. */
static int acs_cmd_scan(const struct sysroot *root, const struct config *cfg,
			struct acs_cmd_view *v)
{
	int r;

	if (!acs_rules_enabled(cfg))
		return 0;
	r = pcib_open(&v->pci, root);
	if (r >= 0)
		r = pcib_scan_caps(v->pci, &v->inv, plan_wants_caps, (void *)cfg);
	if (r >= 0)
		r = load_candidate_caps(cfg, v);
	if (r >= 0 && plan_load_caps(cfg, v->pci, &v->inv) == -ENOMEM)
		r = -ENOMEM;
	if (r == -ENOMEM)
		return r;
	v->pci_err = r < 0 ? r : 0;
	if (r < 0)
		log_warning_errno(r, "Failed to enumerate PCI devices: %m");
	return 0;
}

static int acs_cmd_plan(const struct config *cfg, struct acs_cmd_view *v)
{
	int r;

	if (v->pci_err < 0)
		return 0;
	r = plan_load_caps(cfg, v->pci, &v->inv);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		log_warning_errno(r,
				  "Failed to read the capabilities of a p2p: path, ignoring: %m");
	return plan_build(cfg, &v->inv, &v->plan);
}

static int acs_cmd_read(const struct sysroot *root, const struct config *cfg,
			struct acs_cmd_view *v)
{
	int r;

	read_osrelease(root, &v->osrelease);
	r = acs_cmd_scan(root, cfg, v);
	if (r < 0)
		return r;
	return acs_cmd_plan(cfg, v);
}

/*
 * The boot-time argument for the policy, in the form the running kernel
 * understands: pci=config_acs= from 6.11, pci=disable_acs_redir= before
 * (only for a policy that is exactly x0x00xx, all that parameter does).
 * Exit 1 when there is no such argument for this policy on this kernel.
 */
static int acs_arg_for_kernel(const struct acs_cmd_view *v, char **ret)
{
	const char *rel = v->osrelease ? v->osrelease : "(unknown)";
	const struct acs_target *bad = NULL;
	char mask[ACS_MASK_BITS + 1];
	int r;

	switch (kernel_acs_param(v->osrelease)) {
	case KERNEL_ACS_NONE:
		r = acs_cmdline_format(&v->plan, &v->inv, ret);
		if (r < 0)
			return r;
		free(*ret);
		*ret = NULL;
		log_error("Kernel %s has no boot-time ACS parameter (pci=disable_acs_redir= came "
			  "with 4.19, pci=config_acs= with 6.11): hostprep apply at every boot is "
			  "the only way.",
			  rel);
		return -EDOM;
	case KERNEL_ACS_REDIR:
		r = acs_cmdline_format_redir(&v->plan, &v->inv, ret, &bad);
		if (r != -EDOM)
			return r;
		acs_mask_format(&bad->mask, mask);
		log_error("Kernel %s predates pci=config_acs= (6.11); pci=disable_acs_redir= only "
			  "clears RR,CR,EC (x0x00xx), but port %s wants %s (rules %s): no "
			  "boot-time form for this policy on this kernel.",
			  rel, bad->addr, mask, bad->rules);
		return -EDOM;
	case KERNEL_ACS_CONFIG_BUGGY:
		/* An argument the kernel only partly honours is refused like the others. */
		r = acs_cmdline_format(&v->plan, &v->inv, ret);
		if (r < 0)
			return r;
		free(*ret);
		*ret = NULL;
		log_error("Kernel %s may lack the 2025 pci=config_acs fix (6.12.23, 6.13.11, "
			  "6.14.2, 6.15): it honours only the first entry and takes '0' flags "
			  "from the firmware, so the policy would not be applied at boot; boot a "
			  "fixed kernel, hostprep apply sets ACS after every boot until then.",
			  rel);
		return -EDOM;
	case KERNEL_ACS_CONFIG:
		break;
	}
	return acs_cmdline_format(&v->plan, &v->inv, ret);
}

/* The drop-in's results as a report of their own, rendered like a run's. */
static int acs_grub_report(const struct options *o, const struct sysroot *root, bool apply,
			   struct results *rs)
{
	_cleanup_(freep) char *host = root_hostname(root);
	struct report rep;
	struct summary s;
	int r;

	if (!host)
		return -ENOMEM;
	r = report_init(&rep, o->install ? "acs cmdline --install" : "acs cmdline --uninstall",
			host, apply);
	if (r < 0)
		return r;
	rep.results = *rs;
	*rs = (struct results){};
	r = render(o, &rep);
	results_summarize(&rep.results, &s);
	report_done(&rep);
	return r < 0 ? r : summary_exit_status(&s);
}

/*
 * --install / --uninstall: an explicit admin command, so it writes whatever [Host] Apply
 * says (Apply= is about the service's runs); under the run lock like every writer.
 */
static int acs_grub_change(const struct options *o, const struct sysroot *root, bool apply,
			   const char *arg)
{
	_cleanup_(results_done) struct results rs = {};
	_cleanup_(closep) int lock = -1;
	int r;

	r = record_lock(root, &lock);
	if (r < 0)
		return log_error_errno(r, "Failed to take the run lock: %m");
	r = o->install ? acs_grub_install(root, arg, &rs) : acs_grub_revert(root, &rs);
	if (r < 0)
		return log_error_errno(r, "Failed to %s " ACS_GRUB_FILE ": %m",
				       o->install ? "install" : "uninstall");
	if (rs.n == 0) {
		log_notice("Nothing to uninstall: hostprep has not installed " ACS_GRUB_FILE ".");
		return 0;
	}
	r = acs_grub_report(o, root, apply, &rs);
	if (r == EXIT_READY)
		log_notice("Regenerate grub.cfg and reboot: update-grub (Debian, Ubuntu). "
			   "grub2-mkconfig (RHEL, Fedora) does not read /etc/default/grub.d: "
			   "there use grubby --update-kernel=ALL --args=... instead.");
	return r;
}

static int cmd_acs(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(freep) char *arg = NULL;
	struct acs_cmd_view v = {};
	int r;

	if (o->n_args != 1 || !streq(o->args[0], "cmdline") || (o->install && o->uninstall)) {
		log_error("usage: hostprep acs cmdline [--install|--uninstall]");
		return -EINVAL;
	}
	r = open_root(o, &root);
	if (r < 0)
		return r;
	if ((o->install || o->uninstall) && geteuid() != 0) {
		log_error("'acs cmdline --%s' changes the host and needs root.",
			  o->install ? "install" : "uninstall");
		return -EPERM;
	}
	/* The way back must work whatever the configuration says now. */
	if (o->uninstall)
		return acs_grub_change(o, &root, false, NULL);
	r = load_config(o, &root, o->install ? CONFIG_REQUIRE_ROOT_OWNED : 0, &cfg);
	if (r < 0)
		return r;
	r = acs_cmd_read(&root, &cfg, &v);
	if (r >= 0)
		r = acs_arg_for_kernel(&v, &arg);
	acs_cmd_view_done(&v);
	if (r == -ENODATA) {
		log_notice("No ACS-capable port is selected by the configuration%s.",
			   o->install ? ": nothing to install (--uninstall removes a drop-in "
					"installed before)"
				      : "");
		return 0;
	}
	if (r == -EACCES || r == -ENOMEDIUM) {
		log_error("Cannot tell which selected ports have ACS: %s.",
			  r == -ENOMEDIUM ? acs_no_ext_text()->actual
					  : acs_limited_text(pci_limited_cause())->actual);
		return EXIT_NOT_READY;
	}
	if (r == -EDOM)
		return EXIT_NOT_READY;
	if (r < 0)
		return r;
	if (o->install)
		return acs_grub_change(o, &root, cfg.apply, arg);
	printf("%s\n", arg);
	return 0;
}

const struct command acs_command = {
	.name = "acs",
	.run = cmd_acs,
	.help = "acs cmdline [--install|--uninstall]  print the boot-time ACS argument for the "
		"policy / write it as a GRUB drop-in / remove that",
	.flags = COMMAND_ARGS | COMMAND_INSTALL,
};
