// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot wait: one wait for everything the modules declared (ports, bonds), so the
 * unit's STATUS= names all that is missing at once ("waiting for mlx5_3/1 (Polling),
 * bond0 (1 of 2 slaves up)") and one bound ([Host] Wait=, from the start of the run)
 * covers them all. Waiting writes nothing: every apply waits, Apply=no too, since the unit
 * at boot must not call a port that is still training "down". check never waits.
 */
#include "run/linkwait.h"
#include "core/log.h"
#include "run/run.h"

struct waiters {
	struct run *run;
	bool waits[RUN_MODULES_MAX];
};

static int append_status(char **all, const char *one)
{
	char *joined;

	if (!one || !*one)
		return 0;
	if (asprintf(&joined, "%s%s%s", *all ? *all : "", *all ? ", " : "", one) < 0)
		return -ENOMEM;
	free(*all);
	*all = joined;
	return 0;
}

static int all_ready(void *userdata, char **ret_status)
{
	struct waiters *w = userdata;
	const struct run *run = w->run;
	_cleanup_(freep) char *all = NULL;
	bool ready = true;

	for (size_t i = 0; i < run->modules->n; i++) {
		_cleanup_(freep) char *status = NULL;
		int r;

		if (!w->waits[i])
			continue;
		r = run->modules->v[i]->wait_ready(w->run, &status);
		if (r < 0)
			return r;
		if (r > 0)
			continue;
		ready = false;
		r = append_status(&all, status ? status : run->modules->v[i]->name);
		if (r < 0)
			return r;
	}
	*ret_status = TAKE_PTR(all);
	return ready;
}

static int setup(struct waiters *w, struct linkwait_sources *sources, uint64_t *recheck)
{
	const struct run *run = w->run;
	bool any = false;

	for (size_t i = 0; i < run->modules->n; i++) {
		int r;

		if (!run->modules->v[i]->wait_setup || !run_has_module(w->run, i))
			continue;
		r = run->modules->v[i]->wait_setup(w->run, sources, recheck);
		if (r < 0)
			return r;
		w->waits[i] = r > 0;
		any |= r > 0;
	}
	return any;
}

/*
 * hostprep.service's TimeoutStartSec= covers a run with the default Wait=; a longer Wait=
 * moves the unit's deadline to the end of the wait (the command layer adds a margin for
 * what follows it).
 */
static void extend_timeout(const struct run *run, uint64_t deadline)
{
	uint64_t now = linkwait_now_usec();

	if (run->notify && run->notify->extend_timeout)
		run->notify->extend_timeout(deadline > now ? deadline - now : 0);
}

/*
 * Below --root the wait re-reads the root's files (linkwait()), and only when the
 * configuration names a Wait=: the default would hold every apply on a copy of a host
 * whose ports are down for a minute, waiting on files nothing changes.
 */
static bool waits_below_root(const struct run *run)
{
	return sysroot_is_host(run->root) || run->cfg->wait_at.file;
}

/* Each module that waited re-reads what it waits for; one that cannot is judged as read. */
static int waits_done(struct run *run, const struct waiters *w, bool timed_out)
{
	uint64_t waited = linkwait_now_usec() - run->started_usec;

	for (size_t i = 0; i < run->modules->n; i++) {
		int r;

		if (!w->waits[i] || !run->modules->v[i]->wait_done)
			continue;
		r = run->modules->v[i]->wait_done(run, waited, timed_out);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			log_warning_errno(r, "Re-reading %s after the wait failed: %m",
					  run->modules->v[i]->name);
	}
	return 0;
}

int run_wait(struct run *run)
{
	_cleanup_(linkwait_sources_done) struct linkwait_sources sources = {};
	struct waiters w = { .run = run };
	struct linkwait_target t = {
		.ready = all_ready,
		.userdata = &w,
		.notify_status = run->notify ? run->notify->status : NULL,
	};
	uint64_t deadline;
	int r;

	if (run->mode != RUN_APPLY || !run->cfg->wait_usec || !waits_below_root(run))
		return 0;
	deadline = run->started_usec + run->cfg->wait_usec;
	/* no time left: one check, no event source opened for it; none of the host's for a root */
	r = setup(&w,
		  deadline > linkwait_now_usec() && sysroot_is_host(run->root) ? &sources : NULL,
		  &t.recheck_usec);
	if (r == -ENOMEM || r == 0)
		return r;
	if (r > 0) {
		t.sources = sources.v;
		t.n_sources = sources.n;
		extend_timeout(run, deadline);
		r = linkwait(run->root, &t, deadline);
	}
	if (r < 0) {
		log_warning_errno(r, "Waiting for ports and bonds failed, judging them as they "
				     "are: %m");
		return 0;
	}
	return waits_done(run, &w, r == 0);
}
