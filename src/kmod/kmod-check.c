// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>

#include "core/fileio.h"
#include "kmod/kmod-check.h"
#include "kmod/kmod-persist.h"
#include "core/log.h"
#include "run/run.h"

/* ---- scan -------------------------------------------------------------- */

static void seen_free(struct kmod_run *k)
{
	for (size_t i = 0; i < k->n_seen; i++)
		kmod_seen_done(&k->seen[i]);
	free(k->seen);
	k->seen = NULL;
	k->n_seen = 0;
	kmod_host_done(&k->host);
	kmod_stack_done(&k->stack);
}

static void actions_free(struct kmod_run *k)
{
	for (size_t i = 0; i < k->n_actions; i++) {
		free(k->actions[i].options);
		free(k->actions[i].would);
		free(k->actions[i].refused);
	}
	free(k->actions);
	k->actions = NULL;
	k->n_actions = 0;
}

void kmod_run_free(struct kmod_run *k)
{
	if (!k)
		return;
	seen_free(k);
	actions_free(k);
	kmod_backend_close(k->backend);
	free(k);
}

/* A dry run leaves out what the tree shows loaded (libkmod would ask the real kernel). */
static bool tree_loaded(const char *name, void *userdata)
{
	struct kmod_run *k = userdata;
	char norm[KMOD_NAME_MAX + 1];

	if (kmod_name_normalize(name, norm) < 0)
		return false;
	if (k->reloading && streq(norm, k->reloading))
		return false;
	for (const char *p = k->host.proc_modules; p && *p;) {
		size_t len = strcspn(p, " \n");

		if (len == strlen(norm) && strneq(p, norm, len))
			return true;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return false;
}

static int open_backend(struct kmod_run *k, const struct run *run)
{
	/* The kernel under a fake tree is not the tree's: never load or unload there. */
	bool real = sysroot_is_host(run->root) && run->mode == RUN_APPLY;
	int r;

	if (k->backend || k->backend_err)
		return 0;
	r = kmod_backend_open(&k->backend, real ? &kmod_backend_real : &kmod_backend_dry, run->root,
			      run->host.osrelease);
	if (r == -ENOMEM)
		return r;
	k->backend_err = r < 0 ? r : 0;
	if (r == -EXDEV || r == -EBADFD) /* a refused input: named already */
		return 0;
	if (r < 0)
		log_warning_errno(r, "Failed to open the module index for %s: %m",
				  strempty(run->host.osrelease));
	else {
		k->backend->is_loaded = tree_loaded;
		k->backend->userdata = k;
	}
	return 0;
}

/* Some rule judges device nodes: the remedies need to know whether ib_uverbs/rdma_ucm run. */
static bool wants_nodes(const struct kmod_config *kc)
{
	for (size_t i = 0; i < kc->n_rules; i++)
		if (kc->rules[i].enabled.on && (kc->rules[i].devices.on || kc->rules[i].rdmacm.on))
			return true;
	return false;
}

int kmod_run_scan(struct kmod_run *k, const struct run *run)
{
	const struct kmod_config *kc = kmod_config_get(run->cfg);
	int r;

	seen_free(k);
	r = open_backend(k, run);
	if (r >= 0)
		r = kmod_host_scan(run->root, &k->host);
	if (r < 0)
		return r;
	k->seen = calloc(kc->n_rules + 1, sizeof(*k->seen));
	if (!k->seen)
		return -ENOMEM;
	for (size_t i = 0; i < kc->n_rules; i++) {
		if (!kc->rules[i].enabled.on)
			continue;
		r = kmod_seen_scan(run->root, k->backend, &k->host, &run->host.cmdline,
				   run->host.osrelease, &kc->rules[i], &k->seen[k->n_seen]);
		k->n_seen++; /* counted even when half-filled, so that it is freed */
		if (r >= 0)
			r = kmod_persist_scan(run, &k->seen[k->n_seen - 1]);
		if (r < 0)
			return r;
	}
	r = wants_nodes(kc) ? kmod_host_modules_scan(run->root, run->host.osrelease, &k->host) : 0;
	return r < 0 ? r : kmod_stack_scan(k, run);
}

/* ---- plan -------------------------------------------------------------- */

static int dry_actions(struct kmod_run *k, const char *name, const char *options, bool reload,
		       char **ret)
{
	_cleanup_(freep) char *probe = NULL;
	int r;

	if (!k->backend)
		return (*ret = strdup("")) ? 0 : -ENOMEM;
	k->reloading = reload ? name : NULL;
	r = kmod_backend_dry.probe(k->backend, name, options, &probe);
	k->reloading = NULL;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		r = asprintf(ret, "%s%s (libkmod: %s)", reload ? "rmmod; " : "", name,
			     strerror(-r));
	else if (reload)
		r = asprintf(ret, "rmmod %s; %s", name, probe);
	else
		r = (*ret = strdup(probe)) ? 0 : -1;
	return r < 0 ? -ENOMEM : 0;
}

static int action_add(struct kmod_run *k, const struct run *run, enum kmod_action_kind kind,
		      size_t seen)
{
	struct kmod_action *grown = reallocarray(k->actions, k->n_actions + 1, sizeof(*grown));
	struct kmod_action *a;
	const struct kmod_seen *s = &k->seen[seen];

	if (!grown)
		return -ENOMEM;
	k->actions = grown;
	a = &k->actions[k->n_actions++];
	*a = (struct kmod_action){ .kind = kind, .seen = seen };
	a->options = kmod_rule_params_string(s->rule);
	if (!a->options)
		return -ENOMEM;
	if (kind == KMOD_ACT_PERSIST) /* would: what already gives the values ("" nothing) */
		return (a->would = strdup(strempty(s->set_by))) ? 0 : -ENOMEM;
	if (kind == KMOD_ACT_RELOAD) {
		int r = kmod_reload_refusal(k, run->root, s, &a->refused);

		if (r < 0)
			return r;
	}
	return dry_actions(k, s->rule->name, a->options, kind == KMOD_ACT_RELOAD, &a->would);
}

int kmod_run_plan(struct kmod_run *k, const struct run *run)
{
	int r = 0;

	actions_free(k);
	for (size_t i = 0; r >= 0 && i < k->n_seen; i++) {
		const struct kmod_seen *s = &k->seen[i];

		if (s->rule->load.on && s->state == KS_NOT_LOADED && !s->deny_by)
			r = action_add(k, run, KMOD_ACT_LOAD, i);
		else if (kmod_reload_fixes(s))
			r = action_add(k, run, KMOD_ACT_RELOAD, i);
		if (r >= 0 && s->rule->persist.on)
			r = action_add(k, run, KMOD_ACT_PERSIST, i);
	}
	return r;
}

int kmod_run_plan_print(const struct kmod_run *k, FILE *f)
{
	fprintf(f, "modules: %zu action%s\n", k->n_actions, k->n_actions == 1 ? "" : "s");
	for (size_t i = 0; i < k->n_actions; i++) {
		const struct kmod_action *a = &k->actions[i];
		const char *name = k->seen[a->seen].rule->name;

		switch (a->kind) {
		case KMOD_ACT_LOAD:
			fprintf(f, "  load %s: %s\n", name, a->would);
			break;
		case KMOD_ACT_RELOAD:
			fprintf(f, "  reload %s when unused (Reload=unused): %s%s%s\n", name,
				a->would, a->refused && *a->refused ? " — refused now: " : "",
				a->refused ? a->refused : "");
			break;
		case KMOD_ACT_PERSIST:
			if (*a->would)
				fprintf(f,
					"  persist %s: nothing to write: the next load gets %s\n",
					name, a->would);
			else
				fprintf(f,
					"  persist %s: \"options %s %s\" in " PERSIST_FILE
					" (hostprep-owned; the original is recorded for revert)\n",
					name, name, a->options);
			break;
		}
	}
	return 0;
}

static const char *const action_names[] = {
	[KMOD_ACT_LOAD] = "load",
	[KMOD_ACT_RELOAD] = "reload",
	[KMOD_ACT_PERSIST] = "persist",
};

static struct json_object *action_json(const struct kmod_run *k, const struct kmod_action *a)
{
	struct json_object *o = json_object_new_object();
	const char *name = k->seen[a->seen].rule->name;
	bool persist = a->kind == KMOD_ACT_PERSIST;

	if (!o)
		return NULL;
	if (json_object_object_add(o, "module", json_object_new_string(name)) < 0 ||
	    json_object_object_add(o, "action", json_object_new_string(action_names[a->kind])) <
		    0 ||
	    json_object_object_add(
		    o, persist ? "options" : "would",
		    json_object_new_string(strempty(persist ? a->options : a->would))) < 0) {
		json_object_put(o);
		return NULL;
	}
	if (((persist && *a->would &&
	      json_object_object_add(o, "set_by", json_object_new_string(a->would)) < 0)) ||
	    (a->refused && *a->refused &&
	     json_object_object_add(o, "refused", json_object_new_string(a->refused)) < 0)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *kmod_run_plan_json(const struct kmod_run *k)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < k->n_actions; i++) {
		struct json_object *o = action_json(k, &k->actions[i]);

		if (!o || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}
