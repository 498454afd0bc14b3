// SPDX-License-Identifier: GPL-2.0-or-later
/* [Workload]: the value parsers and the config part (values, merging, refusals). */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/config.h"
#include "core/fileio.h"
#include "workload/workload.h"
#include "scratch.h"

static void test_parse_size(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} good[] = {
		{ "0", 0 },
		{ "65536", 65536 },
		{ "64K", 65536 },
		{ "8M", 8ULL << 20 },
		{ "1G", 1ULL << 30 },
		{ "2T", 2ULL << 40 },
		{ "infinity", WORKLOAD_INFINITY },
		{ "16777215T", 16777215ULL << 40 },
	};
	static const char *const bad[] = {
		"",	"-1", "+1", " 1",  "1 ",       "8m",   "8MB",
		"8MiB", "8P", "M",  "inf", "Infinity", "0x10", "1.5G",
	};
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(workload_parse_size(good[i].s, &v), 0);
		assert_true(v == good[i].v);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (workload_parse_size(bad[i], &v) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
	assert_int_equal(workload_parse_size("16777216T", &v), -ERANGE);
	assert_int_equal(workload_parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(workload_parse_size("18446744073709551615", &v), -ERANGE);
}

/* /proc/PID/limits as fs/proc/base.c prints it: the soft column of "Max locked memory". */
static void test_limits_memlock(void **state)
{
	static const char head[] = "Limit                     Soft Limit           Hard Limit  "
				   "         Units     \n"
				   "Max cpu time              unlimited            unlimited   "
				   "         seconds   \n";
	char text[512];
	uint64_t v = 0;

	snprintf(text, sizeof(text),
		 "%sMax locked memory         8388608              unlimited            bytes     \n",
		 head);
	assert_int_equal(workload_parse_limits_memlock(text, &v), 0);
	assert_true(v == 8388608);
	snprintf(text, sizeof(text),
		 "%sMax locked memory         unlimited            unlimited            bytes     \n",
		 head);
	assert_int_equal(workload_parse_limits_memlock(text, &v), 0);
	assert_true(v == WORKLOAD_INFINITY);
	assert_int_equal(workload_parse_limits_memlock(head, &v), -EINVAL);
	assert_int_equal(workload_parse_limits_memlock("Max locked memory         -1  x\n", &v),
			 -EINVAL);
	assert_int_equal(workload_parse_limits_memlock("Max locked memory         12ab  x\n", &v),
			 -EINVAL);
	assert_int_equal(workload_parse_limits_memlock("Max locked memoryX 1\n", &v), -EINVAL);
	assert_int_equal(workload_parse_limits_memlock("", &v), -EINVAL);
}

static void test_format_size(void **state)
{
	char b[32];

	assert_string_equal(workload_format_size(WORKLOAD_INFINITY, b, sizeof(b)), "infinity");
	assert_string_equal(workload_format_size(8ULL << 20, b, sizeof(b)), "8M");
	assert_string_equal(workload_format_size(65536, b, sizeof(b)), "64K");
	assert_string_equal(workload_format_size(3ULL << 40, b, sizeof(b)), "3T");
	assert_string_equal(workload_format_size(1536ULL << 20, b, sizeof(b)), "1536M");
	assert_string_equal(workload_format_size(1000, b, sizeof(b)), "1000");
	assert_string_equal(workload_format_size(0, b, sizeof(b)), "0");
}

static void test_netns_mode(void **state)
{
	assert_int_equal(workload_parse_netns_mode("Y"), NETNS_SHARED);
	assert_int_equal(workload_parse_netns_mode("1"), NETNS_SHARED);
	assert_int_equal(workload_parse_netns_mode("N"), NETNS_EXCLUSIVE);
	assert_int_equal(workload_parse_netns_mode("0"), NETNS_EXCLUSIVE);
	assert_int_equal(workload_parse_netns_mode(""), -EINVAL);
	assert_int_equal(workload_parse_netns_mode("shared"), -EINVAL);
	assert_int_equal(workload_parse_netns_mode("YN"), -EINVAL);
}

static void test_devnum(void **state)
{
	static const char *const bad[] = { "", "231", "231:", ":192", "231: 5", "231:-5", "a:1",
					   "1:2:3", " 1:2", "1:2 ",
					   /* wrapped to 1:0 and 0:1 (found by tests/fuzz) */
					   "4294967297:0", "0:4294967297", "184467440763975:0115" };
	unsigned ma, mi;

	assert_int_equal(workload_parse_devnum("231:192", &ma, &mi), 0);
	assert_int_equal(ma, 231);
	assert_int_equal(mi, 192);
	assert_int_equal(workload_parse_devnum("10:58", &ma, &mi), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (workload_parse_devnum(bad[i], &ma, &mi) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
}

static void test_unit_names(void **state)
{
	assert_true(workload_unit_name_valid("containerd.service"));
	assert_true(workload_unit_name_valid("k3s-agent.service"));
	assert_true(workload_unit_name_valid("runtime@gpu.service"));
	assert_false(workload_unit_name_valid("containerd"));
	assert_false(workload_unit_name_valid(".service"));
	assert_false(workload_unit_name_valid("containerd.socket"));
	assert_false(workload_unit_name_valid("../x.service"));
	assert_false(workload_unit_name_valid("a b.service"));
}

/* ---- the config part, through config_load ---- */

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

	strcpy(t->dir, "/tmp/hp-workload-conf.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->err, sizeof(t->err), "%s/stderr", t->dir);
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

static void test_defaults(void **state)
{
	struct tmp *t = *state;
	struct config c = {};

	tmp_write(t, 0, "[Host]\nApply=no\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_null(workload_config_get(&c)); /* no section: the module does nothing */
	config_done(&c);

	tmp_write(t, 0, "[Workload]\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_non_null(workload_config_get(&c));
	assert_int_equal(workload_config_get(&c)->n_units, 4);
	assert_string_equal(workload_config_get(&c)->units[0].name, "containerd.service");
	assert_string_equal(workload_config_get(&c)->units[3].name, "kubelet.service");
	assert_null(workload_config_get(&c)->units[0].at.file);
	assert_false(workload_config_get(&c)->min_set);
	assert_false(workload_config_get(&c)->devices);
	assert_int_equal(workload_config_get(&c)->netns, NETNS_ANY);
	config_done(&c);
}

static void test_values_and_merging(void **state)
{
	struct tmp *t = *state;
	struct config c = {};
	const struct workload_config *w;

	tmp_write(t, 0,
		  "[Workload]\nMemlockUnits=containerd.service crio.service\nMinMemlock=64M\n"
		  "DeviceNodes=yes\nNetnsMode=exclusive\n");
	/* a drop-in extends the list, resets DeviceNodes and overrides MinMemlock */
	tmp_write(t, 1,
		  "[Workload]\nMemlockUnits=kubelet.service containerd.service\n"
		  "MinMemlock=infinity\nDeviceNodes=\n");
	assert_int_equal(load(t, 2, &c), 0);
	w = workload_config_get(&c);
	assert_int_equal(w->n_units, 3);
	assert_string_equal(w->units[2].name, "kubelet.service");
	assert_int_equal(w->units[2].at.line, 2);
	assert_true(w->min_set);
	assert_true(w->min_memlock == WORKLOAD_INFINITY);
	assert_false(w->devices);
	assert_int_equal(w->netns, NETNS_EXCLUSIVE);
	config_done(&c);

	tmp_write(t, 1, "[Workload]\nMemlockUnits=\nMinMemlock=\n");
	assert_int_equal(load(t, 2, &c), 0);
	assert_int_equal(workload_config_get(&c)->n_units, 0);
	assert_false(workload_config_get(&c)->min_set);
	config_done(&c);
}

static void test_refusals(void **state)
{
	struct tmp *t = *state;

	expect_error(t, "[Workload]\nMinMemlock=lots\n", 2, "MinMemlock=: invalid size 'lots'");
	expect_error(t, "[Workload]\nMinMemlock=8m\n", 2, "invalid size");
	expect_error(t, "[Workload]\nMinMemlock=16777216T\n", 2, "out of range");
	expect_error(t, "[Workload]\nDeviceNodes=perhaps\n", 2, "DeviceNodes=: invalid boolean");
	expect_error(t, "[Workload]\nNetnsMode=private\n", 2, "NetnsMode=: invalid value");
	expect_error(t, "[Workload]\nMemlockUnits=containerd\n", 2, "invalid unit name");
	expect_error(t, "[Workload]\nMinMemLock=1G\n", 2, "unknown key 'MinMemLock'");
	expect_error(t, "[Workload]\n[Workload]\n", 2, "duplicate section [Workload]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_limits_memlock),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_netns_mode),
		cmocka_unit_test(test_devnum),
		cmocka_unit_test(test_unit_names),
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values_and_merging, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
