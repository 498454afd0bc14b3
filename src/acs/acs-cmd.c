// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep acs cmdline [--install|--uninstall]`: the boot-time form of the ACS policy,
 * printed, or written as hostprep's GRUB drop-in, or that drop-in removed.
 */
#include "acs/acs-boot.h"
#include "acs/acs-cmdline.h"
#include "acs/acs-grub.h"
#include "acs/acs-verify.h"
#include "cli/cli.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/record.h"
#include "report/report-header.h"

extern const struct run_module run_module_acs;

/*
 * What the argument is made of, and nothing more: the acs module's own scan and plan
 * (the PCI functions the rules can select, their capabilities, the rules' plan) in a run
 * of that module alone (run.only), and the running kernel's release.
 */
struct acs_cmd_view {
	const char *osrelease;
	const struct plan *plan;
	const struct pci_inventory *inv;
};

static struct acs_cmd_view acs_cmd_view(const struct run *run)
{
	return (struct acs_cmd_view){
		.osrelease = run->host.osrelease,
		.plan = acs_run_plan(run),
		.inv = &run->pci_inv,
	};
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
	case KERNEL_ACS_UNKNOWN:
		/* config_acs= on a kernel before 6.11 is ignored, on 6.11-6.14.1 half-read */
		log_error("Kernel release %s%s%s: which boot-time ACS parameter it takes "
			  "(pci=disable_acs_redir= from 4.19, pci=config_acs= from 6.11, fixed in "
			  "6.12.23) cannot be told, so no argument is printed; check "
			  "the host's kernel release (uname -r), or run hostprep apply at every "
			  "boot.",
			  v->osrelease ? "'" : "", v->osrelease ? v->osrelease : "unknown",
			  v->osrelease ? "' does not parse" : "");
		return -EDOM;
	case KERNEL_ACS_NONE:
		r = acs_cmdline_format(v->plan, v->inv, ret);
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
		r = acs_cmdline_format_redir(v->plan, v->inv, ret, &bad);
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
		r = acs_cmdline_format(v->plan, v->inv, ret);
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
	return acs_cmdline_format(v->plan, v->inv, ret);
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
 * Each boot path the next boot may use (acs-boot.h): Debian's GRUB through the drop-in,
 * BLS and kernel-install hosts through their own files. None known: the drop-in's refusal.
 */
static int acs_install(const struct sysroot *root, const char *arg, int *mask, struct results *rs)
{
	int r;

	*mask = boot_paths_detect(root);
	if (*mask < 0)
		return *mask;
	if (*mask & ~BOOT_GRUB_DEBIAN) {
		r = acs_boot_install(root, *mask, arg, rs);
		if (r < 0 || !(*mask & BOOT_GRUB_DEBIAN))
			return r;
	}
	return acs_grub_install(root, arg, rs);
}

static int acs_uninstall(const struct sysroot *root, struct results *rs)
{
	int r = acs_grub_revert(root, rs);

	return r < 0 ? r : acs_boot_revert(root, rs);
}

static void acs_install_advice(int mask)
{
	if (mask & BOOT_GRUB_DEBIAN || !mask)
		log_notice("Regenerate grub.cfg and reboot: update-grub (Debian, Ubuntu).");
	if (mask & BOOT_GRUB_BLS)
		log_notice("The BLS entries carry it, as grubby --update-kernel=ALL --args would "
			   "leave them: reboot.");
	if (mask & BOOT_KERNEL_INSTALL)
		log_notice("The loader entries and /etc/kernel/cmdline carry it: reboot. A unified "
			   "kernel image keeps the command line it was built with: kernel-install "
			   "add $(uname -r) /usr/lib/modules/$(uname -r)/vmlinuz builds it again.");
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
	int mask = 0, r;

	r = record_lock(root, &lock);
	if (r < 0)
		return log_error_errno(r, "Failed to take the run lock: %m");
	r = o->install ? acs_install(root, arg, &mask, &rs) : acs_uninstall(root, &rs);
	if (r < 0)
		return log_error_errno(r, "Failed to %s the boot-time ACS argument: %m",
				       o->install ? "install" : "uninstall");
	if (rs.n == 0) {
		log_notice("Nothing to uninstall: hostprep has not installed the boot-time ACS "
			   "argument.");
		return 0;
	}
	r = acs_grub_report(o, root, apply, &rs);
	if (r == EXIT_READY && o->install)
		acs_install_advice(mask);
	return r;
}

static int cmd_acs(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(freep) char *arg = NULL;
	struct run run;
	int r;

	if (o->n_args != 1 || !streq(o->args[0], "cmdline") || (o->install && o->uninstall)) {
		log_error("usage: hostprep acs cmdline [--install|--uninstall]");
		return -EINVAL;
	}
	r = open_root(o, &root);
	if (r < 0)
		return r;
	if ((o->install || o->uninstall) && !o->privileged) {
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
	run_init(&run, o->modules, &root, &cfg, RUN_DRY_RUN, o->privileged);
	run.only = &run_module_acs;
	r = run_execute(&run);
	if (r >= 0) {
		struct acs_cmd_view v = acs_cmd_view(&run);

		r = acs_arg_for_kernel(&v, &arg);
	}
	run_done(&run);
	if (r == -ENODATA) {
		log_notice("No ACS-capable port is selected by the configuration%s.",
			   o->install ? ": nothing to install (--uninstall removes a drop-in "
					"installed before)"
				      : "");
		return 0;
	}
	if (acs_cmdline_unreadable(r)) {
		log_error("Cannot tell which selected ports have ACS: %s.",
			  acs_cmdline_unreadable_text(r)->actual);
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

static int set_install(struct options *o, char *arg)
{
	o->install = true;
	return 0;
}

static int set_uninstall(struct options *o, char *arg)
{
	o->uninstall = true;
	return 0;
}

static const struct command_option acs_options[] = {
	{ "install", 0, NULL, "with cmdline: write the argument as a GRUB drop-in", set_install },
	{ "uninstall", 0, NULL, "with cmdline: remove the drop-in, put back what was there",
	  set_uninstall },
	{}
};

const struct command acs_command = {
	.name = "acs",
	.run = cmd_acs,
	.help = "acs cmdline [--install|--uninstall]  print the boot-time ACS argument for the "
		"policy / write it as a GRUB drop-in / remove that",
	.flags = COMMAND_ARGS,
	.options = acs_options,
};
