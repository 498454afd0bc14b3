// SPDX-License-Identifier: GPL-2.0-or-later
/* `hostprep config`: the merged configuration, or --validate FILE..., --validate-as NAME FILE */
#include "cli/cli.h"
#include "core/log.h"

/* What the operator passed, safe for the terminal. */
static void print_escaped(const char *s, const char *suffix)
{
	_cleanup_(freep) char *e = log_escape(s, strlen(s));

	printf("%s%s", e ? e : "?", suffix);
}

/*
 * --validate-as NAME: a name the search reads, so that FILE takes an installed file's
 * place: hostprep.conf or a drop-in's NAME.conf, a plain name (the directory is the
 * search's), not a dot-file (never read).
 */
static bool valid_as(const char *name)
{
	size_t n = strlen(name);

	return !strchr(name, '/') && name[0] != '.' && n > strlen(".conf") &&
	       streq(name + n - strlen(".conf"), ".conf");
}

static int check_validate_args(const struct options *o)
{
	if (o->n_args == 0) {
		log_error("config --validate needs at least one FILE.");
		return -EINVAL;
	}
	if (!o->validate_as)
		return 0;
	if (o->n_args != 1) {
		log_error("config --validate-as NAME takes one FILE.");
		return -EINVAL;
	}
	if (!valid_as(o->validate_as)) {
		log_error(
			"--validate-as: '%s' is not a name the config search reads (hostprep.conf "
			"or a drop-in's NAME.conf, without a directory).",
			o->validate_as);
		return -EINVAL;
	}
	return 0;
}

/*
 * config --validate FILE...: each FILE as it would be used once installed,
 * layered over the configuration found by the search (or --config); with
 * --validate-as NAME, FILE as it would be used installed as NAME (the way
 * Ansible validates its temp file); see config_validate_as().
 */
static int validate(const struct options *o, const struct sysroot *root)
{
	_cleanup_(config_done) struct config cfg = {};
	int r;

	r = check_validate_args(o);
	if (r < 0)
		return r;
	r = config_validate_as(&cfg, root, o->n_configs ? o->configs : NULL, o->args,
			       o->validate_as, 0);
	if (r == -EINVAL || r == -EPERM)
		return -EINVAL; /* already logged as file:line: reason */
	if (r < 0)
		return log_error_errno(r, "Failed to load the configuration: %m");
	for (int i = 0; i < o->n_args; i++)
		print_escaped(o->args[i], o->validate_as ? ": ok as " : ": ok\n");
	if (o->validate_as)
		print_escaped(o->validate_as, "\n");
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

static int set_validate(struct options *o, char *arg)
{
	o->validate = true;
	return 0;
}

static int set_validate_as(struct options *o, char *arg)
{
	o->validate = true;
	o->validate_as = arg;
	return 0;
}

static const struct command_option config_options[] = {
	{ "validate", 0, NULL, "validate the FILEs as installed, print nothing else",
	  set_validate },
	{ "validate-as", 0, "NAME",
	  "validate one FILE as the installed NAME (hostprep.conf, "
	  "a drop-in's NAME.conf)",
	  set_validate_as },
	{}
};

const struct command config_command = {
	.name = "config",
	.run = cmd_config,
	.help = "config [--validate FILE... | --validate-as NAME FILE]  print the merged config "
		"/ validate files (FILE as the installed NAME)",
	.flags = COMMAND_ARGS,
	.options = config_options,
};
