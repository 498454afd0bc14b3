// SPDX-License-Identifier: GPL-2.0-or-later
/* `hostprep config`: the merged configuration, or --validate FILE... */
#include "core/cli.h"
#include "core/log.h"

/* What the operator passed, safe for the terminal. */
static void print_escaped(const char *s, const char *suffix)
{
	_cleanup_(freep) char *e = log_escape(s, strlen(s));

	printf("%s%s", e ? e : "?", suffix);
}

/*
 * config --validate FILE...: each FILE as it would be used once installed,
 * layered over the configuration found by the search (or --config); see
 * config_validate().
 */
static int validate(const struct options *o, const struct sysroot *root)
{
	_cleanup_(config_done) struct config cfg = {};
	int r;

	if (o->n_args == 0) {
		log_error("config --validate needs at least one FILE.");
		return -EINVAL;
	}
	r = config_validate(&cfg, root, o->n_configs ? o->configs : NULL, o->args, 0);
	if (r == -EINVAL || r == -EPERM)
		return -EINVAL; /* already logged as file:line: reason */
	if (r < 0)
		return log_error_errno(r, "Failed to load the configuration: %m");
	for (int i = 0; i < o->n_args; i++)
		print_escaped(o->args[i], ": ok\n");
	return 0;
}

static int cmd_config(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	if (o->validate)
		return validate(o, &root);
	if (o->n_args) {
		log_error("config takes no arguments (did you mean --validate?).");
		return -EINVAL;
	}
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	return config_dump(&cfg, stdout);
}

const struct command config_command = {
	.name = "config",
	.run = cmd_config,
	.help = "config [--validate FILE...]  print the merged config / validate files",
	.flags = COMMAND_ARGS | COMMAND_VALIDATE,
};
