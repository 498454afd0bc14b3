/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/*
 * The command line: src/cli/argv.c parses hostprep's own options and the options of the
 * command named into struct options, and main.c dispatches to that struct command. Each
 * capability defines its commands, with their options, in its own folder
 * (src/acs/acs-cmd.c, src/rdma/rdma-cmd.c, ...); the one list of them, in `--help` and
 * dispatch order, is commands[] in src/modules.c.
 */
struct options {
	/* the run modules, src/modules.c's table (main.c): a command runs the pipeline on it */
	const struct run_table *modules;
	/* hostprep's own options (src/cli/argv.c), before or after the command */
	const char *root;
	char **configs; /* NULL-terminated, --config may repeat */
	size_t n_configs;
	/* --vendor-config FILE: read as the vendor's file of the search, NULL without it */
	const char *vendor_config;
	bool json;
	bool no_color;
	bool verbose; /* -v: debug messages, and the table's lines not cut */
	/* euid 0, asked once (cli_set_privilege()); runs carry it (struct run.privileged) */
	bool privileged;
	/* the effective uid, asked with it: whose own files a command may trust (gate) */
	uid_t euid;
	char **args; /* positional arguments after the command */
	int n_args;
	/* Where the options of one command land, set by its own table's setters. */
	bool dry_run;  /* apply --dry-run */
	bool publish;  /* check/apply: publish the report of a --config run anyway */
	bool validate; /* config --validate */
	/* config --validate-as NAME (sets validate too), NULL without it */
	const char *validate_as;
	bool install;	/* acs cmdline --install */
	bool uninstall; /* acs cmdline --uninstall */
	bool oneline;	/* status --oneline */
	/* snapshot -o FILE ("-": stdout), NULL without -o */
	const char *output;
};

/*
 * One option in a command's table (or hostprep's own, src/cli/argv.c): getopt_long's
 * entry, its line in `hostprep COMMAND --help`, and what `hostprep --list-options` tells
 * the doc tier and the bash completion. An option named in another command's table is a
 * usage error that names its command.
 */
struct command_option {
	const char *name; /* the long name, without "--" */
	char short_name;  /* 0: none */
	const char *arg;  /* the argument's name in the help ("FILE"); NULL: takes none */
	const char *help; /* one line; NULL: hidden (not in the help, not listed) */
	/* Stores it (arg NULL when it takes none); a negative errno is a usage error. */
	int (*set)(struct options *o, char *arg);
};

/* What a command accepts beyond the options of its table; argv.c refuses the rest. */
enum {
	COMMAND_ARGS = 1 << 0, /* positional arguments (o->args) */
};

struct command {
	const char *name;
	/*
	 * Returns an exit status (EXIT_READY, EXIT_NOT_READY) or a negative errno: -EINVAL
	 * and -EPERM exit 2 (usage, configuration), any other exits 3. The pipeline's own
	 * (check, apply, revert) are in src/cli/run-cmd.c.
	 */
	int (*run)(const struct options *o);
	const char *help;		      /* its line in `hostprep --help` */
	unsigned flags;			      /* COMMAND_* */
	const struct command_option *options; /* its own, {}-terminated; NULL: none */
	/*
	 * After every option is set: refuses a combination (-EINVAL, logged), e.g. two of its
	 * options that exclude each other. NULL: none to refuse.
	 */
	int (*check)(const struct options *o);
};
