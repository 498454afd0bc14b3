// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pipeline's commands: no .run of their own, main.c runs the pipeline in their .mode
 * (`apply --dry-run`: RUN_DRY_RUN) and publishes the report.
 */
#include "core/command.h"

const struct command apply_command = {
	.name = "apply",
	.mode = RUN_APPLY,
	.help = "apply [--dry-run]   plan, write (when [Host] Apply=yes), verify, report",
	.flags = COMMAND_DRY_RUN | COMMAND_PUBLISH,
};

const struct command check_command = {
	.name = "check",
	.mode = RUN_CHECK,
	.help = "check               read-only evaluation and report",
	.flags = COMMAND_PUBLISH,
};

const struct command revert_command = {
	.name = "revert",
	.mode = RUN_REVERT,
	.help = "revert              restore every recorded original value",
};
