// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Waiting for ports and bonds by events. One sd-event loop with:
 *   - an rtnetlink socket in RTMGRP_LINK: every RTM_NEWLINK/RTM_DELLINK
 *     (carrier, operstate, a bond slave's state) wakes a re-check; the
 *     messages are not parsed, the caller re-reads sysfs anyway;
 *   - the modules' event sources (struct linkwait_source): the RDMA module's
 *     verbs async fds (PORT_ACTIVE, PORT_ERR, GID_CHANGE, ...), so an IB port
 *     that goes ACTIVE without any netdev change (IPoIB aside) still wakes us;
 *   - a CLOCK_MONOTONIC timer at the deadline.
 * The sources exist before the first check: an event between the check and
 * the first epoll_wait is queued, not lost.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

#include "run/linkwait.h"
#include "core/log.h"
#include "core/sd-dlopen.h"

/* The deadline fires after pending io: an event that came in time counts. */
#define PRIORITY_EVENTS	  0
#define PRIORITY_DEADLINE 10

struct waiter {
	const struct linkwait_target *t;
	sd_event *event;
	char *status; /* the last one published */
	struct source_ctx *srcs;
};

struct source_ctx {
	struct waiter *w;
	const struct linkwait_source *src;
};

uint64_t linkwait_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int linkwait_sources_add(struct linkwait_sources *s, const struct linkwait_source *src)
{
	struct linkwait_source *grown = realloc(s->v, (s->n + 1) * sizeof(*grown));

	if (!grown) {
		if (src->close)
			src->close(src->userdata);
		return -ENOMEM;
	}
	grown[s->n++] = *src;
	s->v = grown;
	return 0;
}

void linkwait_sources_done(struct linkwait_sources *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].close)
			s->v[i].close(s->v[i].userdata);
	free(s->v);
	*s = (struct linkwait_sources){};
}

static void waiter_done(struct waiter *w)
{
	/* the sources refer to the modules' fds: they go with the loop, the fds stay theirs */
	if (w->event)
		w->event = sym_sd_event_unref(w->event);
	free(w->srcs);
	free(w->status);
}

/*
 * Hand a source to the loop: floating, it lives until sym_sd_event_unref(), and
 * our reference from sd_event_add_*() is dropped (else every source leaks).
 */
static int float_source(sd_event_source *s)
{
	int r = sym_sd_event_source_set_floating(s, 1);

	sym_sd_event_source_unref(s);
	return r;
}

static void publish_status(struct waiter *w, char *status)
{
	_cleanup_(freep) char *s = status, *line = NULL;

	if (!s || (w->status && streq(w->status, s)))
		return;
	/* notice, not info: a boot held up is news in the journal at the default level */
	log_notice("Waiting for %s", s);
	if (w->t->notify_status && asprintf(&line, "waiting for %s", s) >= 0)
		w->t->notify_status(line);
	free(w->status);
	w->status = TAKE_PTR(s);
}

/* Ask the caller; end the loop when ready or on error. */
static int recheck(struct waiter *w)
{
	char *status = NULL;
	int r;

	r = w->t->ready(w->t->userdata, &status);
	if (r != 0) {
		free(status);
		return sym_sd_event_exit(w->event, r < 0 ? r : 1);
	}
	publish_status(w, status);
	return 0;
}

static int on_netlink(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	char buf[8192];

	/* Drain the burst, then check once. */
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n >= 0)
			continue;
		/* ENOBUFS: the socket overflowed and we missed some: the re-check reads anyway */
		if (errno == EINTR || errno == ENOBUFS)
			continue;
		if (errno == EAGAIN)
			break;
		log_warning_errno(errno, "Failed to read link events, waiting without them: %m");
		sym_sd_event_source_set_enabled(s, SD_EVENT_OFF);
		break;
	}
	return recheck(userdata);
}

static int netlink_open(struct waiter *w)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	_cleanup_(closep) int fd = -1;
	sd_event_source *s;
	int r;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	r = sym_sd_event_add_io(w->event, &s, fd, EPOLLIN, on_netlink, w);
	if (r < 0)
		return r;
	/* the source owns the fd from here; it stays floating with the loop */
	(void)sym_sd_event_source_set_io_fd_own(s, 1);
	TAKE_FD(fd);
	(void)sym_sd_event_source_set_priority(s, PRIORITY_EVENTS);
	return float_source(s);
}

static int on_source(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct source_ctx *c = userdata;
	int r = c->src->drain(fd, revents, c->src->userdata);

	if (r < 0) {
		/* gone (unbind, reset): the other sources and the link events remain */
		sym_sd_event_source_set_enabled(s, SD_EVENT_OFF);
		r = 1;
	}
	return r > 0 ? recheck(c->w) : 0;
}

static int sources_setup(struct waiter *w)
{
	if (w->t->n_sources == 0)
		return 0;
	w->srcs = calloc(w->t->n_sources, sizeof(*w->srcs));
	if (!w->srcs)
		return -ENOMEM;
	for (size_t i = 0; i < w->t->n_sources; i++) {
		sd_event_source *s;
		int r;

		w->srcs[i] = (struct source_ctx){ .w = w, .src = &w->t->sources[i] };
		r = sym_sd_event_add_io(w->event, &s, w->t->sources[i].fd, EPOLLIN, on_source,
					&w->srcs[i]);
		if (r < 0)
			return r;
		(void)sym_sd_event_source_set_priority(s, PRIORITY_EVENTS);
		r = float_source(s);
		if (r < 0)
			return r;
	}
	return 0;
}

static int on_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct waiter *w = userdata;

	return sym_sd_event_exit(w->event, 0);
}

/*
 * LACP: bond_3ad.c changes the aggregator IDs and the actor/partner oper
 * port states (partner MAC, collecting, distributing) from its state machine
 * and from ad_rx_machine() on received LACPDUs without any netdev
 * notification; only __enable_port()/__disable_port() of a slave reach
 * rtnetlink (slave->should_notify -> bond_slave_state_notify() ->
 * netdev_lower_state_changed() -> NETDEV_CHANGELOWERSTATE -> RTM_NEWLINK in
 * rtnetlink_event()), and even that is skipped when rtnl_trylock() fails in
 * bond_3ad_state_machine_handler() (retried on a later tick). Jay Vosburgh
 * lists the same two silent paths on netdev, "bonding: 3ad: send ifinfo
 * notify when mux state changed", 2024-06-27; kernels before that series
 * (6.1, 6.6 ...) have no event for them. So for an 802.3ad bond, and only
 * then, the state is also re-read at the fast LACP period.
 */
static int on_recheck(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct waiter *w = userdata;
	int r;

	r = sym_sd_event_source_set_time(s, usec + w->t->recheck_usec);
	if (r >= 0)
		r = sym_sd_event_source_set_enabled(s, SD_EVENT_ON);
	if (r < 0)
		return sym_sd_event_exit(w->event, r);
	return recheck(w);
}

static int timers_setup(struct waiter *w, uint64_t deadline_usec)
{
	sd_event_source *s;
	int r;

	/* accuracy 1 µs: the default (250 ms) would make the deadline late */
	r = sym_sd_event_add_time(w->event, &s, CLOCK_MONOTONIC, deadline_usec, 1, on_deadline, w);
	if (r < 0)
		return r;
	(void)sym_sd_event_source_set_priority(s, PRIORITY_DEADLINE);
	r = float_source(s);
	if (r < 0 || !w->t->recheck_usec)
		return r;
	r = sym_sd_event_add_time_relative(w->event, &s, CLOCK_MONOTONIC, w->t->recheck_usec, 1000,
					   on_recheck, w);
	if (r < 0)
		return r;
	return float_source(s);
}

static int waiter_setup(struct waiter *w, uint64_t deadline_usec)
{
	int r;

	r = dlopen_libsystemd(LOG_ERR);
	if (r < 0)
		return r;
	r = sym_sd_event_new(&w->event);
	if (r < 0)
		return log_error_errno(r, "Failed to create an event loop: %m");
	r = netlink_open(w);
	if (r < 0)
		return log_error_errno(r, "Failed to listen to rtnetlink link events: %m");
	r = sources_setup(w);
	if (r < 0)
		return log_error_errno(r, "Failed to watch the modules' event sources: %m");
	r = timers_setup(w, deadline_usec);
	if (r < 0)
		return log_error_errno(r, "Failed to set up the wait's timers: %m");
	return 0;
}

static void sleep_usec(uint64_t usec)
{
	struct timespec ts = { .tv_sec = usec / 1000000, .tv_nsec = usec % 1000000 * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * A root other than the host's (a copy of one, another host's tree mounted here) gets no
 * event from the kernel that changes its files: they are re-read every
 * LINKWAIT_ROOT_POLL_USEC until ready or the deadline.
 */
static int poll_root(const struct linkwait_target *t, uint64_t deadline_usec)
{
	_cleanup_(waiter_done) struct waiter w = { .t = t };

	for (;;) {
		char *status = NULL;
		uint64_t now;
		int r = t->ready(t->userdata, &status);

		if (r != 0) {
			free(status);
			return r < 0 ? r : 1;
		}
		publish_status(&w, status);
		now = linkwait_now_usec();
		if (now >= deadline_usec)
			return 0;
		sleep_usec(deadline_usec - now < LINKWAIT_ROOT_POLL_USEC ? deadline_usec - now
									 : LINKWAIT_ROOT_POLL_USEC);
	}
}

int linkwait(const struct sysroot *root, const struct linkwait_target *t, uint64_t deadline_usec)
{
	_cleanup_(waiter_done) struct waiter w = { .t = t };
	char *status = NULL;
	int r;

	if (!t || !t->ready)
		return -EINVAL;
	for (size_t i = 0; i < t->n_sources; i++)
		if (t->sources[i].fd < 0 || !t->sources[i].drain)
			return log_error_errno(EINVAL, "Invalid event source to wait on: '%s'",
					       strempty(t->sources[i].name));
	if (deadline_usec <= linkwait_now_usec()) {
		r = t->ready(t->userdata, &status);
		free(status);
		return r < 0 ? r : r > 0;
	}
	if (!sysroot_is_host(root))
		return poll_root(t, deadline_usec);
	r = waiter_setup(&w, deadline_usec);
	if (r < 0)
		return r;
	r = recheck(&w);
	if (r < 0)
		return r;
	return sym_sd_event_loop(w.event);
}
