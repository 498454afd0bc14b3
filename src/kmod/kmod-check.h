/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "kmod/kmod-judge.h"
#include "kmod/kmod-scan.h"
#include "kmod/kmod-stack.h"
#include "kmod/kmod.h"

enum kmod_action_kind {
	KMOD_ACT_LOAD,
	KMOD_ACT_RELOAD,
	KMOD_ACT_PERSIST,
};

struct kmod_action {
	enum kmod_action_kind kind;
	size_t seen;   /* index into kmod_run.seen */
	char *options; /* "compat_mode=Y" */
	char *would;   /* what libkmod would run (dry run), "" when unknown; persist: what
			* already gives the values ("" none: hostprep.conf gets the line) */
	char *refused; /* reload: why it would be refused now ("" it would run) */
};

struct kmod_run {
	struct kmod_backend *backend;
	int backend_err;
	struct kmod_host host;
	struct kmod_seen *seen;
	size_t n_seen;
	struct kmod_stack stack; /* OFED on disk, the kernel's stack running */
	struct kmod_action *actions;
	size_t n_actions;
	const char *reloading; /* the module a dry reload pretends is unloaded */
	bool persist_applied;  /* apply wrote (or judged) the modprobe.d file: no check result */
};

int kmod_run_scan(struct kmod_run *k, const struct run *run);
int kmod_run_plan(struct kmod_run *k, const struct run *run);
int kmod_run_apply(struct kmod_run *k, struct run *run);
int kmod_run_verify(struct kmod_run *k, struct run *run);
/*
 * Whether apply loaded or reloaded a module (or tried to): a driver's probe or removal
 * adds or drops PCI functions (SR-IOV VFs at probe, all of them at unload), so the
 * run's PCI inventory and the device directories it holds open are read again.
 */
bool kmod_run_touched_kernel(const struct kmod_run *k);
int kmod_run_plan_print(const struct kmod_run *k, FILE *f);
/* The same actions for the dry-run document: [{"module","action","would"|"options"}]. */
struct json_object *kmod_run_plan_json(const struct kmod_run *k);
void kmod_run_free(struct kmod_run *k);

/*
 * Why a reload of s would be refused now: "in use by ..." (refcnt, holders, processes with
 * its devices open), or the network it would cut (kmod-net.h); "" when it would run.
 */
int kmod_reload_refusal(struct kmod_run *k, const struct sysroot *root, const struct kmod_seen *s,
			char **ret);
