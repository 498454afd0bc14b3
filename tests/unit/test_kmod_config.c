// SPDX-License-Identifier: GPL-2.0-or-later
/* [Module:NAME] and [GPUDirect]: values, merging, and every refusal with file:line. */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/config.h"
#include "core/fileio.h"
#include "kmod/kmod-config.h"
#include "scratch.h"

struct tmp {
	char dir[64];
	char path[2][128];
	char err[160];
};

static void tmp_write(struct tmp *t, int i, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%d.conf", t->dir, i);
	strcpy(t->path[i], path);
	scratch_write(t->path[i], text, strlen(text));
}

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/hp-kmod-conf.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	strcpy(t->err, t->dir);
	strcat(t->err, "/stderr");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

/* Load n files; stderr goes to t->err so that the messages can be checked. */
static int load(struct tmp *t, int n, struct config *c)
{
	struct sysroot root = { .dir = (char *)"" };
	char *files[3] = { t->path[0], n > 1 ? t->path[1] : NULL, NULL };
	int saved, fd, r;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = open(t->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDERR_FILENO);
	r = config_load(c, &root, files, 0);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(fd);
	close(saved);
	return r;
}

static void expect_error(struct tmp *t, const char *text, unsigned line, const char *what)
{
	struct config c = {};
	_cleanup_(freep) char *err = NULL;
	char at[160];

	tmp_write(t, 0, text);
	assert_int_equal(load(t, 1, &c), -EINVAL);
	err = scratch_read(t->err);
	assert_non_null(err);
	snprintf(at, sizeof(at), "%s:%u: ", t->path[0], line);
	if (!strstr(err, at) || !strstr(err, what))
		fail_msg("want '%s' ... '%s' in: %s", at, what, err);
}

static void test_values(void **state)
{
	struct tmp *t = *state;
	struct config c = {};
	const struct kmod_rule *r;

	tmp_write(t, 0,
		  "[Module:erdma]\nLoad=yes\nParameter=compat_mode=Y\nReload=unused\n"
		  "Persist=yes\nDevices=yes\n[Module:mlx5-core]\nOrigin=ofed\n"
		  "MinVersion=24.10-1.1.4\n[GPUDirect]\nExpect=either\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_non_null(kmod_config_get(&c));
	assert_int_equal(kmod_config_get(&c)->n_rules, 2);
	r = &kmod_config_get(&c)->rules[0];
	assert_string_equal(r->name, "erdma");
	assert_true(r->enabled.on && r->require.on && r->load.on && r->persist.on && r->devices.on);
	assert_int_equal(r->reload, KMOD_RELOAD_UNUSED);
	assert_int_equal(r->n_params, 1);
	assert_string_equal(r->params[0].key, "compat_mode");
	assert_string_equal(r->params[0].value, "Y");
	assert_int_equal(r->params[0].at.line, 3);
	r = &kmod_config_get(&c)->rules[1];
	assert_string_equal(r->name, "mlx5_core"); /* '-' is '_' as for the kernel */
	assert_int_equal(r->origin, KMOD_ORIGIN_OFED);
	assert_string_equal(r->min_version, "24.10-1.1.4");
	assert_false(r->load.on);
	assert_int_equal(kmod_config_get(&c)->gpudirect, GPUDIRECT_EITHER);
	config_done(&c);
}

static void test_no_kmod_sections(void **state)
{
	struct tmp *t = *state;
	struct config c = {};

	tmp_write(t, 0, "[Host]\nApply=no\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_null(kmod_config_get(&c)); /* the dump and the run stay as they were */
	config_done(&c);
}

static void test_dropin_merges(void **state)
{
	struct tmp *t = *state;
	struct config c = {};
	const struct kmod_rule *r;

	tmp_write(t, 0, "[Module:erdma]\nParameter=compat_mode=N foo=1\nLoad=yes\n");
	/* a drop-in resets the list and the scalar, then sets its own */
	tmp_write(t, 1, "[Module:erdma]\nParameter=\nParameter=compat_mode=Y\nLoad=\n");
	assert_int_equal(load(t, 2, &c), 0);
	r = &kmod_config_get(&c)->rules[0];
	assert_int_equal(r->n_params, 1);
	assert_string_equal(r->params[0].value, "Y");
	assert_false(r->load.on);
	assert_null(r->load.at.file);
	config_done(&c);
}

static void test_dump_lines(void **state)
{
	struct tmp *t = *state;
	struct config c = {};
	char *out = NULL;
	size_t size = 0;
	FILE *f;

	tmp_write(t, 0, "[Module:erdma]\nParameter=compat_mode=Y\n[GPUDirect]\nExpect=peermem\n");
	assert_int_equal(load(t, 1, &c), 0);
	f = open_memstream(&out, &size);
	assert_int_equal(config_dump(&c, f), 0);
	fclose(f);
	/* Each origin on its own comment line; a list starts with its reset (valid input). */
	assert_non_null(strstr(out, "[Module:erdma]\n# default\nEnabled=yes\n"));
	assert_non_null(strstr(out, "\nParameter=\n# "));
	assert_non_null(strstr(out, ":2\nParameter=compat_mode=Y\n"));
	assert_non_null(strstr(out, "[GPUDirect]\n# "));
	assert_non_null(strstr(out, ":4\nExpect=peermem\n"));
	free(out);
	config_done(&c);
}

static void test_refusals(void **state)
{
	struct tmp *t = *state;

	expect_error(t, "[Module:er/dma]\n", 1, "invalid module name");
	expect_error(t, "[Module:]\n", 1, "invalid module name");
	expect_error(t, "[Module:erdma]\n[Module:erdma]\n", 2, "duplicate section");
	expect_error(t, "[Module:erdma]\nColour=red\n", 2, "unknown key 'Colour'");
	expect_error(t, "[Module:erdma]\nLoad=maybe\n", 2, "invalid boolean");
	expect_error(t, "[Module:erdma]\nReload=always\n", 2, "use never or unused");
	expect_error(t, "[Module:erdma]\nOrigin=vendor\n", 2, "use any, ofed or inbox");
	expect_error(t, "[Module:erdma]\nParameter=compat_mode\n", 2, "not KEY=VALUE");
	expect_error(t, "[Module:erdma]\nParameter=compat_mode=\n", 2, "invalid value");
	expect_error(t, "[Module:erdma]\nParameter=compat.mode=Y\n", 2, "invalid parameter name");
	expect_error(t, "[Module:erdma]\nParameter=x=\"Y\"\n", 2, "invalid value");
	expect_error(t, "[Module:erdma]\nParameter=compat_mode=Y\nParameter=compat_mode=N\n", 3,
		     "contradicts compat_mode=Y");
	expect_error(t, "[Module:mlx5_core]\nMinVersion=latest\n", 2, "invalid version");
	expect_error(t, "[GPUDirect]\nExpect=nvlink\n", 2, "use any, peermem, dmabuf or either");
	expect_error(t, "[GPUDirect]\nMode=x\n", 2, "unknown key 'Mode' in [GPUDirect]");
	/* contradictions between keys */
	expect_error(t, "[Module:erdma]\nRequire=no\nLoad=yes\n", 3,
		     "Load=yes contradicts Require=no");
	expect_error(t, "[Module:erdma]\nReload=unused\n", 2, "Reload=unused needs Parameter=");
	expect_error(t, "[Module:erdma]\nPersist=yes\n", 2, "Persist=yes needs Parameter=");
	expect_error(t, "[Module:mlx5_core]\nMinVersion=24.10\nOrigin=inbox\n", 3,
		     "Origin=inbox contradicts MinVersion=");
}

static void test_same_value_twice_is_fine(void **state)
{
	struct tmp *t = *state;
	struct config c = {};

	tmp_write(t, 0, "[Module:erdma]\nParameter=compat_mode=Y\nParameter=compat_mode=Y\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_int_equal(kmod_config_get(&c)->rules[0].n_params, 1);
	config_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_kmod_sections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropin_merges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_value_twice_is_fine, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
