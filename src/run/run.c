// SPDX-License-Identifier: GPL-2.0-or-later
#include <assert.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/record.h"
#include "run/run.h"

/* Module i of the run's table. */
#define MOD(run, i) ((run)->modules->v[i])

#define CMDLINE_MAX (64 * 1024)

/* "none [integrity] confidentiality" → "integrity" */
static char *lockdown_word(const char *line)
{
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;

	return close ? strndup(open + 1, close - open - 1) : NULL;
}

static int read_host_file(const struct sysroot *root, enum sysroot_top top, const char *rel,
			  char **ret)
{
	_cleanup_(freep) char *path = sysroot_path(root, top, "%s", rel);
	int r;

	if (!path)
		return -ENOMEM;
	r = sysroot_read_attr(root, top, ret, "%s", rel);
	if (r < 0 && r != -ENOENT)
		log_debug_errno(r, "Failed to read %s: %m", path);
	return r;
}

static int host_scan(const struct sysroot *root, struct host_info *h)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_PROC, "cmdline");
	_cleanup_(freep) char *cmdline = NULL, *lockdown = NULL;
	int r;

	if (!path)
		return -ENOMEM;
	r = sysroot_read_file(root, SYSROOT_PROC, CMDLINE_MAX, &cmdline, NULL, "cmdline");
	if (r < 0)
		log_warning_errno(r, "Failed to read %s, assuming an empty command line: %m", path);
	r = cmdline_parse(cmdline ? cmdline : "", &h->cmdline);
	if (r < 0)
		return r;
	(void)read_host_file(root, SYSROOT_PROC, "sys/kernel/osrelease", &h->osrelease);
	(void)read_host_file(root, SYSROOT_PROC, "sys/kernel/hostname", &h->hostname);
	if (read_host_file(root, SYSROOT_SYS, "kernel/security/lockdown", &lockdown) >= 0)
		h->lockdown = lockdown_word(lockdown);
	return 0;
}

static void host_done(struct host_info *h)
{
	cmdline_done(&h->cmdline);
	free(h->osrelease);
	free(h->hostname);
	free(h->lockdown);
}

int run_init(struct run *run, const struct run_table *modules, const struct sysroot *root,
	     const struct config *cfg, enum run_mode mode, bool privileged)
{
	*run = (struct run){ .modules = modules,
			     .root = root,
			     .cfg = cfg,
			     .mode = mode,
			     .privileged = privileged,
			     .lock_fd = -1 };
	return 0;
}

void run_revert_incomplete(struct run *run)
{
	run->revert_incomplete = true;
}

void *run_state(const struct run *run, const struct run_module *m)
{
	for (size_t i = 0; i < run->modules->n; i++)
		if (MOD(run, i) == m)
			return run->state[i];
	return NULL;
}

static int states_alloc(struct run *run)
{
	for (size_t i = 0; i < run->modules->n; i++) {
		if (!MOD(run, i)->state_size || run->state[i])
			continue;
		run->state[i] = calloc(1, MOD(run, i)->state_size);
		if (!run->state[i])
			return -ENOMEM;
	}
	return 0;
}

void *run_service(struct run *run, const struct run_service *s)
{
	size_t i;

	for (i = 0; i < RUN_SERVICES_MAX && run->services[i].s; i++)
		if (run->services[i].s == s)
			return run->services[i].state;
	assert(i < RUN_SERVICES_MAX);
	run->services[i].state = calloc(1, s->size);
	if (!run->services[i].state)
		return NULL;
	run->services[i].s = s;
	return run->services[i].state;
}

void *run_service_peek(const struct run *run, const struct run_service *s)
{
	for (size_t i = 0; i < RUN_SERVICES_MAX && run->services[i].s; i++)
		if (run->services[i].s == s)
			return run->services[i].state;
	return NULL;
}

/* What the services built stands for a host that is no more: built again on next use. */
static void services_drop(struct run *run)
{
	for (size_t i = 0; i < RUN_SERVICES_MAX && run->services[i].s; i++) {
		if (run->services[i].s->done)
			run->services[i].s->done(run->services[i].state);
		free(run->services[i].state);
		run->services[i].s = NULL;
		run->services[i].state = NULL;
	}
}

static void pci_release(struct run *run)
{
	pci_inventory_done(&run->pci_inv);
	pcib_close(run->pci);
	run->pci = NULL;
}

struct pci_wants {
	const struct run *run;
	bool want[RUN_MODULES_MAX];
};

static unsigned pci_wants_caps(const struct pci_dev_info *info, void *userdata)
{
	const struct pci_wants *w = userdata;
	unsigned want = 0;

	for (size_t i = 0; i < w->run->modules->n; i++)
		if (w->want[i] && MOD(w->run, i)->pci_wants_caps)
			want |= MOD(w->run, i)->pci_wants_caps(w->run, info);
	return want;
}

/*
 * Read the PCI inventory (again) if a module wants it. A failure is not the run's: it is
 * kept in pci_err for the modules to report; only ENOMEM fails the run.
 */
static int pci_scan(struct run *run)
{
	struct pci_wants w = { .run = run };
	bool any = false;
	int r;

	for (size_t i = 0; i < run->modules->n; i++) {
		w.want[i] = run_has_module(run, i) && MOD(run, i)->wants_pci &&
			    MOD(run, i)->wants_pci(run);
		any |= w.want[i];
	}
	if (!any)
		return 0;
	services_drop(run);
	pci_release(run);
	run->pci_scans++;
	run->pci_stale = false;
	r = pcib_open(&run->pci, run->root);
	if (r >= 0)
		r = pcib_scan_caps(run->pci, &run->pci_inv, pci_wants_caps, &w);
	if (r == -ENOMEM)
		return r;
	run->pci_err = r < 0 ? r : 0;
	log_debug("PCI inventory: %zu functions (read %u of this run).", run->pci_inv.n,
		  run->pci_scans);
	return 0;
}

static int pci_refresh(struct run *run)
{
	return run->pci_stale ? pci_scan(run) : 0;
}

void run_pci_changed(struct run *run)
{
	run->pci_stale = true;
}

void run_done(struct run *run)
{
	for (size_t i = 0; i < run->modules->n; i++)
		if (MOD(run, i)->done && (run->state[i] || !MOD(run, i)->state_size))
			MOD(run, i)->done(run);
	for (size_t i = 0; i < run->modules->n; i++) {
		free(run->state[i]);
		run->state[i] = NULL;
	}
	services_drop(run);
	pci_release(run);
	host_done(&run->host);
	results_done(&run->results);
	facts_done(&run->facts);
	closep(&run->lock_fd);
	run->lock_fd = -1;
}

bool run_writes(const struct run *run)
{
	return run->mode == RUN_REVERT || (run->mode == RUN_APPLY && run->cfg->apply);
}

/* Whether module i takes part in this run (all of them, or run->only). */
bool run_has_module(const struct run *run, size_t i)
{
	return !run->only || MOD(run, i) == run->only;
}

#define FOR_EACH_STEP(step)                                                   \
	for (size_t i = 0; i < run->modules->n; i++) {                        \
		int _r;                                                       \
		if (!MOD(run, i)->step || skip[i] || !run_has_module(run, i)) \
			continue;                                             \
		_r = MOD(run, i)->step(run);                                  \
		if (_r < 0)                                                   \
			return _r;                                            \
	}

/*
 * revert must not depend on the policy: a config whose rules cannot work on this host
 * (-EINVAL, logged with file:line by the planner) leaves that module unevaluated
 * ("unknown") instead of swallowing what revert did.
 */
static int plan_for_revert(struct run *run, size_t i, bool *skip)
{
	const struct run_module *const *modules = run->modules->v;
	int r = modules[i]->plan(run);

	if (r != -EINVAL)
		return r;
	*skip = true;
	return results_add(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_UNKNOWN,
			.check = modules[i]->name,
			.object = "config",
			.expected = "rules that agree on this host",
			.actual = "not evaluated: the configured rules conflict on this host (see "
				  "the error above); the revert itself does not depend on them",
			.remedy =
				"narrow a Select= or add an Exclude= (hostprep config --validate)",
			.action = ACTION_CONFIG,
		});
}

static int run_plan(struct run *run, bool *skip)
{
	for (size_t i = 0; i < run->modules->n; i++) {
		int r;

		if (!MOD(run, i)->plan || !run_has_module(run, i))
			continue;
		r = run->mode == RUN_REVERT ? plan_for_revert(run, i, &skip[i])
					    : MOD(run, i)->plan(run);
		if (r < 0)
			return r;
	}
	return 0;
}

static int run_steps(struct run *run)
{
	bool skip[RUN_MODULES_MAX] = {};
	int r;

	r = pci_scan(run);
	if (r < 0)
		return r;
	FOR_EACH_STEP (scan)
		;
	/* revert re-scans what it wrote; the plan then says what the host looks like now. */
	if (run->mode == RUN_REVERT) {
		FOR_EACH_STEP (revert)
			;
		services_drop(run);
		r = pci_refresh(run);
		if (r < 0)
			return r;
	}
	r = run_plan(run, skip);
	if (r < 0)
		return r;
	if (run->mode == RUN_DRY_RUN)
		return 0;
	if (run_writes(run) && run->mode == RUN_APPLY) {
		FOR_EACH_STEP (apply)
			;
		services_drop(run);
		/* verify what the hardware says now, not what we meant */
		r = pci_refresh(run);
		if (r < 0)
			return r;
	}
	r = run_wait(run);
	if (r < 0)
		return r;
	FOR_EACH_STEP (verify)
		;
	return 0;
}

int run_print_plan(const struct run *run, FILE *f, struct json_object *doc)
{
	for (size_t i = 0; i < run->modules->n; i++) {
		int r;

		if (!MOD(run, i)->print_plan || !run_has_module(run, i))
			continue;
		r = MOD(run, i)->print_plan(run, f, doc);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Write text to <root>/run/DIR/NAME, or remove it (text NULL, or the write failed). */
static int publish_file(const struct sysroot *root, const char *name, const char *text)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, "%s", name);
	const char *base = strrchr(name, '/');
	_cleanup_(closep) int dfd = -1;
	int r = 0, k;

	if (!path)
		return -ENOMEM;
	if (!base)
		return -EINVAL; /* "DIR/NAME" (struct run_module.publish_file) */
	if (text) {
		dfd = sysroot_mkdirs(root, SYSROOT_RUN, 0755, "%.*s", (int)(base - name), name);
		r = dfd < 0 ? dfd
			    : write_file_atomic_at(dfd, base + 1, text, strlen(text), 0644,
						   WRITE_VOLATILE);
		if (r >= 0)
			return 0;
		log_warning_errno(r, "Failed to write %s, removing it: %m", path);
	}
	k = sysroot_unlink(root, SYSROOT_RUN, "%s", name);
	if (k < 0 && k != -ENOENT)
		log_warning_errno(k, "Failed to remove %s, ignoring: %m", path);
	return r == -ENOMEM ? r : 0;
}

static int module_file(struct run *run, const struct run_module *m, bool pending)
{
	_cleanup_(freep) char *text = NULL;
	int r = 0;

	if (!pending)
		r = m->publish(run, &text);
	else if (m->publish_pending)
		r = m->publish_pending(run, &text);
	if (r == -ENOMEM || r == RUN_PUBLISH_KEEP)
		return r < 0 ? r : 0;
	if (r < 0) {
		log_warning_errno(r, "Failed to make %s, removing it: %m", m->publish_file);
		free(TAKE_PTR(text));
	}
	return publish_file(run->root, m->publish_file, text);
}

int run_publish(struct run *run, bool pending)
{
	for (size_t i = 0; i < run->modules->n; i++) {
		int r;

		if (!MOD(run, i)->publish_file || !run_has_module(run, i))
			continue;
		r = module_file(run, MOD(run, i), pending);
		if (r < 0)
			return r;
	}
	return 0;
}

void run_unpublish(struct run *run)
{
	for (size_t i = 0; i < run->modules->n; i++)
		if (MOD(run, i)->publish_file)
			(void)publish_file(run->root, MOD(run, i)->publish_file, NULL);
}

int run_execute(struct run *run)
{
	int r;

	struct timespec ts;

	assert(run->modules->n <= RUN_MODULES_MAX);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	run->started_usec = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	/*
	 * A run that writes decides on what it reads: take the lock before the first read and
	 * keep it to the end, so an apply and a revert never interleave.
	 */
	if (run_writes(run) && run->lock_fd < 0) {
		r = record_lock(run->root, &run->lock_fd);
		if (r < 0)
			return r;
	}
	r = states_alloc(run);
	if (r < 0)
		return r;
	r = host_scan(run->root, &run->host);
	if (r < 0)
		return r;
	return run_steps(run);
}
