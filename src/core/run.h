/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/cmdline.h"
#include "core/config.h"
#include "iommu/iommu.h"
#include "kmod/kmod.h"
#include "pci/pci.h"
#include "acs/plan.h"
#include "core/result.h"
#include "core/sysroot.h"

/*
 * One run of the pipeline: scan (read-only inventory) → plan (pure) →
 * apply (the only writer) → verify (fresh reads) → results. Each hardware
 * kind is a module in the table in run.c; a new capability is a new module
 * with its state below, not edits across the pipeline.
 */
enum run_mode {
	RUN_CHECK,
	RUN_DRY_RUN,
	RUN_APPLY,
	RUN_REVERT,
};

struct rdma_run;
struct bond_run;
struct workload_run;

struct host_info {
	struct cmdline cmdline;
	char *osrelease;
	char *hostname;
	char *lockdown; /* the bracketed word of the lockdown LSM file, NULL without it */
};

struct run {
	const struct sysroot *root;
	const struct config *cfg;
	enum run_mode mode;
	struct host_info host;
	int lock_fd; /* the run lock, held from before the first read when the run writes */

	/* acs module */
	struct pci_backend *pci;
	struct pci_inventory pci_inv;
	int pci_err; /* why the PCI inventory is missing, 0 if present */
	struct plan plan;

	/* iommu module */
	struct iommu_state iommu;
	int iommu_err;

	struct kmod_run *kmod;	       /* kernel-module module: src/kmod/kmod-check.h */
	struct rdma_run *rdma;	       /* RDMA ports: src/rdma/ */
	struct bond_run *bond;	       /* Linux bonding: src/bond/ */
	struct workload_run *workload; /* pod/workload prerequisites: src/workload/ */
	uint64_t started_usec;	       /* CLOCK_MONOTONIC at run_execute, for [Host] Wait= */

	struct results results;
};

struct run_module {
	const char *name;
	int (*scan)(struct run *run);  /* read-only; failures become "unknown" results */
	int (*plan)(struct run *run);  /* pure; -EINVAL = the config cannot work on this host */
	int (*apply)(struct run *run); /* writes, then re-scans what it wrote */
	int (*revert)(struct run *run);
	int (*verify)(struct run *run);
	void (*done)(struct run *run);

	/*
	 * The boot wait (apply only, [Host] Wait=): run.c waits once for every module,
	 * woken by link and verbs events (src/core/linkwait.h), before the verify steps.
	 * wait_setup: 1 if the module has something to wait for; appends the RDMA device
	 * names whose async events matter to *rdma_devices (a strv) and may raise
	 * *recheck_usec (LACP). wait_ready: re-read; 1 up, 0 not yet with *status
	 * ("mlx5_0/1 (Polling)"). wait_done: the bound passed after waited_usec.
	 */
	int (*wait_setup)(struct run *run, char ***rdma_devices, uint64_t *recheck_usec);
	int (*wait_ready)(struct run *run, char **status);
	void (*wait_done)(struct run *run, uint64_t waited_usec);
};

int run_init(struct run *run, const struct sysroot *root, const struct config *cfg,
	     enum run_mode mode);
void run_done(struct run *run);
/*
 * The whole pipeline for run->mode; returns <0 on internal error, -EINVAL on plan conflicts
 * (not in revert: there a conflict is an "unknown" result). A run that writes takes the run
 * lock first and holds it until run_done().
 */
int run_execute(struct run *run);
/* apply: wait up to [Host] Wait= for what the modules wait for (src/core/run-wait.c). */
int run_wait(struct run *run);
/* Whether this run changes the host ([Host] Apply=yes and mode apply/revert). */
bool run_writes(const struct run *run);
