/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cli/command.h"
#include "run/config.h"
#include "run/run.h"

extern const struct run_module *const run_modules[];
extern const size_t n_run_modules;
/* The same as the table a run is handed (struct options.modules). */
extern const struct run_table run_table;

/* Every command, in `hostprep --help` and dispatch order (src/cli/command.h). */
extern const struct command *const commands[];
extern const size_t n_commands;
