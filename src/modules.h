/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/command.h"
#include "core/config.h"
#include "core/run.h"

extern const struct run_module *const run_modules[];
extern const size_t n_run_modules;

/* Every command, in `hostprep --help` and dispatch order (src/core/command.h). */
extern const struct command *const commands[];
extern const size_t n_commands;
