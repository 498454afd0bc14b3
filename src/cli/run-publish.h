/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/run.h"

/*
 * The one publish step of check, apply and revert (src/cli/run-publish.c): every file
 * that tells other programs what hostprep found is written from one report, by one
 * piece of code, in one order: the modules' files (rdma.env, gpus.json: their content
 * from run_publish()), the [Sinks] files (metrics, NFD), report.json last. Only a run
 * whose run->publishes the command layer set publishes; nothing else decides it.
 *
 * Order between runs (the last verdict published is the verdict of the last run that
 * decided): a run that writes the host holds the run lock (exclusive) from before its
 * first read to after its publish. A run that only reads and publishes (check, apply
 * with Apply=no) glances at the lock, shared and without waiting, before its first read
 * and again to publish: if a writer holds it, or one took it in between (the lock's
 * generation moved), what it read may be stale and a writer publishes after it, so it
 * publishes nothing (its report is still printed). A writer waits behind it only for
 * the milliseconds of a glance or a publish.
 *
 * No stale READY: a run that writes (and apply, the boot run) first puts every artifact
 * in its not-ready form (the report's "run has not finished" result; rdma.env without
 * exports; gpus.json removed), so a kill at any point leaves NOT READY or the previous
 * complete verdict. An artifact that cannot be written is removed (unlinking needs no
 * space): no report is NOT READY to every reader.
 */

struct report;

/*
 * Before the run reads the host. A run that writes takes the run lock (and keeps it
 * until run_done()); a publishing reader notes the lock's generation, or, while a
 * writer holds the lock, stops publishing. Then pending, when given, is published to
 * every artifact (the "run has not finished" report). <0: the lock could not be taken by
 * a run that writes (logged), or ENOMEM.
 */
int publish_begin(struct run *run, const struct config *cfg, const struct report *pending);
/*
 * After the verify steps: rep to every artifact, when the run publishes and, for a
 * reader, no writer ran since publish_begin(). duration_usec: for the metrics.
 */
int publish_verdict(struct run *run, const struct config *cfg, const struct report *rep,
		    uint64_t duration_usec);
/*
 * A run that stopped without a verdict (config error, internal error): rep, its one
 * result, to every artifact (the modules' files in their not-ready form). cfg NULL: the
 * configuration did not load ([Sinks] files refreshed at their default paths only).
 */
int publish_failure(struct run *run, const struct config *cfg, const struct report *rep);
