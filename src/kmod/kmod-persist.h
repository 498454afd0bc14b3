/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "kmod/kmod-check.h"

/*
 * Persist=yes: the hostprep-owned <root>/etc/modprobe.d/hostprep.conf, one
 * "options NAME KEY=VALUE..." line per enabled rule with Persist=yes
 * (sorted), so that the next boot's automatic load already has them. It is
 * a file, not the kernel: under any --root it is written inside the tree.
 *
 * The file is a hostprep-owned file (persist-file.h): its original is
 * recorded before the first write and put back by revert; a file someone
 * else changed is reported, never overwritten or removed.
 */
#define PERSIST_FILE "/etc/modprobe.d/hostprep.conf"

struct run;

/* apply ([Host] Apply=yes): one "module.persist" result for the file. */
int kmod_persist_apply(struct kmod_run *k, struct run *run);
/* check: one "module.persist" result (drift: the file lacks a wanted line). */
int kmod_persist_verify(struct kmod_run *k, struct run *run);
/* revert: "module.revert" results for the file; none when nothing was recorded. */
int kmod_persist_revert(struct run *run);
/*
 * s->set_by: what the next load gets for the rule's Parameter= values from the other files of
 * modprobe.d and the kernel command line alone (a rule with Parameter=, Persist=yes or not).
 */
int kmod_persist_scan(const struct run *run, struct kmod_seen *s);
/* Whether some enabled rule has Persist=yes. */
bool kmod_persist_wanted(const struct run *run);
