// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostprep: make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work,
 * and say exactly what is wrong when it is not.
 *
 * argv (src/cli/argv.c: hostprep's own options, and the command's from its table) and the
 * dispatch to one command: src/modules.c lists them, each capability's in its folder, the
 * pipeline's (check, apply, revert) in src/cli/run-cmd.c.
 */
#include <sys/stat.h>

#include "cli/argv.h"
#include "cli/cli.h"
#include "modules.h"

static int exit_status(int r)
{
	if (r >= 0)
		return r;
	return r == -EINVAL || r == -EPERM ? EXIT_USAGE : EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
	struct options o = { .modules = &run_table };
	const struct command *cmd = NULL;
	int r;

	/* The report and /run/hostprep must stay readable for an unprivileged status. */
	umask(0022);
	r = cli_parse_argv(argc, argv, commands, n_commands, &o, &cmd);
	if (r < 0) {
		cli_usage(stderr, commands, n_commands);
		cli_options_done(&o);
		return EXIT_USAGE;
	}
	cli_set_privilege(&o);
	r = r > 0 ? 0 : cmd->run(&o);
	cli_options_done(&o);
	return exit_status(r);
}
