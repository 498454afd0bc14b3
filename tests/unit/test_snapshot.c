// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostprep snapshot's path rules: normalization (".." above the root is refused), where a
 * symlink leads (absolute: only on the host), what is never captured, the string
 * set that keeps the capture order, names in the manifest.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "snapshot/snapshot.h"

static void assert_norm(const char *in, int rc, const char *out)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", in);
	assert_int_equal(snapshot_normalize(buf), rc);
	if (rc == 0)
		assert_string_equal(buf, out);
}

static void test_normalize(void **state)
{
	assert_norm("sys/bus/pci", 0, "sys/bus/pci");
	assert_norm("a/./b//../c/", 0, "a/c");
	assert_norm("/sys//class/", 0, "sys/class");
	assert_norm("a/..", 0, "");
	assert_norm(".", 0, "");
	assert_norm("..", -EXDEV, NULL);
	assert_norm("a/../..", -EXDEV, NULL);
	assert_norm("a/../../a", -EXDEV, NULL);
	assert_norm("a/b/../../c", 0, "c");
	assert_norm("..a/b", 0, "..a/b"); /* a name, not a step up */
	assert_norm("a/...", 0, "a/...");
}

static void assert_target(bool host, const char *rel, const char *text, int rc, const char *out)
{
	struct snapshot s = { .host = host };
	char *t = NULL;

	assert_int_equal(snapshot_link_target(&s, rel, text, &t), rc);
	if (rc == 0)
		assert_string_equal(t, out);
	else
		assert_null(t);
	free(t);
}

static void test_link_target(void **state)
{
	/* sysfs: relative links */
	assert_target(false, "sys/bus/pci/devices/0000:00:01.0", "../../../devices/pci0000:00/0000:00:01.0",
		      0, "sys/devices/pci0000:00/0000:00:01.0");
	assert_target(false, "sys/class/net/eth0", "../../devices/virtual/net/eth0", 0,
		      "sys/devices/virtual/net/eth0");
	/* up to the root is inside it, one more is not */
	assert_target(false, "etc/modprobe.d/x.conf", "../../y", 0, "y");
	assert_target(false, "etc/modprobe.d/x.conf", "../../../y", -EXDEV, NULL);
	assert_target(false, "x", "..", -EXDEV, NULL);
	/* absolute: outside a --root, inside the host's "/" */
	assert_target(false, "etc/modprobe.d/x.conf", "/etc/shadow", -EXDEV, NULL);
	assert_target(true, "etc/modprobe.d/x.conf", "/usr/share/x.conf", 0, "usr/share/x.conf");
	assert_target(true, "etc/x", "/../../etc/shadow", -EXDEV, NULL);
	/* a link at the top of the root */
	assert_target(false, "lnk", "etc/hostprep", 0, "etc/hostprep");
}

static void test_refused(void **state)
{
	static const char *const no[] = {
		"proc",	       "proc/1",	 "proc/1/environ", "proc/self",	    "proc/self/fd/3",
		"proc/kcore",  "etc/shadow",	 "etc/shadow-",	   "etc/gshadow",   "etc/ssh",
		"etc/ssh/ssh_host_ed25519_key", "var/log", "var/log/journal/x", "dev",
		"dev/null",    "dev/shm/x",	 "sys",		   "run/log/journal",
	};
	static const char *const yes[] = {
		"proc/cmdline",	 "proc/modules",  "proc/sys/kernel/osrelease", "proc/net/bonding/bond0",
		"proc/driver/nvidia/gpus", "dev/infiniband", "dev/infiniband/uverbs0", "sys/bus/pci",
		"etc/hostprep", "etc/modprobe.d", "etc/sshd-not-ssh", "var/lib/hostprep/originals",
	};

	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!snapshot_refused(no[i]))
			fail_msg("%s is captured", no[i]);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (snapshot_refused(yes[i]))
			fail_msg("%s is refused", yes[i]);
}

static void test_strset(void **state)
{
	struct strset s = {};
	char buf[32];

	assert_false(strset_has(&s, "a"));
	assert_int_equal(strset_add(&s, "a"), 1);
	assert_int_equal(strset_add(&s, "a"), 0);
	assert_true(strset_has(&s, "a"));
	/* across several growths, the order kept and every member found */
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "p/%d", i);
		assert_int_equal(strset_add(&s, buf), 1);
	}
	assert_int_equal(s.n, 5001);
	assert_string_equal(s.order[0], "a");
	assert_string_equal(s.order[5000], "p/4999");
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "p/%d", i);
		assert_true(strset_has(&s, buf));
		assert_int_equal(strset_add(&s, buf), 0);
	}
	assert_false(strset_has(&s, "p/5000"));
	strset_done(&s);
	assert_int_equal(s.n, 0);
}

static void test_utf8_escape(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	assert_true(snapshot_utf8("etc/modprobe.d/x.conf"));
	assert_true(snapshot_utf8("caf\xc3\xa9"));
	assert_true(snapshot_utf8("\xf0\x9f\x98\x80"));
	assert_false(snapshot_utf8("bad\xff.conf"));
	assert_false(snapshot_utf8("\xc3"));	     /* cut */
	assert_false(snapshot_utf8("\xc0\xaf"));     /* overlong '/' */
	assert_false(snapshot_utf8("\xed\xa0\x80")); /* a surrogate */
	assert_false(snapshot_utf8("\xf4\x90\x80\x80"));

	f = open_memstream(&buf, &size);
	snapshot_escape(f, "a\\b\nc\xff\xc3\xa9\x7f");
	fclose(f);
	assert_string_equal(buf, "a\\\\b\\x0ac\\xff\xc3\xa9\\x7f");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_link_target),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_strset),
		cmocka_unit_test(test_utf8_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
