/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/sysroot.h"

/*
 * libkmod behind a small vtable. libkmod resolves names through the indexes
 * of <root>/lib/modules/KVER and reads modprobe.d under the root; it reads
 * /sys and /proc of the running kernel itself, so module *state* is never
 * asked of it (kmod-scan.c reads it under the root).
 *
 * Two behaviours: "real" loads and unloads through the kernel (only ever on
 * the host itself, --root /); "dry" (any other --root, and planning) asks
 * libkmod what it would do (KMOD_PROBE_DRY_RUN + print_action) and changes
 * nothing: the kernel under a fake tree is not the tree's.
 */
struct kmod_file_info {
	char *path; /* absolute, below the root; NULL for a builtin module */
	char *srcversion, *version, *depends, *vermagic;
	char **parm_names; /* NULL-terminated; from modinfo parm= and parmtype= */
	char **parm_types; /* same index; "" when no parmtype */
	size_t n_parms;
};

void kmod_file_info_done(struct kmod_file_info *f);
/* Index of a parameter in f, or -1. */
int kmod_file_info_parm(const struct kmod_file_info *f, const char *name);

struct kmod_backend;

struct kmod_backend_ops {
	const char *name;
	/* The file modprobe would load now; -ENOENT when none (builtin or missing). */
	int (*lookup)(struct kmod_backend *b, const char *name, struct kmod_file_info *ret);
	/*
	 * Load name and its dependencies like modprobe (softdeps, modprobe.d options and
	 * blacklist), options appended. *ret_actions: what was (or would be) run, one
	 * "insmod PATH OPTIONS" per line, paths without the root prefix.
	 */
	int (*probe)(struct kmod_backend *b, const char *name, const char *options,
		     char **ret_actions);
	/* Unload name (not its dependencies); *ret_actions as for probe. */
	int (*remove)(struct kmod_backend *b, const char *name, char **ret_actions);
};

struct kmod_backend {
	const struct kmod_backend_ops *ops;
	const struct sysroot *root;
	struct kmod_ctx *ctx;
	/* dry runs: modules the tree shows loaded are left out of the actions */
	bool (*is_loaded)(const char *name, void *userdata);
	void *userdata;
};

extern const struct kmod_backend_ops kmod_backend_real;
extern const struct kmod_backend_ops kmod_backend_dry;

/* Why kmod_backend_open() failed, for a result: its refusals (inputs_check()) in words. */
const char *kmod_backend_strerror(int err);
int kmod_backend_open(struct kmod_backend **ret, const struct kmod_backend_ops *ops,
		      const struct sysroot *root, const char *osrelease);
void kmod_backend_close(struct kmod_backend *b);

/*
 * The options libkmod passes when it loads name (kmod_module_get_options), read through a
 * context of its own so that a modprobe.d file written during this run is seen. libkmod
 * appends the command line of the running kernel (/proc/cmdline, whatever the root).
 */
int kmod_backend_options(const struct sysroot *root, const char *osrelease, const char *name,
			 char **ret);
