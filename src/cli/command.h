/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/*
 * The command line: main.c parses the global options into struct options and dispatches
 * to one struct command. Each capability defines its commands in its own folder
 * (src/acs/acs-cmd.c, src/rdma/rdma-cmd.c, ...); the one list of them, in `--help` and
 * dispatch order, is commands[] in src/modules.c.
 */
struct options {
	/* the run modules, src/modules.c's table (main.c): a command runs the pipeline on it */
	const struct run_table *modules;
	const char *root;
	char **configs; /* NULL-terminated, --config may repeat */
	size_t n_configs;
	bool json;
	bool no_color;
	bool dry_run;
	bool validate;
	bool install;	/* acs cmdline --install */
	bool uninstall; /* acs cmdline --uninstall */
	bool publish;	/* check/apply --config: publish the report anyway */
	bool oneline;	/* status --oneline */
	bool verbose;	/* -v: debug messages, and the table's lines not cut */
	/* euid 0, asked once (cli_set_privilege()); runs carry it (struct run.privileged) */
	bool privileged;
	/* the effective uid, asked with it: whose own files a command may trust (gate) */
	uid_t euid;
	char **args; /* positional arguments after the command */
	int n_args;
	/* snapshot -o FILE ("-": stdout), NULL without -o */
	const char *output;
	/* config --validate-as NAME (sets validate too), NULL without it */
	const char *validate_as;
	/* --vendor-config FILE: read as the vendor's file of the search, NULL without it */
	const char *vendor_config;
};

/* What a command accepts beyond the global options; main.c refuses the rest (exit 2). */
enum {
	COMMAND_ARGS = 1 << 0,	   /* positional arguments (o->args) */
	COMMAND_DRY_RUN = 1 << 1,  /* --dry-run */
	COMMAND_VALIDATE = 1 << 2, /* --validate, --validate-as */
	COMMAND_INSTALL = 1 << 3,  /* --install and --uninstall */
	COMMAND_PUBLISH = 1 << 4,  /* --publish (not with --dry-run) */
	COMMAND_ONELINE = 1 << 5,  /* --oneline (not with --json) */
	COMMAND_OUTPUT = 1 << 6,   /* -o, --output FILE */
};

struct command {
	const char *name;
	/*
	 * Returns an exit status (EXIT_READY, EXIT_NOT_READY) or a negative errno: -EINVAL
	 * and -EPERM exit 2 (usage, configuration), any other exits 3. The pipeline's own
	 * (check, apply, revert) are in src/cli/run-cmd.c.
	 */
	int (*run)(const struct options *o);
	const char *help; /* its line in `hostprep --help` */
	unsigned flags;	  /* COMMAND_* */
};
