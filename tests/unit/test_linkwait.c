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

#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "run/linkwait.h"
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

/* A module's source: counts the drains, wakes a re-check (or says it is gone). */
struct src {
	int fds[2];
	int drained;
	int closed;
	int ret; /* what drain() returns */
};

static int src_drain(int fd, uint32_t revents, void *userdata)
{
	struct src *x = userdata;
	char buf[64];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	x->drained++;
	return x->ret;
}

static void src_close(void *userdata)
{
	struct src *x = userdata;

	x->closed++;
}

static void src_open(struct src *x, int ret)
{
	*x = (struct src){ .ret = ret };
	assert_int_equal(pipe2(x->fds, O_NONBLOCK | O_CLOEXEC), 0);
}

static void src_done(struct src *x)
{
	close(x->fds[0]);
	close(x->fds[1]);
}

static void *poke(void *arg)
{
	struct src *x = arg;

	usleep(150 * 1000);
	assert_int_equal(write(x->fds[1], "x", 1), 1);
	return NULL;
}

static void test_bad_sources(void **state)
{
	struct sysroot root = host_root();
	struct pred p = {};
	struct src x;
	struct linkwait_source bad[] = {
		{ .name = "nofd", .fd = -1, .drain = src_drain },
		{ .name = "nodrain", .fd = 0 },
	};
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p, .n_sources = 1 };
	uint64_t t0;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		t.sources = &bad[i];
		assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 1000 * MSEC), -EINVAL);
	}
	assert_int_equal(p.calls, 0); /* refused before any check */

	/* a source that never fires: waited for on link events alone, to the deadline */
	src_open(&x, 1);
	t.sources = &(struct linkwait_source){
		.name = "quiet", .fd = x.fds[0], .drain = src_drain, .userdata = &x
	};
	t0 = linkwait_now_usec();
	assert_int_equal(linkwait(&root, &t, t0 + 200 * MSEC), 0);
	assert_true(linkwait_now_usec() - t0 >= 200 * MSEC);
	assert_true(p.calls >= 1);
	assert_int_equal(x.drained, 0);
	src_done(&x);
	sysroot_done(&root);
}

/* A module's source ends the wait at once; one that says it is gone wakes one re-check. */
static void test_source_wakes(void **state)
{
	struct sysroot root = host_root();
	struct linkwait_sources list = {};
	struct src x, gone;
	struct pred p = { .ready_at = 2 };
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	pthread_t th;
	uint64_t t0, dt;

	(void)private_netns();
	src_open(&x, 1);
	assert_int_equal(linkwait_sources_add(&list,
					      &(struct linkwait_source){
						      .name = "x",
						      .fd = x.fds[0],
						      .drain = src_drain,
						      .close = src_close,
						      .userdata = &x,
					      }),
			 0);
	t.sources = list.v;
	t.n_sources = list.n;
	t0 = linkwait_now_usec();
	assert_int_equal(pthread_create(&th, NULL, poke, &x), 0);
	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 1);
	dt = linkwait_now_usec() - t0;
	pthread_join(th, NULL);
	assert_true(dt >= 150 * MSEC);
	assert_true(dt < 1000 * MSEC);
	assert_int_equal(p.calls, 2);
	assert_int_equal(x.drained, 1);
	linkwait_sources_done(&list);
	assert_int_equal(x.closed, 1);
	assert_null(list.v);
	src_done(&x);

	src_open(&gone, -ENODEV);
	p = (struct pred){ .ready_at = 2 };
	t.sources = &(struct linkwait_source){
		.name = "gone", .fd = gone.fds[0], .drain = src_drain, .userdata = &gone
	};
	t.n_sources = 1;
	assert_int_equal(pthread_create(&th, NULL, poke, &gone), 0);
	assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 10000 * MSEC), 1);
	pthread_join(th, NULL);
	assert_int_equal(gone.drained, 1);
	assert_int_equal(p.calls, 2);
	src_done(&gone);
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

/* What the command layer hands the wait (src/cli/run-cmd.c): STATUS= through the sinks. */
static void notify_status(const char *status)
{
	(void)sink_notify_status(status);
}

/* A link event ends the wait at once, and the wait is published as STATUS=. */
static void test_link_event_wakes(void **state)
{
	char tmpl[] = "/tmp/test_linkwait.XXXXXX", path[64], msg[256] = "";
	struct sysroot root = host_root();
	struct pred p = { .lo_up = true, .status = "lo (down)" };
	struct linkwait_target t = { .ready = pred_ready,
				     .userdata = &p,
				     .notify_status = notify_status };
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

/*
 * A fake root: no kernel event changes its files, so they are re-read every
 * LINKWAIT_ROOT_POLL_USEC: until the deadline (and not past it), or until ready on a
 * later poll; a deadline already past is one check.
 */
static void test_fake_root(void **state)
{
	struct sysroot root;
	struct pred p = {};
	struct linkwait_target t = { .ready = pred_ready, .userdata = &p };
	uint64_t t0 = linkwait_now_usec(), took;

	assert_int_equal(sysroot_init(&root, "/tmp"), 0);
	assert_int_equal(linkwait(&root, &t, t0 + 450 * MSEC), 0);
	took = linkwait_now_usec() - t0;
	assert_true(took >= 450 * MSEC && took < 1500 * MSEC);
	assert_true(p.calls >= 3 && p.calls <= 6); /* 0, 100, ... 450 ms */
	p = (struct pred){ .ready_at = 3 };
	t0 = linkwait_now_usec();
	assert_int_equal(linkwait(&root, &t, t0 + 10000 * MSEC), 1);
	assert_int_equal(p.calls, 3);
	took = linkwait_now_usec() - t0;
	assert_true(took >= 2 * LINKWAIT_ROOT_POLL_USEC && took < 2000 * MSEC);
	p = (struct pred){ .err = -EIO };
	assert_int_equal(linkwait(&root, &t, linkwait_now_usec() + 10000 * MSEC), -EIO);
	assert_int_equal(p.calls, 1);
	p = (struct pred){};
	assert_int_equal(linkwait(&root, &t, linkwait_now_usec() - 1), 0);
	assert_int_equal(p.calls, 1);
	sysroot_done(&root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ready_at_once),	 cmocka_unit_test(test_deadline_past),
		cmocka_unit_test(test_deadline_short),	 cmocka_unit_test(test_predicate_error),
		cmocka_unit_test(test_bad_sources),	 cmocka_unit_test(test_source_wakes),
		cmocka_unit_test(test_link_event_wakes), cmocka_unit_test(test_recheck_period),
		cmocka_unit_test(test_fake_root),
	};

	log_set_max_level(LOG_WARNING);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
