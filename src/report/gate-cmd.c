// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep gate UNIT`: the ExecCondition= of a gated workload. Exit 0 lets UNIT start,
 * 1 (or 2, 3) makes systemd skip it. The first start of UNIT in a boot waits for READY;
 * a later one in the same boot passes (gate.h says why and how it is recorded).
 */
#include "cli/cli.h"
#include "core/log.h"
#include "report/gate.h"
#include "report/status.h"

/* The verdict on stdout as `status --oneline` prints it: the daemon's journal keeps it. */
static int print_verdict(const struct options *o, const struct sysroot *root)
{
	struct options line = *o;

	line.oneline = true;
	line.json = false;
	return status_show(&line, root);
}

/* A record that cannot be used is no proof: said, and the verdict decides. */
static bool passed_this_boot(const struct options *o, const struct sysroot *root, const char *unit,
			     const char *boot_id)
{
	int r = gate_passed(root, unit, boot_id, o->euid);

	if (r == -ENOMEM)
		log_oom();
	else if (r < 0)
		log_warning_errno(r,
				  "Cannot use the gate's record of %s (/run/%s/%s): %m; "
				  "ignoring it, the verdict decides.",
				  unit, GATE_DIR, unit);
	return r > 0;
}

static int start_again(const struct options *o, const struct sysroot *root, const char *unit)
{
	(void)print_verdict(o, root);
	log_notice("%s already passed this gate in this boot: it starts again whatever the "
		   "verdict (only the first start of a boot waits for READY).",
		   unit);
	return EXIT_READY;
}

static void record(const struct sysroot *root, const char *unit, const char *boot_id)
{
	int r = gate_record(root, unit, boot_id);

	if (r < 0)
		log_warning_errno(r,
				  "Cannot record that %s passed the gate in this boot: %m; a "
				  "restart of it while the host is not ready will be held back.",
				  unit);
}

static int check_unit(const struct options *o)
{
	if (o->n_args != 1) {
		log_error("gate takes one UNIT (the gated unit's name, %%n in a unit file).");
		return -EINVAL;
	}
	if (!gate_name_valid(o->args[0])) {
		log_error("gate: not a unit name: '%s'.", o->args[0]);
		return -EINVAL;
	}
	return 0;
}

static int cmd_gate(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	char id[BOOT_ID_LEN + 1];
	const char *unit, *boot_id = NULL;
	int r;

	r = check_unit(o);
	if (r < 0)
		return r;
	unit = o->args[0];
	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = gate_boot_id(&root, id);
	if (r < 0)
		log_warning_errno(r, "Cannot read the boot ID: %m; the verdict decides, and "
				     "nothing is recorded.");
	else
		boot_id = id;
	if (boot_id && passed_this_boot(o, &root, unit, boot_id))
		return start_again(o, &root, unit);
	r = print_verdict(o, &root);
	if (r == EXIT_READY && boot_id)
		record(&root, unit, boot_id);
	return r;
}

const struct command gate_command = {
	.name = "gate",
	.run = cmd_gate,
	.help = "gate UNIT           ExecCondition= of a gated unit: its first start in a boot "
		"waits for READY",
	.flags = COMMAND_ARGS,
};
