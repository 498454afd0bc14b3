// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostprep: make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work,
 * and say exactly what is wrong when it is not.
 *
 * The global options and the dispatch to one command: src/modules.c lists them, each
 * capability's in its folder, the pipeline's (check, apply, revert) in src/cli/run-cmd.c.
 */
#include <getopt.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "run/config.h"
#include "core/log.h"
#include "modules.h"
#include "core/sysroot.h"

static void options_done(struct options *o)
{
	free(o->configs);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: hostprep [OPTIONS] COMMAND\n\n"
		   "Make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work.\n\nCommands:\n");
	for (size_t i = 0; i < n_commands; i++)
		fprintf(f, "  %s\n", commands[i]->help);
	fprintf(f,
		"\nOptions:\n"
		"  --root DIR       inspect/change the host tree under DIR (default /)\n"
		"  --config FILE    use FILE instead of the config search (repeatable); such a\n"
		"                   run does not replace the published report unless it writes\n"
		"  --publish        check/apply --config: publish the report anyway\n"
		"  --vendor-config FILE  read FILE in place of /usr/lib/hostprep/hostprep.conf,\n"
		"                   as the vendor's (what installing it would say); no publish\n"
		"  --json           JSON output (schema in docs/report-schema.md)\n"
		"  --no-color       no ANSI colour (also NO_COLOR=1)\n"
		"  -v, --verbose    debug messages on stderr; table lines not cut to 120 columns\n"
		"  -o FILE          snapshot: write the tar to FILE (- for stdout; --output)\n"
		"  -h, --help       this help\n"
		"      --version    print the version\n\n"
		"Exit status: 0 ready, 1 not ready, 2 usage or config error, 3 internal error.\n");
}

enum {
	OPT_ROOT = 0x100,
	OPT_CONFIG,
	OPT_JSON,
	OPT_NO_COLOR,
	OPT_DRY_RUN,
	OPT_VALIDATE,
	OPT_VERSION,
	OPT_INSTALL,
	OPT_UNINSTALL,
	OPT_PUBLISH,
	OPT_ONELINE,
	OPT_VALIDATE_AS,
	OPT_VENDOR_CONFIG,
};

static const struct option long_options[] = {
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "vendor-config", required_argument, NULL, OPT_VENDOR_CONFIG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "validate", no_argument, NULL, OPT_VALIDATE },
	{ "validate-as", required_argument, NULL, OPT_VALIDATE_AS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "install", no_argument, NULL, OPT_INSTALL },
	{ "uninstall", no_argument, NULL, OPT_UNINSTALL },
	{ "publish", no_argument, NULL, OPT_PUBLISH },
	{ "oneline", no_argument, NULL, OPT_ONELINE },
	{ "output", required_argument, NULL, 'o' },
	{}
};

static int add_config(struct options *o, char *path)
{
	char **v = reallocarray(o->configs, o->n_configs + 2, sizeof(char *));

	if (!v)
		return -ENOMEM;
	o->configs = v;
	o->configs[o->n_configs++] = path;
	o->configs[o->n_configs] = NULL;
	return 0;
}

/* 1: handled and done (help/version); 0: go on; <0: usage error. */
static int parse_one(struct options *o, int c)
{
	switch (c) {
	case OPT_ROOT:
		o->root = optarg;
		return 0;
	case OPT_CONFIG:
		return add_config(o, optarg);
	case OPT_VENDOR_CONFIG:
		o->vendor_config = optarg;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_VALIDATE:
		o->validate = true;
		return 0;
	case OPT_VALIDATE_AS:
		o->validate = true;
		o->validate_as = optarg;
		return 0;
	case OPT_INSTALL:
		o->install = true;
		return 0;
	case OPT_UNINSTALL:
		o->uninstall = true;
		return 0;
	case OPT_PUBLISH:
		o->publish = true;
		return 0;
	case OPT_ONELINE:
		o->oneline = true;
		return 0;
	case 'o':
		o->output = optarg;
		return 0;
	case 'v':
		o->verbose = true;
		log_set_max_level(LOG_DEBUG);
		return 0;
	case 'h':
		usage(stdout);
		return 1;
	case OPT_VERSION:
		printf("hostprep %s\n", HOSTPREP_VERSION);
		return 1;
	default:
		return -EINVAL;
	}
}

static bool takes(const struct command *cmd, unsigned flag)
{
	return cmd->flags & flag;
}

static int parse_argv(int argc, char **argv, struct options *o, const struct command **cmd)
{
	int c, r;

	while ((c = getopt_long(argc, argv, "vho:", long_options, NULL)) >= 0) {
		r = parse_one(o, c);
		if (r != 0)
			return r;
	}
	if (optind >= argc) {
		log_error("Missing COMMAND.");
		return -EINVAL;
	}
	for (size_t i = 0; i < n_commands && !*cmd; i++)
		if (streq(argv[optind], commands[i]->name))
			*cmd = commands[i];
	if (!*cmd) {
		log_error("Unknown command '%s'.", argv[optind]);
		return -EINVAL;
	}
	if ((o->dry_run && !takes(*cmd, COMMAND_DRY_RUN)) ||
	    (o->validate && !takes(*cmd, COMMAND_VALIDATE)) ||
	    ((o->install || o->uninstall) && !takes(*cmd, COMMAND_INSTALL))) {
		log_error("--dry-run goes with apply, --validate with config, --install and "
			  "--uninstall with acs cmdline.");
		return -EINVAL;
	}
	if ((o->oneline && (!takes(*cmd, COMMAND_ONELINE) || o->json)) ||
	    (o->publish && !takes(*cmd, COMMAND_PUBLISH)) || (o->publish && o->dry_run)) {
		log_error("--oneline goes with status (not with --json), --publish with check "
			  "and apply (not --dry-run).");
		return -EINVAL;
	}
	if (o->vendor_config && o->n_configs) {
		log_error("--vendor-config goes with the config search, not with --config.");
		return -EINVAL;
	}
	if (o->output && !takes(*cmd, COMMAND_OUTPUT)) {
		log_error("-o/--output goes with snapshot.");
		return -EINVAL;
	}
	o->args = argv + optind + 1;
	o->n_args = argc - optind - 1;
	if (o->n_args && !takes(*cmd, COMMAND_ARGS)) {
		log_error("'%s' takes no arguments.", (*cmd)->name);
		return -EINVAL;
	}
	return 0;
}

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
	r = parse_argv(argc, argv, &o, &cmd);
	if (r < 0) {
		usage(stderr);
		options_done(&o);
		return EXIT_USAGE;
	}
	cli_set_privilege(&o);
	r = r > 0 ? 0 : cmd->run(&o);
	options_done(&o);
	return exit_status(r);
}
