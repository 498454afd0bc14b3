/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

/*
 * OFED installed, the kernel's own RDMA stack running (issue 17.15): MLNX_OFED's modules
 * are on disk (mlx_compat and the modules that depend on it, under updates/ or extra/) and
 * modprobe resolves to them, but what runs came from kernel/ (the initramfs, or a boot
 * before the install): no mlx_compat loaded, and the live modules are neither the files on
 * disk nor out-of-tree builds. One result ("module.stack") says so once, with the remedy
 * that swaps the whole stack; module.origin, module.stale and module.version of those
 * modules point at it instead of proposing per-module reloads that would mix the stacks.
 */
struct kmod_run;
struct kmod_seen;
struct run;

struct kmod_stack {
	bool inbox_running;
	char *ofed_version; /* OFED's mlx5_core file's version, NULL when it has none */
	char *running;	    /* "mlx5_core, mlx5_ib, ib_core" */
};

int kmod_stack_scan(struct kmod_run *k, const struct run *run);
void kmod_stack_done(struct kmod_stack *st);
/* s is one of the stack's modules running as the kernel's own while OFED's is on disk. */
bool kmod_stack_has(const struct kmod_run *k, const struct kmod_seen *s);
/* The remedy other results give for such a module: a pointer to module.stack. */
const char *kmod_stack_see(void);
/* The "module.stack" result (nothing when the stack is consistent). */
int kmod_stack_verify(struct kmod_run *k, struct run *run);
