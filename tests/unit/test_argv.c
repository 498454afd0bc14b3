// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line (src/cli/argv.c) with the real tables (commands[] of src/modules.c):
 * hostprep's options and a command's, before or after the command word; an option of
 * another command refused, naming whose it is; an argument that looks like a command
 * word; "--".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/argv.h"
#include "modules.h"

#define ARGS_MAX 16

struct parsed {
	char *argv[ARGS_MAX + 1]; /* getopt permutes it, so a copy */
	struct options o;
	const struct command *cmd;
	char err[1024];	 /* what it logged */
	char out[16384]; /* what it printed */
	int r;
};

/* fd's output during the call, into buf: the messages and the help are the contract. */
struct capture {
	int fd, saved;
	FILE *f;
};

static void capture_start(struct capture *c, int fd)
{
	c->fd = fd;
	c->f = tmpfile();
	assert_non_null(c->f);
	fflush(NULL);
	c->saved = dup(fd);
	dup2(fileno(c->f), fd);
}

static void capture_end(struct capture *c, char *buf, size_t size)
{
	fflush(NULL);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->f);
	buf[fread(buf, 1, size - 1, c->f)] = '\0';
	fclose(c->f);
}

static void parse_words(struct parsed *p, const char *words)
{
	char line[512], *save = NULL;
	struct capture out, err;
	int argc = 0;

	*p = (struct parsed){};
	p->argv[argc++] = strdup("hostprep");
	snprintf(line, sizeof(line), "%s", words);
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		assert_true(argc < ARGS_MAX);
		p->argv[argc++] = strdup(w);
	}
	capture_start(&out, STDOUT_FILENO);
	capture_start(&err, STDERR_FILENO);
	p->r = cli_parse_argv(argc, p->argv, commands, n_commands, &p->o, &p->cmd);
	capture_end(&err, p->err, sizeof(p->err));
	capture_end(&out, p->out, sizeof(p->out));
}

static void parsed_done(struct parsed *p)
{
	cli_options_done(&p->o);
	for (size_t i = 0; p->argv[i]; i++)
		free(p->argv[i]);
}

static void assert_ok(struct parsed *p, const char *cmd)
{
	if (p->r != 0)
		fail_msg("'%s': %d, %s", cmd, p->r, p->err);
	assert_non_null(p->cmd);
	assert_string_equal(p->cmd->name, cmd);
}

static void assert_refused(struct parsed *p, const char *why)
{
	assert_int_equal(p->r, -EINVAL);
	if (!strstr(p->err, why))
		fail_msg("logged '%s', want '%s'", p->err, why);
}

static void test_global_before_and_after(void **state)
{
	struct parsed p;

	parse_words(&p, "--json --root /r check");
	assert_ok(&p, "check");
	assert_true(p.o.json);
	assert_string_equal(p.o.root, "/r");
	assert_int_equal(p.o.n_args, 0);
	parsed_done(&p);

	parse_words(&p, "check --json --root=/r --no-color");
	assert_ok(&p, "check");
	assert_true(p.o.json);
	assert_true(p.o.no_color);
	assert_string_equal(p.o.root, "/r");
	assert_int_equal(p.o.n_args, 0);
	parsed_done(&p);

	parse_words(&p, "--config a.conf status --config b.conf");
	assert_ok(&p, "status");
	assert_int_equal(p.o.n_configs, 2);
	assert_string_equal(p.o.configs[0], "a.conf");
	assert_string_equal(p.o.configs[1], "b.conf");
	assert_null(p.o.configs[2]);
	parsed_done(&p);
}

static void test_command_option_before_and_after(void **state)
{
	struct parsed p;

	parse_words(&p, "--dry-run apply");
	assert_ok(&p, "apply");
	assert_true(p.o.dry_run);
	assert_false(p.o.publish);
	parsed_done(&p);

	parse_words(&p, "apply --dry-run");
	assert_ok(&p, "apply");
	assert_true(p.o.dry_run);
	parsed_done(&p);

	parse_words(&p, "--publish check");
	assert_ok(&p, "check");
	assert_true(p.o.publish);
	parsed_done(&p);

	parse_words(&p, "-o out.tar snapshot");
	assert_ok(&p, "snapshot");
	assert_string_equal(p.o.output, "out.tar");
	parsed_done(&p);

	parse_words(&p, "snapshot --output -");
	assert_ok(&p, "snapshot");
	assert_string_equal(p.o.output, "-");
	parsed_done(&p);

	parse_words(&p, "acs --install cmdline");
	assert_ok(&p, "acs");
	assert_true(p.o.install);
	assert_false(p.o.uninstall);
	assert_int_equal(p.o.n_args, 1);
	assert_string_equal(p.o.args[0], "cmdline");
	parsed_done(&p);

	parse_words(&p, "--validate-as 50-site.conf config x.conf");
	assert_ok(&p, "config");
	assert_true(p.o.validate);
	assert_string_equal(p.o.validate_as, "50-site.conf");
	assert_int_equal(p.o.n_args, 1);
	assert_string_equal(p.o.args[0], "x.conf");
	parsed_done(&p);

	parse_words(&p, "status --oneline");
	assert_ok(&p, "status");
	assert_true(p.o.oneline);
	parsed_done(&p);
}

static void test_other_commands_option_refused(void **state)
{
	struct parsed p;

	parse_words(&p, "check --dry-run");
	assert_refused(&p, "--dry-run is an option of apply, not of check.");
	assert_false(p.o.dry_run);
	parsed_done(&p);

	parse_words(&p, "--dry-run check");
	assert_refused(&p, "--dry-run is an option of apply, not of check.");
	parsed_done(&p);

	parse_words(&p, "check -o c.tar");
	assert_refused(&p, "-o is an option of snapshot, not of check.");
	assert_null(p.o.output);
	parsed_done(&p);

	parse_words(&p, "--output c.tar apply");
	assert_refused(&p, "--output is an option of snapshot, not of apply.");
	parsed_done(&p);

	parse_words(&p, "--publish status");
	assert_refused(&p, "--publish is an option of apply, check, not of status.");
	parsed_done(&p);

	parse_words(&p, "gate --oneline kubelet.service");
	assert_refused(&p, "--oneline is an option of status, not of gate.");
	parsed_done(&p);

	parse_words(&p, "check --install");
	assert_refused(&p, "--install is an option of acs, not of check.");
	parsed_done(&p);

	parse_words(&p, "check --validate-as x.conf");
	assert_refused(&p, "--validate-as is an option of config, not of check.");
	parsed_done(&p);
}

static void test_each_command_checks_its_own(void **state)
{
	struct parsed p;

	parse_words(&p, "--config t.conf --publish apply --dry-run");
	assert_refused(&p, "--publish is not with --dry-run");
	parsed_done(&p);

	parse_words(&p, "--json status --oneline");
	assert_refused(&p, "--oneline is not with --json");
	parsed_done(&p);

	parse_words(&p, "status --json");
	assert_ok(&p, "status");
	parsed_done(&p);

	parse_words(&p, "--vendor-config v.conf --config c.conf check");
	assert_refused(&p, "--vendor-config goes with the config search, not with --config");
	parsed_done(&p);

	parse_words(&p, "check extra");
	assert_refused(&p, "'check' takes no arguments.");
	parsed_done(&p);
}

static void test_argument_like_a_command(void **state)
{
	struct parsed p;

	parse_words(&p, "--root check check");
	assert_ok(&p, "check");
	assert_string_equal(p.o.root, "check");
	assert_int_equal(p.o.n_args, 0);
	parsed_done(&p);

	parse_words(&p, "--config apply -o snapshot snapshot");
	assert_ok(&p, "snapshot");
	assert_string_equal(p.o.configs[0], "apply");
	assert_string_equal(p.o.output, "snapshot");
	parsed_done(&p);

	/* an option argument that is an option of another command */
	parse_words(&p, "config --validate-as --dry-run.conf x");
	assert_ok(&p, "config");
	assert_string_equal(p.o.validate_as, "--dry-run.conf");
	assert_false(p.o.dry_run);
	parsed_done(&p);
}

static void test_double_dash(void **state)
{
	struct parsed p;

	parse_words(&p, "config --validate -- -x.conf");
	assert_ok(&p, "config");
	assert_true(p.o.validate);
	assert_int_equal(p.o.n_args, 1);
	assert_string_equal(p.o.args[0], "-x.conf");
	parsed_done(&p);

	parse_words(&p, "--json -- check");
	assert_ok(&p, "check");
	assert_true(p.o.json);
	parsed_done(&p);

	/* after "--", --json is an argument, which check does not take */
	parse_words(&p, "check -- --json");
	assert_refused(&p, "'check' takes no arguments.");
	assert_false(p.o.json);
	parsed_done(&p);
}

static void test_usage_errors(void **state)
{
	struct parsed p;

	parse_words(&p, "--json");
	assert_refused(&p, "Missing COMMAND.");
	parsed_done(&p);

	parse_words(&p, "frobnicate --dry-run");
	assert_refused(&p, "Unknown command 'frobnicate'.");
	parsed_done(&p);

	parse_words(&p, "--no-such-option check");
	assert_refused(&p, "no-such-option");
	parsed_done(&p);

	parse_words(&p, "check --root");
	assert_refused(&p, "root");
	parsed_done(&p);
}

/* The answers print and say so (1), whatever comes after; a usage error before wins. */
static void test_answers(void **state)
{
	struct parsed p;

	parse_words(&p, "apply --help");
	assert_int_equal(p.r, 1);
	assert_non_null(strstr(p.out, "--dry-run"));
	assert_non_null(strstr(p.out, "--publish"));
	assert_null(strstr(p.out, "--oneline"));
	assert_null(strstr(p.out, "--root"));
	parsed_done(&p);

	parse_words(&p, "--help");
	assert_int_equal(p.r, 1);
	assert_non_null(strstr(p.out, "--root DIR"));
	assert_non_null(strstr(p.out, "-o, --output FILE"));
	assert_non_null(strstr(p.out, "apply, check: publish"));
	parsed_done(&p);

	parse_words(&p, "--list-options");
	assert_int_equal(p.r, 1);
	assert_non_null(strstr(p.out, "hostprep -v --verbose -\n"));
	assert_non_null(strstr(p.out, "config - --validate-as NAME\n"));
	assert_null(strstr(p.out, "list-options"));
	parsed_done(&p);

	parse_words(&p, "--help --no-such-option");
	assert_int_equal(p.r, 1);
	parsed_done(&p);

	parse_words(&p, "--version check --dry-run");
	assert_int_equal(p.r, 1);
	parsed_done(&p);

	parse_words(&p, "--no-such-option --help");
	assert_int_equal(p.r, -EINVAL);
	parsed_done(&p);
}

/*
 * The union getopt_long() sees has each name once: an option that two commands share
 * takes an argument in both or neither, with the same short letter, and every one of a
 * command's has a setter and a help line (the help, --list-options and the doc tier).
 */
static void test_tables_agree(void **state)
{
	for (size_t i = 0; i < n_commands; i++)
		for (const struct command_option *a = commands[i]->options; a && a->name; a++) {
			assert_non_null(a->set);
			assert_non_null(a->help);
			for (size_t j = 0; j < n_commands; j++)
				for (const struct command_option *b = commands[j]->options;
				     b && b->name; b++) {
					if (!streq(a->name, b->name) &&
					    (!a->short_name || a->short_name != b->short_name))
						continue;
					assert_string_equal(a->name, b->name);
					assert_int_equal(a->short_name, b->short_name);
					assert_int_equal(!a->arg, !b->arg);
				}
		}
}

static int set_nothing(struct options *o, char *arg)
{
	return 0;
}

/* Tables that would hide or contradict an option are refused, whatever argv says. */
static void assert_tables_refused(const struct command_option *a, const struct command_option *b)
{
	const struct command one = { .name = "one", .options = a };
	const struct command two = { .name = "two", .options = b };
	const struct command *const cmds[] = { &one, &two };
	char *argv[] = { "hostprep", "one", NULL };
	struct options o = {};
	const struct command *cmd = NULL;

	assert_int_equal(cli_parse_argv(2, argv, cmds, 2, &o, &cmd), -EEXIST);
	assert_null(cmd);
}

static void test_tables_at_odds(void **state)
{
	const struct command_option flag[] = { { "x", 0, NULL, "x", set_nothing }, {} };
	const struct command_option with_arg[] = { { "x", 0, "FILE", "x", set_nothing }, {} };
	const struct command_option short_x[] = { { "x", 'x', NULL, "x", set_nothing }, {} };
	const struct command_option other_x[] = { { "y", 'x', NULL, "y", set_nothing }, {} };
	const struct command_option root[] = { { "root", 0, "DIR", "r", set_nothing }, {} };
	const struct command_option v[] = { { "vv", 'v', NULL, "v", set_nothing }, {} };
	const struct command one = { .name = "one", .options = flag };
	const struct command two = { .name = "two", .options = flag };
	const struct command *const cmds[] = { &one, &two };
	char *argv[] = { "hostprep", "-x", "two", NULL };
	struct options o = {};
	const struct command *cmd = NULL;

	assert_tables_refused(flag, with_arg);
	assert_tables_refused(flag, short_x);
	assert_tables_refused(short_x, other_x);
	assert_tables_refused(root, NULL);
	assert_tables_refused(v, NULL);
	/* the same option in two tables is one getopt entry, each command's own setter */
	argv[1] = "--x";
	assert_int_equal(cli_parse_argv(3, argv, cmds, 2, &o, &cmd), 0);
	assert_ptr_equal(cmd, &two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_before_and_after),
		cmocka_unit_test(test_command_option_before_and_after),
		cmocka_unit_test(test_other_commands_option_refused),
		cmocka_unit_test(test_each_command_checks_its_own),
		cmocka_unit_test(test_argument_like_a_command),
		cmocka_unit_test(test_double_dash),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_tables_agree),
		cmocka_unit_test(test_tables_at_odds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
