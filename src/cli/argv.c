// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line, in the shape of kmod's tools and systemd's verbs: hostprep's own
 * options are here, each command's are in its table (struct command.options, in its
 * folder). One getopt_long() pass over the union of all tables finds the command word
 * wherever the options are (GNU getopt permutes, and which options take an argument is
 * the same for every command, so `--root check check` is still the root "check"); then
 * each option is handed to the table of hostprep or of that command, and one of another
 * command's table is a usage error that says whose it is.
 */
#include <getopt.h>

#include "cli/argv.h"
#include "core/log.h"
#include "core/strbuf.h"

/* Options in all tables together, each name once (a test checks that they fit). */
#define ARGV_OPTIONS_MAX 64
#define HELP_COLUMN	 24
#define HELP_WIDTH	 79

static int set_root(struct options *o, char *arg)
{
	o->root = arg;
	return 0;
}

static int add_config(struct options *o, char *arg)
{
	char **v = reallocarray(o->configs, o->n_configs + 2, sizeof(char *));

	if (!v)
		return -ENOMEM;
	o->configs = v;
	o->configs[o->n_configs++] = arg;
	o->configs[o->n_configs] = NULL;
	return 0;
}

static int set_vendor_config(struct options *o, char *arg)
{
	o->vendor_config = arg;
	return 0;
}

static int set_json(struct options *o, char *arg)
{
	o->json = true;
	return 0;
}

static int set_no_color(struct options *o, char *arg)
{
	o->no_color = true;
	return 0;
}

static int set_verbose(struct options *o, char *arg)
{
	o->verbose = true;
	log_set_max_level(LOG_DEBUG);
	return 0;
}

/* No setter: the parser's own answers, given once the command word is known. */
static const struct command_option global_options[] = {
	{ "root", 0, "DIR", "inspect/change the host tree under DIR (default /)", set_root },
	{ "config", 0, "FILE",
	  "use FILE instead of the config search (repeatable); such a run does not replace "
	  "the published report unless it writes",
	  add_config },
	{ "vendor-config", 0, "FILE",
	  "read FILE in place of /usr/lib/hostprep/hostprep.conf, as the vendor's (what "
	  "installing it would say); not with --config; no publish",
	  set_vendor_config },
	{ "json", 0, NULL, "JSON output (schema in docs/report-schema.md)", set_json },
	{ "no-color", 0, NULL, "no ANSI colour (also NO_COLOR=1)", set_no_color },
	{ "verbose", 'v', NULL, "debug messages on stderr; table lines not cut to 120 columns",
	  set_verbose },
	{ "help", 'h', NULL, "this help; after COMMAND, that command's", NULL },
	{ "version", 0, NULL, "print the version", NULL },
	/* every table, one option a line, for tests/doc and completion/hostprep.bash */
	{ "list-options", 0, NULL, NULL, NULL },
	{}
};

static const struct command_option *find_option(const struct command_option *t, const char *name)
{
	for (; t && t->name; t++)
		if (streq(t->name, name))
			return t;
	return NULL;
}

static bool is_global(const struct command_option *opt)
{
	return opt >= global_options && opt < global_options + ARRAY_SIZE(global_options);
}

/* The union of the tables, as getopt_long() takes it. */
struct getopt_table {
	const struct command_option *opt[ARGV_OPTIONS_MAX]; /* the first table's of a name */
	struct option longs[ARGV_OPTIONS_MAX + 1];
	char shorts[2 * ARGV_OPTIONS_MAX + 1];
	size_t n;
};

/*
 * 1: a command before had this option, alike (has an argument or not, short letter);
 * 0: new; -EEXIST: two tables disagree, or a command's would hide one of hostprep's.
 */
static int table_has(const struct getopt_table *t, const struct command_option *opt)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct command_option *had = t->opt[i];

		if (!streq(had->name, opt->name) &&
		    (!opt->short_name || had->short_name != opt->short_name))
			continue;
		if (is_global(had) || !streq(had->name, opt->name) ||
		    had->short_name != opt->short_name || !had->arg != !opt->arg)
			return -EEXIST;
		return 1;
	}
	return 0;
}

static int table_add(struct getopt_table *t, const struct command_option *opts)
{
	size_t len = strlen(t->shorts);

	for (; opts && opts->name; opts++) {
		int r = table_has(t, opts);

		if (r < 0)
			return r;
		if (r > 0)
			continue;
		if (t->n >= ARGV_OPTIONS_MAX)
			return -E2BIG;
		t->opt[t->n] = opts;
		t->longs[t->n++] =
			(struct option){ .name = opts->name,
					 .has_arg = opts->arg ? required_argument : no_argument };
		if (opts->short_name) {
			t->shorts[len++] = opts->short_name;
			if (opts->arg)
				t->shorts[len++] = ':';
		}
	}
	return 0;
}

static int table_build(struct getopt_table *t, const struct command *const *cmds, size_t n)
{
	int r = table_add(t, global_options);

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = table_add(t, cmds[i]->options);
	return r;
}

/* An option as getopt_long() found it, handed to its table once the command is known. */
struct seen_option {
	const struct command_option *opt; /* the union's entry */
	char *arg;
	bool as_short; /* given as -X: the error names it so */
};

static const struct command_option *by_short(const struct getopt_table *t, int c)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->opt[i]->short_name == c)
			return t->opt[i];
	return NULL;
}

static const struct command *find_command(const struct command *const *cmds, size_t n,
					  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (streq(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

/*
 * The first pass: where the command word is once getopt has moved the options ahead. On a
 * copy: the second pass must see argv as typed (`check --root` moved to `--root check`
 * would read as the root "check").
 */
static int command_word(int argc, char **argv, const struct getopt_table *t, const char **word)
{
	_cleanup_(freep) char **copy = malloc((argc + 1) * sizeof(char *));
	int saved = opterr;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, argv, (argc + 1) * sizeof(char *));
	opterr = 0; /* the second pass says what is wrong */
	optind = 0; /* GNU: start over (a test parses more than once) */
	while (getopt_long(argc, copy, t->shorts, t->longs, NULL) >= 0)
		;
	opterr = saved;
	*word = optind < argc ? copy[optind] : NULL;
	return 0;
}

/* "--dry-run is an option of apply, not of check." for the first one of another table. */
static int log_stray(const struct seen_option *s, const struct command *const *cmds, size_t n,
		     const struct command *cmd)
{
	_cleanup_(strbuf_done) struct strbuf owners = {};

	for (size_t i = 0; i < n; i++)
		if (find_option(cmds[i]->options, s->opt->name))
			strbuf_printf(&owners, "%s%s", owners.s ? ", " : "", cmds[i]->name);
	if (s->as_short)
		log_error("-%c is an option of %s, not of %s.", s->opt->short_name, owners.s ?: "?",
			  cmd->name);
	else
		log_error("--%s is an option of %s, not of %s.", s->opt->name, owners.s ?: "?",
			  cmd->name);
	return -EINVAL;
}

static void command_help(FILE *f, const struct command *cmd);
static void list_options(FILE *f, const struct command *const *cmds, size_t n);

/* --help (of the command, when one is named), --version, --list-options: 1, printed. */
static int answer(const struct command_option *opt, const struct command *const *cmds, size_t n,
		  const struct command *cmd)
{
	if (streq(opt->name, "version"))
		printf("hostprep %s\n", HOSTPREP_VERSION);
	else if (streq(opt->name, "list-options"))
		list_options(stdout, cmds, n);
	else if (cmd)
		command_help(stdout, cmd);
	else
		cli_usage(stdout, cmds, n);
	return 1;
}

struct parse {
	const struct command *const *cmds;
	size_t n_cmds;
	const struct command *cmd; /* NULL: none named, or no such (said after the loop) */
	struct seen_option stray;  /* the first option of another table */
};

/* One option of the second pass: 0 set (or left for later), 1 answered, <0 error. */
static int take_option(struct parse *p, struct options *o, const struct seen_option *s)
{
	const struct command_option *own = s->opt;

	if (!is_global(own))
		own = p->cmd ? find_option(p->cmd->options, s->opt->name) : NULL;
	if (own && !own->set)
		return answer(own, p->cmds, p->n_cmds, p->cmd);
	if (own)
		return own->set(o, s->arg);
	if (p->cmd && !p->stray.opt)
		p->stray = *s;
	return 0;
}

/* The second pass, in argv's order as today: an answer wins over what comes after it. */
static int take_options(int argc, char **argv, const struct getopt_table *t, struct parse *p,
			struct options *o)
{
	int c, idx, r;

	optind = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, t->shorts, t->longs, &idx);
		if (c < 0)
			return 0;
		if (c == '?')
			return -EINVAL; /* getopt said why */
		if (idx < 0 && !by_short(t, c))
			return -EINVAL; /* not one of the table's: getopt_long() would not */
		r = take_option(p, o,
				&(struct seen_option){ idx >= 0 ? t->opt[idx] : by_short(t, c),
						       optarg, idx < 0 });
		if (r != 0)
			return r;
	}
}

/* What no single table can refuse: a command, its arguments, the globals together. */
static int check_command(const struct parse *p, const struct options *o, const char *word)
{
	if (!word) {
		log_error("Missing COMMAND.");
		return -EINVAL;
	}
	if (!p->cmd) {
		log_error("Unknown command '%s'.", word);
		return -EINVAL;
	}
	if (p->stray.opt)
		return log_stray(&p->stray, p->cmds, p->n_cmds, p->cmd);
	if (o->vendor_config && o->n_configs) {
		log_error("--vendor-config goes with the config search, not with --config.");
		return -EINVAL;
	}
	if (o->n_args && !(p->cmd->flags & COMMAND_ARGS)) {
		log_error("'%s' takes no arguments.", p->cmd->name);
		return -EINVAL;
	}
	return p->cmd->check ? p->cmd->check(o) : 0;
}

int cli_parse_argv(int argc, char **argv, const struct command *const *cmds, size_t n_cmds,
		   struct options *o, const struct command **cmd)
{
	struct getopt_table t = {};
	struct parse p = { .cmds = cmds, .n_cmds = n_cmds };
	const char *word = NULL;
	int r;

	r = table_build(&t, cmds, n_cmds);
	if (r < 0)
		return log_error_errno(r, "Invalid option tables (more than %d, or at odds): %m",
				       ARGV_OPTIONS_MAX);
	r = command_word(argc, argv, &t, &word);
	if (r < 0)
		return r;
	p.cmd = word ? find_command(cmds, n_cmds, word) : NULL;
	r = take_options(argc, argv, &t, &p, o);
	if (r != 0)
		return r;
	if (word) {
		o->args = argv + optind + 1;
		o->n_args = argc - optind - 1;
	}
	r = check_command(&p, o, word);
	if (r < 0)
		return r;
	*cmd = p.cmd;
	return 0;
}

void cli_options_done(struct options *o)
{
	free(o->configs);
	o->configs = NULL;
	o->n_configs = 0;
}

/* TEXT from column HELP_COLUMN, cut at spaces to HELP_WIDTH; col: where the line is now. */
static void print_wrapped(FILE *f, int col, const char *text)
{
	const char *w = text;

	if (col >= HELP_COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_COLUMN - col, "");
	col = HELP_COLUMN;
	while (*w) {
		size_t len = strcspn(w, " ");

		if (col > HELP_COLUMN && col + 1 + (int)len > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (col > HELP_COLUMN) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, w);
		col += len;
		w += len + strspn(w + len, " ");
	}
	fputc('\n', f);
}

/* "  -o, --output FILE      what": PREFIX (a command's name) before the help, if any. */
static void print_option(FILE *f, const struct command_option *opt, const char *prefix)
{
	_cleanup_(strbuf_done) struct strbuf help = {};
	int col;

	if (opt->short_name)
		col = fprintf(f, "  -%c, --%s", opt->short_name, opt->name);
	else
		col = fprintf(f, "      --%s", opt->name);
	if (opt->arg)
		col += fprintf(f, " %s", opt->arg);
	strbuf_printf(&help, "%s%s%s", prefix ?: "", prefix ? ": " : "", opt->help);
	print_wrapped(f, col, help.s ?: opt->help);
}

static void print_options(FILE *f, const struct command_option *t)
{
	for (; t && t->name; t++)
		if (t->help)
			print_option(f, t, NULL);
}

/* Each command option once, after the names of the commands that take it. */
static void print_command_options(FILE *f, const struct command *const *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (const struct command_option *opt = cmds[i]->options; opt && opt->name; opt++) {
			_cleanup_(strbuf_done) struct strbuf owners = {};
			bool before = false;

			for (size_t j = 0; j < i && !before; j++)
				before = find_option(cmds[j]->options, opt->name);
			for (size_t j = i; j < n && !before; j++)
				if (find_option(cmds[j]->options, opt->name))
					strbuf_printf(&owners, "%s%s", owners.s ? ", " : "",
						      cmds[j]->name);
			if (!before && opt->help)
				print_option(f, opt, owners.s ?: cmds[i]->name);
		}
}

void cli_usage(FILE *f, const struct command *const *cmds, size_t n_cmds)
{
	fprintf(f, "Usage: hostprep [OPTIONS] COMMAND [ARGS]\n"
		   "       hostprep COMMAND --help\n\n"
		   "Make a GPU/RDMA host ready for NCCL, GPUDirect and RDMA work.\n\nCommands:\n");
	for (size_t i = 0; i < n_cmds; i++)
		fprintf(f, "  %s\n", cmds[i]->help);
	fprintf(f, "\nOptions (before or after the command):\n");
	print_options(f, global_options);
	fprintf(f, "\nOptions of one command (before or after it):\n");
	print_command_options(f, cmds, n_cmds);
	fprintf(f, "\nExit status: 0 ready, 1 not ready, 2 usage or config error, 3 internal "
		   "error.\n");
}

static void command_help(FILE *f, const struct command *cmd)
{
	fprintf(f, "Usage: hostprep [OPTIONS] %s [OPTIONS OF %s]\n\n  %s\n\n", cmd->name, cmd->name,
		cmd->help);
	if (cmd->options && cmd->options->name) {
		fprintf(f, "Options of %s (before or after it):\n", cmd->name);
		print_options(f, cmd->options);
		fputc('\n', f);
	}
	fprintf(f, "hostprep's own options: hostprep --help.\n");
}

/* "OWNER SHORT LONG ARG" a line, "-" for none; OWNER "hostprep" for the global ones. */
static void list_table(FILE *f, const char *owner, const struct command_option *t)
{
	for (; t && t->name; t++)
		if (t->help)
			fprintf(f, "%s %s%c --%s %s\n", owner, t->short_name ? "-" : "",
				t->short_name ?: '-', t->name, t->arg ?: "-");
}

static void list_options(FILE *f, const struct command *const *cmds, size_t n)
{
	list_table(f, "hostprep", global_options);
	for (size_t i = 0; i < n; i++)
		list_table(f, cmds[i]->name, cmds[i]->options);
}
