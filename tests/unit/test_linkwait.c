// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linkwait: the event loop that waits for ports and bonds. The predicate is
 * the test's; the events are real (rtnetlink in a private network namespace,
 * where bringing "lo" up is the one link event, so a call count proves that
 * nothing polls).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "core/linkwait.h"
#include "core/log.h"
#include "report/sinks.h"

#define MSEC 1000ULL

struct pred {
	int calls;
	int ready_at; /* ready on this call (1-based); 0: never */
	int err;      /* < 0: return this */
	bool lo_up;   /* ready when lo is up */
	const char *status;
};

static int lo_flags(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	assert_true(fd >= 0);
	r = ioctl(fd, SIOCGIFFLAGS, &ifr);
	close(fd);
	return r < 0 ? -errno : ifr.ifr_flags;
}

static int pred_ready(void *userdata, char **ret_status)
{
	struct pred *p = userdata;

	p->calls++;
	if (p->err)
		return p->err;
	if (p->lo_up && (lo_flags() & IFF_UP))
		return 1;
	if (p->ready_at && p->calls >= p->ready_at)
		return 1;
	if (p->status)
		*ret_status = strdup(p->status);
	return 0;
}

static struct sysroot host_root(void)
{
	struct sysroot root;

	assert_int_equal(sysroot_init(&root, NULL), 0);
	assert_true(sysroot_is_host(&root));
	return root;
}

/* A private network namespace: no link event from the machine reaches us. */
static bool private_netns(void)
{
	return unshare(CLONE_NEWNET) == 0;
}

static void test_ready_at_once(void **state)
{
	struct sysroot root = host_root();
	struct pred p = { .ready_at = 1 };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	uint64_t t0 = linkwait_now_usec();

	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 1);
	assert_int_equal(p.calls, 1);
	assert_true(linkwait_now_usec() - t0 < 500 * MSEC);
	/* a deadline in the past still checks once */
	p.calls = 0;
	assert_int_equal(linkwait(&root, &t, 0), 1);
	assert_int_equal(p.calls, 1);
	sysroot_done(&root);
}

static void test_deadline_past(void **state)
{
	struct sysroot root = host_root();
	struct pred p = { .status = "rxe0/1 (Polling)" };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	uint64_t t0 = linkwait_now_usec();

	assert_int_equal(linkwait(&root, &t, t0 - 1), 0);
	assert_int_equal(p.calls, 1);
	assert_true(linkwait_now_usec() - t0 < 100 * MSEC);
	sysroot_done(&root);
}

static void test_deadline_short(void **state)
{
	struct sysroot root = host_root();
	struct pred p = { .status = "rxe0/1 (Polling)" };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	bool quiet = private_netns();
	uint64_t t0 = linkwait_now_usec(), dt;

	assert_int_equal(linkwait(&root, &t, t0 + 300 * MSEC), 0);
	dt = linkwait_now_usec() - t0;
	assert_true(dt >= 300 * MSEC);
	assert_true(dt < 800 * MSEC); /* not the 250 ms default timer slack on top */
	if (quiet)
		assert_int_equal(p.calls, 1); /* no event, no re-check: nothing polls */
	sysroot_done(&root);
}

static void test_predicate_error(void **state)
{
	struct sysroot root = host_root();
	struct pred p = { .err = -EIO };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };

	assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 5000 * MSEC), -EIO);
	assert_int_equal(p.calls, 1);
	assert_int_equal(linkwait(&root, &t, 0), -EIO);
	assert_int_equal(linkwait(&root, NULL, 0), -EINVAL);
	sysroot_done(&root);
}

static void test_bad_device_names(void **state)
{
	struct sysroot root = host_root();
	struct pred p = {};
	const char *const bad[][2] = { { "", NULL }, { "mlx5_0/../x", NULL }, { "..", NULL } };
	const char *const absent[] = { "nosuch_rdma0", "rxe_vanished", NULL };
	const char *const too_long[] = {
		"a_device_name_much_longer_than_any_sysfs_name_verbs_can_match_at_all_xxxxxxxxxxx",
		NULL
	};
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	uint64_t t0;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		t.rdma_devices = bad[i];
		assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 1000 * MSEC), -EINVAL);
	}
	t.rdma_devices = too_long;
	assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 1000 * MSEC), -EINVAL);
	assert_int_equal(p.calls, 0); /* refused before any check */

	/* devices that do not exist: waited for on link events alone, to the deadline */
	t.rdma_devices = absent;
	t0 = linkwait_now_usec();
	assert_int_equal(linkwait(&root, &t, t0 + 200 * MSEC), 0);
	assert_true(linkwait_now_usec() - t0 >= 200 * MSEC);
	assert_true(p.calls >= 1);
	sysroot_done(&root);
}

static void *raise_lo(void *arg)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd;

	usleep(150 * 1000);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		(void)ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int bind_dgram(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	strcpy(sa.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* A link event ends the wait at once, and the wait is published as STATUS=. */
static void test_link_event_wakes(void **state)
{
	char tmpl[] = "/tmp/test_linkwait.XXXXXX", path[64], msg[256] = "";
	struct sysroot root = host_root();
	struct pred p = { .lo_up = true, .status = "lo (down)" };
	const char *const absent[] = { "rxe_absent0", NULL };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p, .rdma_devices = absent };
	pthread_t th;
	uint64_t t0, dt;
	ssize_t n;
	int fd;

	if (!private_netns() || lo_flags() < 0 || (lo_flags() & IFF_UP)) {
		skip(); /* needs CAP_SYS_ADMIN for a network namespace of its own */
		return;
	}
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/notify", tmpl);
	fd = bind_dgram(path);
	assert_int_equal(setenv("NOTIFY_SOCKET", path, 1), 0);

	t0 = linkwait_now_usec();
	assert_int_equal(pthread_create(&th, NULL, raise_lo, NULL), 0);
	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 1);
	dt = linkwait_now_usec() - t0;
	pthread_join(th, NULL);
	unsetenv("NOTIFY_SOCKET");

	assert_true(dt >= 150 * MSEC);
	assert_true(dt < 1000 * MSEC);
	assert_in_range(p.calls, 2, 3); /* the first check, then one per event burst */
	n = recv(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	assert_string_equal(msg, "STATUS=waiting for lo (down)");
	/* the same status again is not re-published */
	assert_true(recv(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT) < 0);
	close(fd);
	unlink(path);
	rmdir(tmpl);
	sysroot_done(&root);
}

/* The LACP safety re-check: ready without any event, found at the period. */
static void test_recheck_period(void **state)
{
	struct sysroot root = host_root();
	struct pred p = { .ready_at = 3 };
	struct linkwait_target t = { .ready = pred_ready,
				     .userdata = &p,
				     .recheck_usec = 50 * MSEC };
	uint64_t t0 = linkwait_now_usec(), dt;

	(void)private_netns();
	assert_int_equal(linkwait(&root, &t, t0 + 5000 * MSEC), 1);
	dt = linkwait_now_usec() - t0;
	assert_int_equal(p.calls, 3);
	assert_true(dt >= 100 * MSEC);
	assert_true(dt < 1000 * MSEC);
	sysroot_done(&root);
}

/* A fake root: no events could ever change its files, so one check. */
static void test_fake_root(void **state)
{
	struct sysroot root;
	struct pred p = {};
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	uint64_t t0 = linkwait_now_usec();

	assert_int_equal(sysroot_init(&root, "/tmp"), 0);
	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 0);
	assert_int_equal(p.calls, 1);
	assert_true(linkwait_now_usec() - t0 < 500 * MSEC);
	p.ready_at = 1;
	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 1);
	sysroot_done(&root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ready_at_once),	 cmocka_unit_test(test_deadline_past),
		cmocka_unit_test(test_deadline_short),	 cmocka_unit_test(test_predicate_error),
		cmocka_unit_test(test_bad_device_names), cmocka_unit_test(test_link_event_wakes),
		cmocka_unit_test(test_recheck_period),	 cmocka_unit_test(test_fake_root),
	};

	log_set_max_level(LOG_WARNING);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
