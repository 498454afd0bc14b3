/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/sysroot.h"

/*
 * The boot gate, `hostprep gate UNIT` (the ExecCondition= of a gated workload: kubelet,
 * slurmd). It holds back only the first start of UNIT in a boot: that start waits for a
 * READY verdict (a host that never was ready this boot starts no work). Once the gate has
 * let UNIT start in this boot, every later start of UNIT in the same boot passes whatever
 * the verdict: a restart by a package upgrade, a kubeadm step, an Ansible handler or
 * Restart= must not leave the daemon stopped (Kubernetes evicts a node's pods 300 s after
 * its kubelet stops; slurmctld kills the jobs of a node whose slurmd is gone).
 *
 * The record: GATE_DIR/UNIT below /run, one line, the boot ID
 * (/proc/sys/kernel/random/boot_id) of the boot in which the gate let UNIT start, written
 * atomically (0644, in a 0755 directory) when it does so on a READY verdict, never on a
 * NOT READY one. /run is a tmpfs, so a reboot removes it; a record of another boot (a /run
 * that is not a tmpfs, a copied tree) does not count. `rm /run/hostprep/gate/UNIT` makes
 * the next start of UNIT wait for READY again.
 *
 * What cannot be read is never taken as a pass: a record that is missing, of another boot,
 * damaged, not a regular file, writable by others than root or not root's proves nothing,
 * and the verdict decides (as at the first start). The same when the boot ID cannot be
 * read (nothing is recorded then). A record that cannot be written does not stop a start
 * the verdict allows; the gate says that a restart while not ready would be held back.
 */
#define GATE_DIR    "hostprep/gate"
#define BOOT_ID_LEN 36 /* 8-4-4-4-12 lowercase hex, as the kernel prints it */

/* A unit name fit to be a file name in GATE_DIR: systemd's characters, no leading '.'. */
bool gate_name_valid(const char *name);
/* "8-4-4-4-12" lowercase hex, nothing else. */
bool boot_id_valid(const char *s);
/* The running boot's ID into id; -errno, or -EBADMSG when it does not read as one. */
int gate_boot_id(const struct sysroot *root, char id[BOOT_ID_LEN + 1]);
/*
 * 1: the record says UNIT passed the gate in the boot boot_id; 0: it does not (missing,
 * another boot's); a negative errno when it cannot be used (-EBADMSG damaged, -EPERM
 * writable by others or not root's, -EBADFD not a regular file, a read error): the caller
 * says so and lets the verdict decide.
 */
int gate_passed(const struct sysroot *root, const char *name, const char *boot_id, uid_t owner);
/* Record that UNIT passed the gate in the boot boot_id; -errno. */
int gate_record(const struct sysroot *root, const char *name, const char *boot_id);
