/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "cli/command.h"

/*
 * argv into struct options and the command named, hostprep's own options and the
 * command's (its struct command.options), before or after the command word. cmds is the
 * dispatch table (commands[] of src/modules.c; a test's own). Returns 0 to run *cmd,
 * 1 when an answer was printed (--help, COMMAND --help, --version, --list-options), or
 * -EINVAL for a usage error (logged; the caller prints the usage) and -ENOMEM. o->configs
 * is allocated: cli_options_done().
 */
int cli_parse_argv(int argc, char **argv, const struct command *const *cmds, size_t n_cmds,
		   struct options *o, const struct command **cmd);
void cli_options_done(struct options *o);
/* `hostprep --help`: the commands, hostprep's options and each command's, from the tables. */
void cli_usage(FILE *f, const struct command *const *cmds, size_t n_cmds);
