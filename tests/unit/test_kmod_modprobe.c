// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk of modprobe.d (kmod-modprobe.c) against libkmod itself: for each tree, the
 * options libkmod's kmod_module_get_options() passes must be exactly the walk's files part
 * (the module name is unique, so the host's /proc/cmdline that libkmod appends adds
 * nothing), and the walk names the file:line the kernel keeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <sys/stat.h>

#include "kmod/kmod-backend.h"
#include "kmod/kmod-modprobe.h"

#define MOD "hpxtest_mod"

struct fixture {
	char dir[64];
	struct sysroot root;
};

static void put(struct fixture *f, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *o;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	o = fopen(path, "w");
	assert_non_null(o);
	fputs(text, o);
	fclose(o);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/hp-modprobe.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(sysroot_init(&f->root, f->dir), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	sysroot_done(&f->root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

/* libkmod is the oracle: the walk's files part must be what it passes. */
static void agree(struct fixture *f, const char *want)
{
	struct modprobe_eval e;
	char *libkmod = NULL;
	int r;

	assert_int_equal(modprobe_eval(&f->root, NULL, MOD, &e), 0);
	assert_string_equal(e.files_options, want);
	r = kmod_backend_options(&f->root, "6.1.0-test", MOD, &libkmod);
	if (r == -EOPNOTSUPP) {
		modprobe_eval_done(&e);
		skip(); /* no libkmod here: nothing to compare with */
	}
	assert_int_equal(r, 0);
	assert_string_equal(libkmod, e.files_options);
	free(libkmod);
	modprobe_eval_done(&e);
}

static void last_is(struct fixture *f, const char *key, const char *value, const char *where)
{
	struct modprobe_eval e;
	const struct modprobe_opt *o;

	assert_int_equal(modprobe_eval(&f->root, NULL, MOD, &e), 0);
	o = modprobe_eval_last(&e, key);
	assert_non_null(o);
	assert_string_equal(o->value, value);
	assert_string_equal(o->where, where);
	modprobe_eval_done(&e);
}

static void test_order(void **state)
{
	struct fixture *f = *state;

	agree(f, "");
	put(f, "etc/modprobe.d/hostprep.conf", "options " MOD " a=1\n");
	put(f, "etc/modprobe.d/zz-site.conf", "# site\n\noptions " MOD " a=2 b=x\n");
	put(f, "lib/modprobe.d/mlnx.conf", "options " MOD " a=3\n");
	put(f, "usr/lib/modprobe.d/aa.conf", "options hpxtest-mod c=1\n");
	put(f, "usr/local/lib/modprobe.d/zz-site.conf", "options " MOD " a=masked\n");
	put(f, "run/modprobe.d/m.alias", "options " MOD " d=alias\n");
	put(f, "run/modprobe.d/x.txt", "options " MOD " a=ignored\n");
	put(f, "etc/modprobe.d/.hidden.conf", "options " MOD " a=ignored\n");
	agree(f, "c=1 a=1 d=alias a=3 a=2 b=x");
	last_is(f, "a", "2", "/etc/modprobe.d/zz-site.conf:3");
	last_is(f, "c", "1", "/usr/lib/modprobe.d/aa.conf:1");
}

static void test_lines(void **state)
{
	struct fixture *f = *state;
	struct modprobe_eval e;

	put(f, "etc/modprobe.d/a.conf",
	    "options " MOD "\tk1=1\tk-2=2\n"
	    " options " MOD " lead=1\n"
	    "options " MOD "\n"
	    "options " MOD " cont=\\\n  yes s=\"a b\"\n"
	    "options other_mod x=1\n"
	    "install " MOD " /bin/true\n"
	    "install hpx* /bin/false\n");
	agree(f, "k1=1 k-2=2 lead=1 cont=  yes s=\"a b\"");
	last_is(f, "k_2", "2", "/etc/modprobe.d/a.conf:1");
	last_is(f, "s", "a b", "/etc/modprobe.d/a.conf:4");
	assert_int_equal(modprobe_eval(&f->root, NULL, MOD, &e), 0);
	assert_string_equal(e.install_where, "/etc/modprobe.d/a.conf:7"); /* after a continuation */
	assert_string_equal(e.install_line, "install " MOD " /bin/true");
	modprobe_eval_done(&e);
}

static void test_cmdline(void **state)
{
	struct fixture *f = *state;
	struct cmdline cl;
	struct modprobe_eval e;
	const struct modprobe_opt *o;
	char *v = NULL;

	put(f, "etc/modprobe.d/hostprep.conf", "options " MOD " a=Y\n");
	assert_int_equal(cmdline_parse("root=/dev/sda hpxtest-mod.a=N other.a=1 quiet", &cl), 0);
	assert_int_equal(modprobe_eval(&f->root, &cl, MOD, &e), 0);
	assert_string_equal(e.files_options, "a=Y");
	assert_string_equal(e.options, "a=Y a=N");
	o = modprobe_eval_last(&e, "a");
	assert_string_equal(o->where, "the kernel command line");
	assert_string_equal(o->line, MOD ".a=N");
	modprobe_eval_done(&e);
	cmdline_done(&cl);
	assert_int_equal(modprobe_options_last("a=1 b=2 a=3", "a", &v), 0);
	assert_string_equal(v, "3");
	free(v);
	assert_int_equal(modprobe_options_last("a=1", "ab", &v), 0);
	assert_null(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmdline, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
