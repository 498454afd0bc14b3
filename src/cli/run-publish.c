// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one publish step: every artifact of a verdict written from one report, in one
 * order, under the run lock's rules (src/cli/run-publish.h says which and why).
 */
#include <sys/file.h>

#include "core/log.h"
#include "core/record.h"
#include "cli/run-publish.h"
#include "report/sink-config.h"
#include "report/sinks.h"

/*
 * Every artifact goes, report.json first: a run that cannot publish its verdict leaves
 * none of an older one (metrics, NFD labels, rdma.env), so nothing says READY.
 */
static void unpublish(struct run *run, const struct config *cfg)
{
	report_remove(run->root);
	sink_files_remove(cfg, run->root);
	run_unpublish(run);
}

/*
 * The modules' files, the [Sinks] files, report.json last: whoever reads report.json
 * READY (status, the gates) finds the other files of that verdict already there. A
 * failure on the way removes the report and whatever still holds the last verdict: no
 * report is NOT READY, never a stale READY.
 */
static int write_all(struct run *run, const struct config *cfg, const struct report *rep,
		     bool pending, uint64_t duration_usec)
{
	int r = run_publish(run, pending);
	bool sinks = false;

	if (r >= 0)
		r = sink_files(rep, cfg, run->root, duration_usec);
	if (r >= 0) {
		sinks = true; /* each holds this verdict now, or is gone */
		r = report_write(rep, run->root);
	}
	if (r < 0) {
		log_warning_errno(r, "Failed to publish the report, removing the last one: %m");
		if (sinks)
			report_remove(run->root);
		else
			unpublish(run, cfg);
	}
	return r == -ENOMEM ? r : 0;
}

/* A reader that cannot publish says why (the report is still printed) and stops trying. */
static int not_published(struct run *run, const char *why)
{
	log_notice("This run's report is printed, not published: %s.", why);
	run->publishes = false;
	return 0;
}

static int lock_shared(struct run *run, uint64_t *gen)
{
	if (run->lock_fd < 0)
		return record_lock_shared(run->root, &run->lock_fd, gen);
	while (flock(run->lock_fd, LOCK_SH | LOCK_NB) < 0)
		if (errno != EINTR)
			return -errno;
	return record_lock_generation(run->lock_fd, gen);
}

static void unlock_shared(struct run *run)
{
	(void)flock(run->lock_fd, LOCK_UN);
}

/*
 * A reader's glance at the run lock, shared and without waiting. 1: held, and no writer
 * took the lock since the first glance (its generation then is run->lock_gen); 0: the
 * run does not publish. A lock that cannot be taken at all cannot order this run: the
 * last report goes, since this run cannot replace it.
 */
static int reader_glance(struct run *run, const struct config *cfg)
{
	bool first = run->lock_fd < 0;
	uint64_t gen;
	int r = lock_shared(run, &gen);

	if (r == -EWOULDBLOCK)
		return not_published(run, "a run that changes the host holds the run lock and "
					  "publishes its own verdict");
	if (r < 0) {
		log_warning_errno(r, "Failed to take the run lock, removing the last report and "
				     "the files of its verdict: %m");
		unpublish(run, cfg);
		return not_published(run, "the run lock cannot be taken");
	}
	if (first)
		run->lock_gen = gen;
	if (gen == run->lock_gen)
		return 1;
	unlock_shared(run);
	return not_published(run, "a run that changed the host ran while this one read it and "
				  "published a later verdict");
}

int publish_begin(struct run *run, const struct config *cfg, const struct report *pending)
{
	bool writer = run_writes(run);
	int r;

	if (!run->publishes)
		return 0;
	r = writer ? record_lock(run->root, &run->lock_fd) : reader_glance(run, cfg);
	if (r < 0 || (!writer && r == 0))
		return r;
	r = 0;
	if (pending)
		r = write_all(run, cfg, pending, true, 0);
	if (!writer)
		unlock_shared(run);
	return r;
}

int publish_verdict(struct run *run, const struct config *cfg, const struct report *rep,
		    uint64_t duration_usec)
{
	bool writer = run_writes(run);
	int r;

	if (!run->publishes)
		return 0;
	if (!writer) {
		r = reader_glance(run, cfg);
		if (r <= 0)
			return r;
	}
	r = write_all(run, cfg, rep, false, duration_usec);
	if (!writer)
		unlock_shared(run);
	return r;
}

/* Never READY: no order to keep with a writer, and nothing stale may stay. */
int publish_failure(struct run *run, const struct config *cfg, const struct report *rep)
{
	return run->publishes ? write_all(run, cfg, rep, true, 0) : 0;
}
