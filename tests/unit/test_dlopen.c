// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dlopen'ed libraries: every symbol a header declares is resolved (a
 * pointer missing from a hand-kept table once crashed the first verbs port
 * query in the guest), and a missing library leaves every pointer NULL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <syslog.h>
#include <cmocka.h>

#include "kmod/kmod-dlopen.h"
#include "core/macro.h"
#include "rdma/rdma-verbs.h"
#include "core/sd-dlopen.h"
#include "snapshot/archive-dlopen.h"
#include "snapshot/snapshot.h"

#define CHECK_RESOLVED(name) \
	if (!sym_##name)     \
		fail_msg("sym_%s not resolved", #name);

static void test_libkmod(void **state)
{
	assert_int_equal(dlopen_libkmod(), 0);
	KMOD_SYMS(CHECK_RESOLVED)
	assert_int_equal(dlopen_libkmod(), 0); /* once per process */
}

static void test_libibverbs(void **state)
{
	assert_int_equal(dlopen_libibverbs(), 0);
	VERBS_SYMS(CHECK_RESOLVED)
}

static void test_libsystemd(void **state)
{
	assert_int_equal(dlopen_libsystemd(LOG_ERR), 0);
	SYSTEMD_SYMS(CHECK_RESOLVED)
	/* the cleanup helpers sd-bus.h would have inlined take NULL like the originals */
	sd_bus_message *m = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;

	sd_bus_message_unrefp_dl(&m);
	sd_bus_error_free_dl(&e);
}

static void test_libarchive(void **state)
{
	assert_int_equal(snapshot_tar_load(), 0);
	ARCHIVE_SYMS(CHECK_RESOLVED)
}

static void *p_a, *p_b;

static void test_missing_library(void **state)
{
	const struct dlopen_sym syms[] = { { &p_a, "strlen" }, { &p_b, "strcmp" } };
	struct dlopen_lib lib = { .soname = "libhostprep-absent.so.9",
				  .needed_by = "a test",
				  .install = "nothing",
				  .syms = syms,
				  .n_syms = 2,
				  .state = 1 };

	p_a = p_b = &lib;
	assert_int_equal(dlopen_lib(&lib, LOG_DEBUG), -EOPNOTSUPP);
	assert_int_equal(dlopen_lib(&lib, LOG_DEBUG), -EOPNOTSUPP);
	/* never loaded: the pointers were not touched, callers must check the result */
	assert_ptr_equal(p_a, &lib);
}

static void test_missing_symbol(void **state)
{
	const struct dlopen_sym syms[] = { { &p_a, "strlen" }, { &p_b, "hostprep_no_such_fn" } };
	struct dlopen_lib lib = { .soname = "libc.so.6",
				  .needed_by = "a test",
				  .install = "nothing",
				  .syms = syms,
				  .n_syms = 2,
				  .state = 1 };

	assert_int_equal(dlopen_lib(&lib, LOG_DEBUG), -EOPNOTSUPP);
	assert_null(p_a);
	assert_null(p_b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libkmod),
		cmocka_unit_test(test_libibverbs),
		cmocka_unit_test(test_libsystemd),
		cmocka_unit_test(test_libarchive),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_missing_symbol),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
