// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pipeline alone: a run handed a table of one stub module runs that module's steps,
 * in order, for each mode, and nothing of src/modules.c (linked into this binary too); a
 * per-run service lives until a write step or the end of the run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/config.h"
#include "run/run.h"
#include "scratch.h"

struct stub_state {
	int scans;
};

/* The steps called, in order: "scan plan verify done " */
static char trace[256];
static int plan_ret;

static void step(const char *name)
{
	strncat(trace, name, sizeof(trace) - strlen(trace) - 1);
	strncat(trace, " ", sizeof(trace) - strlen(trace) - 1);
}

extern const struct run_module stub_module;

/* A per-run service: built by the scan, seen again by verify unless a write step ran. */
struct stub_view {
	bool built;
};
static int view_drops;

static void view_done(void *state)
{
	view_drops++;
}

static const struct run_service stub_service = {
	.name = "stub-view",
	.size = sizeof(struct stub_view),
	.done = view_done,
};

static int stub_scan(struct run *run)
{
	struct stub_state *s = run_state(run, &stub_module);

	/* the run allocated the declared state, zeroed, before the first step */
	assert_non_null(s);
	assert_int_equal(s->scans, 0);
	s->scans++;
	step("scan");
	((struct stub_view *)run_service(run, &stub_service))->built = true;
	return 0;
}

static int stub_plan(struct run *run)
{
	step("plan");
	return plan_ret;
}

static int stub_apply(struct run *run)
{
	step("apply");
	return 0;
}

static int stub_revert(struct run *run)
{
	step("revert");
	return 0;
}

static int stub_verify(struct run *run)
{
	struct stub_view *v = run_service(run, &stub_service);

	step(v->built ? "verify(kept)" : "verify(rebuilt)");
	return 0;
}

static void stub_done(struct run *run)
{
	struct stub_state *s = run_state(run, &stub_module);

	assert_non_null(s);
	step("done");
}

const struct run_module stub_module = {
	.name = "stub",
	.state_size = sizeof(struct stub_state),
	.scan = stub_scan,
	.plan = stub_plan,
	.apply = stub_apply,
	.revert = stub_revert,
	.verify = stub_verify,
	.done = stub_done,
};

static const struct run_module *const stub_modules[] = { &stub_module };
static const struct run_table stub_table = { .v = stub_modules, .n = 1 };

struct fixture {
	char dir[64];
	struct sysroot root;
	struct config cfg;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *proc = NULL;

	assert_non_null(f);
	strcpy(f->dir, "/tmp/hostprep-run-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(sysroot_init(&f->root, f->dir), 0);
	assert_true(asprintf(&proc, "%s/proc", f->dir) > 0);
	scratch_mkdir_p(proc);
	free(proc);
	assert_true(asprintf(&proc, "%s/proc/cmdline", f->dir) > 0);
	scratch_write(proc, "ro\n", 3);
	free(proc);
	trace[0] = '\0';
	plan_ret = 0;
	view_drops = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd = NULL;

	sysroot_done(&f->root);
	assert_true(asprintf(&cmd, "rm -rf '%s'", f->dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f);
	return 0;
}

/* Run the stub alone in mode; the run's results count left in *n_results. */
static int run_stub(struct fixture *f, enum run_mode mode, size_t *n_results)
{
	struct run run;
	int r;

	assert_int_equal(run_init(&run, &stub_table, &f->root, &f->cfg, mode, true), 0);
	r = run_execute(&run);
	*n_results = run.results.n;
	if (run.results.n) {
		assert_string_equal(run.results.items[0].check, "stub");
		assert_int_equal(run.results.items[0].verdict, VERDICT_UNKNOWN);
	}
	run_done(&run);
	return r;
}

/* check: scan, plan, verify; no write step; only the handed table's module ran. */
static void test_check(void **state)
{
	size_t n;

	assert_int_equal(run_stub(*state, RUN_CHECK, &n), 0);
	assert_string_equal(trace, "scan plan verify(kept) done ");
	assert_int_equal(n, 0);
	assert_int_equal(view_drops, 1); /* by run_done() */
}

static void test_dry_run(void **state)
{
	size_t n;

	assert_int_equal(run_stub(*state, RUN_DRY_RUN, &n), 0);
	assert_string_equal(trace, "scan plan done ");
}

static void test_apply(void **state)
{
	struct fixture *f = *state;
	size_t n;

	f->cfg.apply = true;
	assert_int_equal(run_stub(f, RUN_APPLY, &n), 0);
	/* what was built before the writes is dropped, built again on next use */
	assert_string_equal(trace, "scan plan apply verify(rebuilt) done ");
	assert_int_equal(view_drops, 2);
}

/* Apply=no: an apply that does not write judges the host as it is. */
static void test_apply_no(void **state)
{
	size_t n;

	assert_int_equal(run_stub(*state, RUN_APPLY, &n), 0);
	assert_string_equal(trace, "scan plan verify(kept) done ");
}

/* A plan conflict stops a check (-EINVAL) before any verify. */
static void test_plan_conflict(void **state)
{
	size_t n;

	plan_ret = -EINVAL;
	assert_int_equal(run_stub(*state, RUN_CHECK, &n), -EINVAL);
	assert_string_equal(trace, "scan plan done ");
}

/* revert: the conflict is the module's "unknown" result; revert and verify still run. */
static void test_revert_conflict(void **state)
{
	size_t n;

	plan_ret = -EINVAL;
	assert_int_equal(run_stub(*state, RUN_REVERT, &n), 0);
	assert_string_equal(trace, "scan revert plan done ");
	assert_int_equal(n, 1);
}

static void test_revert(void **state)
{
	size_t n;

	assert_int_equal(run_stub(*state, RUN_REVERT, &n), 0);
	assert_string_equal(trace, "scan revert plan verify(rebuilt) done ");
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_no, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_conflict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_revert_conflict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_revert, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
