/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cli/command.h"
#include "core/sysroot.h"

/*
 * `hostprep status` below the root: the last report as the options say (text, --json,
 * --oneline), and its readiness as the exit status (EXIT_READY, EXIT_NOT_READY; no
 * report or a damaged one is NOT READY, said on stdout with --oneline), or a negative
 * errno. The boot gate (gate-cmd.c) prints its verdict through it.
 */
int status_show(const struct options *o, const struct sysroot *root);
