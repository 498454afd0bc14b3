/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/cmdline.h"
#include "run/config.h"
#include "core/result.h"
#include "core/sysroot.h"
#include "pci/pci.h"

/*
 * One run of the pipeline: scan (read-only inventory) → plan (pure) →
 * apply (the only writer) → verify (fresh reads) → results. Each hardware
 * kind is a module in the table the run is handed (struct run_table: src/modules.c's, or
 * a test's stub); a new capability is a new module that declares the size of its state
 * (struct run_module.state_size), not edits across the pipeline: the run knows no
 * module's state, and no table but the one it was given.
 */
enum run_mode {
	RUN_CHECK,
	RUN_DRY_RUN,
	RUN_APPLY,
	RUN_REVERT,
};

#define RUN_MODULES_MAX	 32
#define RUN_SERVICES_MAX 8
#define RUN_PUBLISH_KEEP 1 /* struct run_module.publish: no content from this run, keep */

struct json_object;
struct linkwait_sources;
struct run_module;

/*
 * A view of the host that several modules read (the topology's endpoints, ...), owned by
 * the folder that builds it: the run keeps its state (size zeroed bytes, allocated on
 * first use: run_service()) and drops it (done(), which releases what the state points to,
 * then free) when the PCI inventory is read again or a write step (apply, revert) ran, so
 * it is built once per state of the host, like the PCI inventory.
 */
struct run_service {
	const char *name;
	size_t size;
	void (*done)(void *state);
};

/* The modules of a run, in report order (at most RUN_MODULES_MAX). */
struct run_table {
	const struct run_module *const *v;
	size_t n;
};

/*
 * What the run tells the service manager while it waits ([Host] Wait=): the command
 * layer's sinks, handed down so the pipeline names none. NULL (or a NULL hook): nothing.
 * status: "waiting for mlx5_0/1 (Polling)"; extend_timeout: the wait may last usec more.
 */
struct run_notify {
	void (*status)(const char *status);
	void (*extend_timeout)(uint64_t usec);
};

struct host_info {
	struct cmdline cmdline;
	char *osrelease;
	char *hostname;
	char *lockdown; /* the bracketed word of the lockdown LSM file, NULL without it */
};

struct run {
	const struct run_table *modules;
	const struct run_notify *notify;
	const struct sysroot *root;
	const struct config *cfg;
	enum run_mode mode;
	/*
	 * Decided once by the command layer and only read here and by the modules: whether
	 * the process is privileged (euid 0: cli_set_privilege()), and whether this run
	 * publishes its verdict (the report, the [Sinks] files and the modules' files:
	 * src/cli/run-publish.c). No module asks the kernel or decides either itself.
	 */
	bool privileged;
	bool publishes;
	bool revert_incomplete; /* a revert step left something recorded but not restored */
	struct host_info host;
	/*
	 * The run lock: held from before the first read to after the publish when the run
	 * writes; a run that only reads and publishes keeps it open but unlocked between
	 * glances (run-publish.c), lock_gen the generation it saw first.
	 */
	int lock_fd;
	uint64_t lock_gen;
	uint64_t started_usec; /* CLOCK_MONOTONIC at run_execute, for [Host] Wait= */

	/*
	 * The PCI inventory, one per run, shared by the modules: scanned before the scan steps
	 * when some module wants it (struct run_module.wants_pci), refreshed once after the
	 * apply or revert steps when one of them wrote to PCI devices (run_pci_changed()).
	 * Readers load the capabilities they need with pcib_load_caps(run->pci, ...).
	 */
	struct pci_backend *pci;
	struct pci_inventory pci_inv;
	int pci_err;	    /* why the PCI inventory is missing, 0 if present (or not wanted) */
	unsigned pci_scans; /* how many times it was read: a reader's cue to load caps again */
	bool pci_stale;	    /* a step wrote to PCI devices since the last read */

	/*
	 * NULL: every module of the table; else only this one takes part (its scan, plan
	 * and the rest): a capability's own command that needs its module's view of the host
	 * (`acs cmdline`: the ACS plan), without reading what the other modules read.
	 */
	const struct run_module *only;

	/* each module's state, state_size zeroed bytes (NULL for 0), by table index */
	void *state[RUN_MODULES_MAX];
	/* the services in use, in order of first use (struct run_service) */
	struct {
		const struct run_service *s;
		void *state;
	} services[RUN_SERVICES_MAX];

	struct results results;
	/*
	 * What the host is (core/fact.h), set by the modules that read it (src/facts/), moved
	 * into the report with the results; only the Prometheus and NFD sinks publish them.
	 */
	struct facts facts;
};

struct run_module {
	const char *name;
	/*
	 * The bytes of state the run allocates (zeroed, before the first step) and frees
	 * (after done()) for this module; the module reaches it with run_state(). 0: none.
	 */
	size_t state_size;
	/*
	 * The shared PCI inventory: wants_pci, whether this run needs it (it is read once if
	 * any module says so); pci_wants_caps, which functions' capabilities to read during
	 * that scan, while their config is open (PCI_WANT_SELF, PCI_WANT_ABOVE: pcib_scan_caps()).
	 */
	bool (*wants_pci)(const struct run *run);
	unsigned (*pci_wants_caps)(const struct run *run, const struct pci_dev_info *info);
	int (*scan)(struct run *run);  /* read-only; failures become "unknown" results */
	int (*plan)(struct run *run);  /* pure; -EINVAL = the config cannot work on this host */
	int (*apply)(struct run *run); /* writes, then re-scans what it wrote */
	int (*revert)(struct run *run);
	int (*verify)(struct run *run);
	/*
	 * The file a module leaves for other programs, below /run (publish_file:
	 * "hostprep/rdma.env"). The module gives its content, nothing else: the command layer
	 * decides which runs publish and writes it with every other artifact of the verdict
	 * (run_publish(), src/cli/run-publish.c). publish: the content for this run, after
	 * the verify steps (*ret malloc'd; NULL: none, an earlier file is removed), or
	 * RUN_PUBLISH_KEEP: this kind of run does not read what the file says (gpus.json: a
	 * check reads only what its rules need), the last one stays; publish_pending: the
	 * content while no verdict stands (a run that writes is in progress, or failed), from
	 * the config only (NULL hook or *ret: removed). <0: the file is removed, only -ENOMEM
	 * fails the run.
	 */
	const char *publish_file;
	int (*publish)(struct run *run, char **ret);
	int (*publish_pending)(const struct run *run, char **ret);
	/*
	 * apply --dry-run (and apply with Apply=no, as text): what the module would do. doc
	 * NULL: lines to f; else the module adds its members to the dry-run JSON document
	 * (an object; docs/report-schema.md), in table order. <0: ENOMEM.
	 */
	int (*print_plan)(const struct run *run, FILE *f, struct json_object *doc);
	void (*done)(struct run *run);

	/*
	 * The boot wait (apply only, [Host] Wait=): run.c waits once for every module,
	 * woken by link events and the modules' own event sources (src/run/linkwait.h),
	 * before the verify steps. wait_setup: 1 if the module has something to wait for;
	 * may append event sources to *sources (NULL: no time left for events, one check)
	 * and raise *recheck_usec (LACP). wait_ready: re-read; 1 up, 0 not yet with *status
	 * ("mlx5_0/1 (Polling)"). wait_done: the wait ended after waited_usec, everything
	 * up or (timed_out) the bound passed: re-read what came up, for the verify steps.
	 */
	int (*wait_setup)(struct run *run, struct linkwait_sources *sources,
			  uint64_t *recheck_usec);
	int (*wait_ready)(struct run *run, char **status);
	int (*wait_done)(struct run *run, uint64_t waited_usec, bool timed_out);
};

/*
 * The state of module m in this run (struct run_module.state_size zeroed bytes), NULL
 * when it declares none or before run_execute() allocated it. Modules wrap it typed.
 */
void *run_state(const struct run *run, const struct run_module *m);
/*
 * The state of service s in this run, size zeroed bytes on the first call after the run
 * started or dropped it (the owner builds it then); NULL when out of memory.
 */
void *run_service(struct run *run, const struct run_service *s);
/* The state of service s when a reader of this run built it already, else NULL: no read. */
void *run_service_peek(const struct run *run, const struct run_service *s);
/* Whether the module at index i of run->modules takes part in this run (see .only). */
bool run_has_module(const struct run *run, size_t i);

/*
 * modules: the table this run drives (kept, not copied); privileged: the command layer's
 * fact (struct run.privileged); publishes starts false, notify NULL.
 */
int run_init(struct run *run, const struct run_table *modules, const struct sysroot *root,
	     const struct config *cfg, enum run_mode mode, bool privileged);
void run_done(struct run *run);
/*
 * The whole pipeline for run->mode; returns <0 on internal error, -EINVAL on plan conflicts
 * (not in revert: there a conflict is an "unknown" result). A run that writes takes the run
 * lock first and holds it until run_done().
 */
int run_execute(struct run *run);
/*
 * A step wrote to PCI devices (ACS Control words): the inventory is read again once after
 * the apply (or revert) steps, before what follows judges it.
 */
void run_pci_changed(struct run *run);
/* Every module's print_plan hook, in table order (see struct run_module). */
int run_print_plan(const struct run *run, FILE *f, struct json_object *doc);
/*
 * Every module's file (struct run_module.publish_file), in table order: its content for
 * this run, or while pending its not-ready form; written whole (atomic, 0644) or removed:
 * a file that cannot be written goes, so no stale one stays. Only the one publish step
 * (src/cli/run-publish.c) calls it. <0: -ENOMEM.
 */
int run_publish(struct run *run, bool pending);
/* Remove every module's file, declared in this run or not: a run that cannot publish. */
void run_unpublish(struct run *run);
/*
 * A module's revert step left something recorded that it did not put back: `revert`
 * exits 1. The module says so; nothing matches result names.
 */
void run_revert_incomplete(struct run *run);
/* apply: wait up to [Host] Wait= for what the modules wait for (src/run/run-wait.c). */
int run_wait(struct run *run);
/* Whether this run changes the host ([Host] Apply=yes and mode apply/revert). */
bool run_writes(const struct run *run);
