/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "kmod/kmod-check.h"

/*
 * Persist=yes: the hostprep-owned <root>/etc/modprobe.d/hostprep.conf, one
 * "options NAME KEY=VALUE..." line per enabled rule with Persist=yes
 * (sorted), so that the next boot's automatic load already has them. It is
 * a file, not the kernel: under any --root it is written inside the tree.
 *
 * Before the first write the original goes to the persistent originals store
 * (record.h, <root>/var/lib/hostprep/originals), because the file survives a
 * reboot and so must its record:
 *
 *	file PATH absent			nothing was there: revert removes it
 *	file PATH bytes SIZE CRC MODE		its bytes are in files/CRC.orig
 *	wrote PATH SIZE CRC			what hostprep is writing / wrote
 *
 * A "wrote" line is appended before each write and the older ones dropped
 * after it, so at every instant (kill -9 included) the file is either the
 * original or content some "wrote" line names. Anything else was changed by
 * someone else: hostprep reports it and neither overwrites nor removes it.
 */
#define PERSIST_FILE "/etc/modprobe.d/hostprep.conf"

struct run;

/* apply ([Host] Apply=yes): one "module.persist" result for the file. */
int kmod_persist_apply(struct kmod_run *k, struct run *run);
/* check: one "module.persist" result (drift: the file lacks a wanted line). */
int kmod_persist_verify(struct kmod_run *k, struct run *run);
/* revert: "module.revert" results for the file; none when nothing was recorded. */
int kmod_persist_revert(struct run *run);
/* Whether some enabled rule has Persist=yes. */
bool kmod_persist_wanted(const struct run *run);
