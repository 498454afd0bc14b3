/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cli/command.h"
#include "run/config.h"
#include "core/result.h"
#include "core/sysroot.h"

/* What the commands share: the root, the configuration and the output as the options say. */

struct json_object;

/*
 * Whether the process is privileged (euid 0), asked of the kernel here and nowhere else:
 * sets o->privileged, which every command and run carries (struct run.privileged), and
 * tells the PCI layer, which says why config space is limited. main() calls it once.
 */
void cli_set_privilege(struct options *o);
/* ANSI colour on stdout: not --no-color, not --json, a terminal, no NO_COLOR. */
bool use_color(const struct options *o);
/* --root (NULL: /); one that is not a directory is a usage error (-EINVAL, logged). */
int open_root(const struct options *o, struct sysroot *root);
/*
 * The configuration of --config (else the search), flags as config_load(). -EINVAL for
 * an invalid one (logged as file:line: reason), another negative errno logged.
 */
int load_config(const struct options *o, const struct sysroot *root, unsigned flags,
		struct config *c);
/* The report on stdout as text (colour, width per -v) or --json; flushed. */
int render(const struct options *o, const struct report *rep);
/* A JSON document on stdout, pretty-printed like every --json output, and a newline. */
void print_json(struct json_object *j);
