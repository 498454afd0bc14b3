// SPDX-License-Identifier: GPL-2.0-or-later
/* [Bond:IFNAME]: values, merging like systemd, and every refusal with file:line. */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/config.h"
#include "core/fileio.h"
#include "bond/bond-config.h"
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

	strcpy(t->dir, "/tmp/hp-bond-conf.XXXXXX");
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
	const struct bond_rule *r;

	tmp_write(t, 0,
		  "[Bond:bond0]\nMode=802.3ad\nMinSlavesUp=1\nRDMA=mlx5_bond_0\n"
		  "[Bond:bond1]\nMode=active-backup\nMiimon=no\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_non_null(bond_config_get(&c));
	assert_int_equal(bond_config_get(&c)->n_rules, 2);
	r = &bond_config_get(&c)->rules[0];
	assert_string_equal(r->name, "bond0");
	assert_int_equal(r->mode, BOND_MODE_8023AD);
	assert_int_equal(r->min_slaves_up, 1);
	assert_true(r->miimon);
	assert_string_equal(r->rdma, "mlx5_bond_0");
	assert_int_equal(r->rdma_at.line, 4);
	r = &bond_config_get(&c)->rules[1];
	assert_int_equal(r->mode, BOND_MODE_ACTIVEBACKUP);
	assert_int_equal(r->min_slaves_up, 0);
	assert_false(r->miimon);
	assert_null(r->rdma);
	config_done(&c);
}

static void test_defaults_and_no_section(void **state)
{
	struct tmp *t = *state;
	struct config c = {};

	tmp_write(t, 0, "[Host]\nApply=no\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_null(bond_config_get(&c));
	config_done(&c);
	tmp_write(t, 0, "[Bond:bond0]\n");
	assert_int_equal(load(t, 1, &c), 0);
	assert_int_equal(bond_config_get(&c)->rules[0].mode, BOND_MODE_ANY);
	assert_int_equal(bond_config_get(&c)->rules[0].min_slaves_up, 0);
	assert_true(bond_config_get(&c)->rules[0].miimon);
	config_done(&c);
}

/* systemd: the last assignment wins, an empty one restores the default, drop-ins override. */
static void test_last_wins(void **state)
{
	struct tmp *t = *state;
	struct config c = {};
	const struct bond_rule *r;

	tmp_write(t, 0, "[Bond:bond0]\nMode=balance-rr\nMode=802.3ad\nMinSlavesUp=2\nRDMA=x\n");
	tmp_write(t, 1, "[Bond:bond0]\nMinSlavesUp=\nRDMA=\nMiimon=off\n");
	assert_int_equal(load(t, 2, &c), 0);
	r = &bond_config_get(&c)->rules[0];
	assert_int_equal(r->mode, BOND_MODE_8023AD);
	assert_int_equal(r->mode_at.line, 3);
	assert_int_equal(r->min_slaves_up, 0);
	assert_null(r->min_at.file);
	assert_null(r->rdma);
	assert_false(r->miimon);
	config_done(&c);
	/* RDMA= with a LAG-incapable mode, then the mode fixed later: fine */
	tmp_write(t, 0, "[Bond:bond0]\nRDMA=mlx5_bond_0\nMode=balance-tlb\nMode=802.3ad\n");
	assert_int_equal(load(t, 1, &c), 0);
	config_done(&c);
	/* ... and fixed by a drop-in */
	tmp_write(t, 0, "[Bond:bond0]\nRDMA=mlx5_bond_0\nMode=balance-alb\n");
	tmp_write(t, 1, "[Bond:bond0]\nMode=balance-xor\n");
	assert_int_equal(load(t, 2, &c), 0);
	assert_int_equal(bond_config_get(&c)->rules[0].mode, BOND_MODE_XOR);
	config_done(&c);
}

static void test_refusals(void **state)
{
	struct tmp *t = *state;

	expect_error(t, "[Bond:bond0]\nMode=lacp\n", 2, "unknown bonding mode 'lacp'");
	expect_error(t, "[Bond:bond0]\nMode=4\n", 2, "unknown bonding mode '4'");
	/* any case is the name (issue 18: LinkLayer=infiniband); a wrong spelling is not */
	expect_error(t, "[Bond:bond0]\nMode=802-3AD\n", 2, "unknown bonding mode");
	expect_error(t, "[Bond:bond0]\nMinSlavesUp=0\n", 2, "MinSlavesUp=: invalid value '0'");
	expect_error(t, "[Bond:bond0]\nMinSlavesUp=-1\n", 2, "MinSlavesUp=: invalid value");
	expect_error(t, "[Bond:bond0]\nMinSlavesUp=1x\n", 2, "MinSlavesUp=: invalid value");
	expect_error(t, "[Bond:bond0]\nMinSlavesUp=65\n", 2, "MinSlavesUp=: invalid value");
	expect_error(t, "[Bond:bond0]\nMiimon=100\n", 2, "Miimon=: invalid boolean");
	expect_error(t, "[Bond:bond0]\nRDMA=a/b\n", 2, "RDMA=: invalid RDMA device name");
	expect_error(t, "[Bond:bond0]\nSlaves=eth0\n", 2, "unknown key 'Slaves'");
	expect_error(t, "[Bond:bond0123456789ab]\n", 1, "invalid interface name");
	expect_error(t, "[Bond:]\n", 1, "invalid interface name ''");
	expect_error(t, "[Bond:a/b]\n", 1, "invalid interface name");
	expect_error(t, "[Bond:a:b]\n", 1, "invalid interface name");
	expect_error(t, "[Bond:.]\n", 1, "invalid interface name");
	expect_error(t, "\n[Bond:bond0]\n[Bond:bond0]\n", 3, "duplicate section [Bond:bond0]");
	expect_error(t, "[Bond:bond0]\nRDMA=mlx5_bond_0\nMode=balance-rr\n", 3,
		     "RDMA=mlx5_bond_0 cannot be satisfied with Mode=balance-rr");
	expect_error(t, "[Bond:bond0]\nMode=broadcast\n\nRDMA=mlx5_bond_0\n", 4,
		     "cannot be satisfied with Mode=broadcast");
}

static void test_dump_roundtrip(void **state)
{
	struct tmp *t = *state;
	struct config c = {}, c2 = {};
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	tmp_write(t, 0, "[Bond:bond0]\nMode=802.3ad\nMinSlavesUp=1\nRDMA=mlx5_bond_0\n");
	assert_int_equal(load(t, 1, &c), 0);
	f = open_memstream(&buf, &size);
	assert_int_equal(config_dump(&c, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "[Bond:bond0]\n"));
	assert_non_null(strstr(buf, "\nMode=802.3ad\n"));
	assert_non_null(strstr(buf, "\nMinSlavesUp=1\n"));
	assert_non_null(strstr(buf, "\nMiimon=yes\n"));
	assert_non_null(strstr(buf, "\nRDMA=mlx5_bond_0\n"));
	tmp_write(t, 0, buf);
	assert_int_equal(load(t, 1, &c2), 0);
	assert_int_equal(bond_config_get(&c2)->rules[0].mode, BOND_MODE_8023AD);
	assert_int_equal(bond_config_get(&c2)->rules[0].min_slaves_up, 1);
	assert_string_equal(bond_config_get(&c2)->rules[0].rdma, "mlx5_bond_0");
	free(buf);
	config_done(&c);
	config_done(&c2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defaults_and_no_section, setup, teardown),
		cmocka_unit_test_setup_teardown(test_last_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_roundtrip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
