// SPDX-License-Identifier: GPL-2.0-or-later
#include "kmod/kmod-judge.h"
#include "kmod/kmod-stack.h"

/* asprintf(3) into *ret: 0, or -ENOMEM. */
#define asprintf_ret(ret, ...) (asprintf((ret), __VA_ARGS__) < 0 ? -ENOMEM : 0)

/* ---- module.state, module.param, users ---------------------------------- */

enum verdict kmod_state_verdict(const struct kmod_seen *s)
{
	if (kmod_state_present(s->state))
		return VERDICT_PASS;
	if (!s->rule->require.on)
		return VERDICT_SKIP;
	return s->state == KS_UNKNOWN ? VERDICT_UNKNOWN : VERDICT_FAIL;
}

bool param_declared(const struct kmod_seen *s, const char *key)
{
	return s->file_err == 0 && kmod_file_info_parm(&s->file, key) >= 0;
}

const char *param_type(const struct kmod_seen *s, const char *key)
{
	int i = s->file_err == 0 ? kmod_file_info_parm(&s->file, key) : -1;

	return i >= 0 ? s->file.parm_types[i] : NULL;
}

bool param_ok(const struct kmod_seen *s, size_t i)
{
	const struct kmod_param_want *w = &s->rule->params[i];

	return s->param_have[i] &&
	       kmod_param_equal(param_type(s, w->key), s->param_have[i], w->value);
}

enum kmod_param_judgement kmod_param_judge(const struct kmod_seen *s, size_t i)
{
	const struct kmod_param_want *w = &s->rule->params[i];

	if (!kmod_state_present(s->state))
		return KP_NOT_LOADED;
	/* A builtin module shows only the parameters it has; a live one every declared one. */
	if (!s->param_have[i] && (!param_declared(s, w->key) || s->state == KS_BUILTIN))
		return KP_MISSING;
	if (!s->param_have[i])
		return KP_UNREADABLE;
	return param_ok(s, i) ? KP_OK : KP_WRONG;
}

bool kmod_reload_fixes(const struct kmod_seen *s)
{
	bool wrong = false;

	if (s->state != KS_LIVE || s->rule->reload != KMOD_RELOAD_UNUSED)
		return false;
	for (size_t i = 0; i < s->rule->n_params; i++) {
		if (param_ok(s, i))
			continue;
		if (!param_declared(s, s->rule->params[i].key))
			return false;
		wrong = true;
	}
	return wrong;
}

static bool dev_of(const struct kmod_host *h, const char *module, const char *node_base)
{
	for (size_t i = 0; i < h->n_devs; i++)
		if (kmod_rdma_dev_of(&h->devs[i], module) && h->devs[i].uverbs &&
		    streq(h->devs[i].uverbs, node_base))
			return true;
	return false;
}

char *kmod_users_describe(const struct kmod_host *h, const struct kmod_seen *s)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	const char *sep = "";

	if (!f)
		return NULL;
	if (s->refcnt > 0) {
		fprintf(f, "refcnt %ld", s->refcnt);
		sep = ", ";
	}
	if (s->holders && *s->holders) {
		fprintf(f, "%sholders %s", sep, s->holders);
		sep = ", ";
	}
	for (size_t i = 0; i < h->n_users; i++) {
		const char *slash = strrchr(h->users[i].node, '/');

		if (!dev_of(h, s->rule->name, slash ? slash + 1 : h->users[i].node))
			continue;
		fprintf(f, "%spid %d (%s) holds %s", sep, h->users[i].pid, h->users[i].comm,
			h->users[i].node);
		sep = ", ";
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* ---- module.origin, module.version, gpudirect: remedies by what is on disk ---- */

/* The file modprobe would load is MLNX_OFED's: it depends on mlx_compat (or is it). */
bool kmod_file_is_ofed(const struct kmod_seen *s, const char *rel)
{
	return s->file_err == 0 &&
	       (kmod_list_has(s->file.depends, "mlx_compat") ||
		(streq(s->rule->name, "mlx_compat") && kmod_path_kind(rel) != KMOD_PATH_INBOX));
}

/* The file on disk already is the wanted origin: only what runs is wrong, a reload fixes it. */
int kmod_origin_remedy(const struct kmod_seen *s, const char *rel, enum kmod_origin want,
		       char **ret)
{
	const char *n = s->rule->name;
	bool ofed = kmod_file_is_ofed(s, rel);
	bool inbox = s->file_err == 0 && !ofed && kmod_path_kind(rel) == KMOD_PATH_INBOX;

	if (want == KMOD_ORIGIN_OFED && ofed)
		return asprintf_ret(
			ret,
			"the file on disk is OFED's (%s): reload the stack (/etc/init.d/openibd "
			"restart) or reboot; update the initramfs (update-initramfs -u) if boot "
			"loads another copy",
			rel);
	if (want == KMOD_ORIGIN_INBOX && inbox)
		return asprintf_ret(
			ret,
			"the file on disk is the kernel's own (%s): reload %s (modprobe -r %s "
			"&& modprobe %s) or reboot; update the initramfs (update-initramfs -u) "
			"if boot loads another copy",
			rel, n, n, n);
	if (want == KMOD_ORIGIN_OFED)
		return asprintf_ret(
			ret,
			"install MLNX_OFED's %s (DKMS) and reload the stack or reboot; "
			"update the initramfs (update-initramfs -u) so that boot loads the "
			"same copy",
			n);
	return asprintf_ret(
		ret,
		"remove the out-of-tree %s (e.g. the OFED/DKMS package), run depmod, then "
		"reload or reboot",
		n);
}

/*
 * What raises the version: a new MLNX_OFED, or only a reload when the file on disk already
 * has a good one (the running module is older than what is installed).
 */
const char *kmod_version_remedy(const struct kmod_seen *s, bool stack, bool live)
{
	bool file_ok = live && s->file_err == 0 && s->file.version &&
		       ofed_version_cmp(s->file.version, s->rule->min_version) >= 0;

	if (stack)
		return kmod_stack_see();
	if (file_ok)
		return "the file on disk has a good version: reload the stack (/etc/init.d/openibd "
		       "restart) or reboot; update the initramfs (update-initramfs -u) if boot "
		       "loads the old copy";
	if (!live || s->version)
		return "install MLNX_OFED >= the minimum, then reload the stack or reboot";
	return "install MLNX_OFED (its mlx5_core carries the version), then reload the stack or "
	       "reboot";
}

/* Only what is missing: never "load nvidia_peermem" when it is loaded, nor a kernel that is new. */
int kmod_gpudirect_remedy(const struct gpudirect_facts *g, enum gpudirect_expect e, char **ret)
{
	const char *peermem, *dmabuf;

	if (!g->peermem_live)
		peermem = "load nvidia_peermem (needs MLNX_OFED's peer-memory ib_core); see "
			  "journalctl -k for 'Invalid argument'";
	else
		peermem = "nvidia_peermem is loaded but not registered (no nv_mem in "
			  "the kernel's memory_peers): ib_core has no peer-memory support "
			  "(not MLNX_OFED's); install MLNX_OFED, then reload nvidia_peermem";
	if (g->nvidia != 1 && !g->kernel_ok)
		dmabuf = "install NVIDIA's open kernel module (nvidia-open) and a kernel >= 5.12";
	else if (g->nvidia != 1)
		dmabuf = "install NVIDIA's open kernel module (nvidia-open)";
	else
		dmabuf = "boot a kernel >= 5.12 (DMA-BUF)";
	if (e == GPUDIRECT_PEERMEM)
		return (*ret = strdup(peermem)) ? 0 : -ENOMEM;
	if (e == GPUDIRECT_DMABUF)
		return (*ret = strdup(dmabuf)) ? 0 : -ENOMEM;
	return asprintf(ret, "%s; or, for DMA-BUF, %s", peermem, dmabuf) < 0 ? -ENOMEM : 0;
}

/* ---- module.devices ----------------------------------------------------- */

void kmod_judgement_done(struct kmod_judgement *j)
{
	free(j->actual);
	free(j->remedy);
	*j = (struct kmod_judgement){};
}

const char *kmod_devices_expected(const struct kmod_rule *rule)
{
	if (rule->devices.on && rule->rdmacm.on)
		return "RDMA devices with uverbs nodes, and rdma_cm";
	if (rule->devices.on)
		return "RDMA devices with uverbs nodes";
	return "the rdma_cm node";
}

/* What the module's devices lack, counted into the three ways they can. */
struct dev_gaps {
	size_t n;	  /* devices driven by the module */
	size_t no_verbs;  /* ... with no uverbs device */
	size_t no_node;	  /* ... whose uverbs device has no /dev/infiniband node */
	FILE *no_verbs_f; /* their names, "mlx5_0, mlx5_1" */
	FILE *no_node_f;  /* the nodes' names, "uverbs0 ..." under dev/infiniband */
};

static void devices_list(const struct kmod_host *h, const char *module, FILE *actual,
			 struct dev_gaps *g)
{
	for (size_t i = 0; i < h->n_devs; i++) {
		const struct kmod_rdma_dev *d = &h->devs[i];

		if (!kmod_rdma_dev_of(d, module))
			continue;
		fprintf(actual, "%s%s (%s%s)", g->n++ ? ", " : "", d->name,
			d->uverbs ? d->uverbs : "no uverbs device",
			d->uverbs && !d->node ? ", node missing" : "");
		if (!d->uverbs)
			fprintf(g->no_verbs_f, "%s%s", g->no_verbs++ ? ", " : "", d->name);
		else if (!d->node)
			fprintf(g->no_node_f, "%s/dev/infiniband/%s", g->no_node++ ? ", " : "",
				d->uverbs);
	}
	if (g->n == 0)
		fputs("no RDMA device", actual);
}

static void remedy_sep(FILE *f, bool *first)
{
	if (!*first)
		fputs("; ", f);
	*first = false;
}

/* A module the devices need: loaded, not loaded, or cannot tell. */
static void need_module(FILE *f, bool *first, enum kmod_state st, const char *module,
			const char *loaded_but)
{
	remedy_sep(f, first);
	if (kmod_state_present(st))
		fputs(loaded_but, f);
	else if (st == KS_UNKNOWN)
		fprintf(f,
			"find out whether %s is loaded (lsmod): hostprep cannot read the module "
			"list",
			module);
	else
		fprintf(f, "load %s (modprobe %s, or [Module:%s] Load=yes)", module, module,
			module);
}

static void devices_remedy(const struct kmod_host *h, const struct kmod_rule *rule,
			   const struct dev_gaps *g, const char *no_verbs, const char *no_node,
			   FILE *f)
{
	_cleanup_(freep) char *busy = NULL;
	bool first = true;

	if (rule->devices.on && g->n == 0) {
		remedy_sep(f, &first);
		fprintf(f, "%s drives no RDMA device: read its probe errors (journalctl -k)",
			rule->name);
	}
	if (rule->devices.on && g->no_verbs &&
	    asprintf(&busy,
		     "ib_uverbs is loaded but made no uverbs device for %s: read journalctl -k "
		     "(the driver may offer no user verbs)",
		     no_verbs) >= 0)
		need_module(f, &first, h->uverbs_state, "ib_uverbs", busy);
	if (rule->devices.on && g->no_node) {
		remedy_sep(f, &first);
		fprintf(f,
			"%s: registered by the kernel but missing in /dev (/dev is not devtmpfs "
			"here, or udev removed it): udevadm trigger --action=add "
			"--subsystem-match=infiniband_verbs",
			no_node);
	}
	if (rule->rdmacm.on && !h->rdma_cm_node)
		need_module(
			f, &first, h->ucm_state, "rdma_ucm",
			"rdma_ucm is loaded but /dev/infiniband/rdma_cm is missing (/dev is not "
			"devtmpfs here, or udev removed it): udevadm trigger --action=add "
			"--subsystem-match=misc");
}

static int gaps_open(struct dev_gaps *g, char **no_verbs, char **no_node)
{
	size_t a, b;

	*g = (struct dev_gaps){};
	g->no_verbs_f = open_memstream(no_verbs, &a);
	g->no_node_f = open_memstream(no_node, &b);
	return g->no_verbs_f && g->no_node_f ? 0 : -ENOMEM;
}

static int gaps_close(struct dev_gaps *g)
{
	int r = 0;

	if (g->no_verbs_f && fclose(g->no_verbs_f) != 0)
		r = -ENOMEM;
	if (g->no_node_f && fclose(g->no_node_f) != 0)
		r = -ENOMEM;
	g->no_verbs_f = g->no_node_f = NULL;
	return r;
}

static int memstream_done(FILE *f, char **buf)
{
	if (fclose(f) != 0 || !*buf)
		return -ENOMEM;
	return 0;
}

int kmod_devices_judge(const struct kmod_host *h, const struct kmod_rule *rule,
		       struct kmod_judgement *ret)
{
	_cleanup_(freep) char *no_verbs = NULL, *no_node = NULL;
	size_t asize = 0, rsize = 0;
	struct dev_gaps g;
	FILE *actual, *remedy;
	bool ok;
	int r;

	*ret = (struct kmod_judgement){ .expected = kmod_devices_expected(rule) };
	r = gaps_open(&g, &no_verbs, &no_node);
	actual = open_memstream(&ret->actual, &asize);
	if (r < 0 || !actual) {
		if (actual)
			fclose(actual);
		gaps_close(&g);
		return -ENOMEM;
	}
	if (rule->devices.on)
		devices_list(h, rule->name, actual, &g);
	if (rule->rdmacm.on)
		fprintf(actual, "%s%s", rule->devices.on ? "; " : "",
			h->rdma_cm_node ? "rdma_cm node present" : "no rdma_cm node");
	if (gaps_close(&g) < 0 || memstream_done(actual, &ret->actual) < 0)
		return -ENOMEM;
	ok = (!rule->devices.on || (g.n && !g.no_verbs && !g.no_node)) &&
	     (!rule->rdmacm.on || h->rdma_cm_node);
	ret->verdict = ok ? VERDICT_PASS : VERDICT_FAIL;
	if (ok)
		return 0;
	remedy = open_memstream(&ret->remedy, &rsize);
	if (!remedy)
		return -ENOMEM;
	devices_remedy(h, rule, &g, no_verbs, no_node, remedy);
	return memstream_done(remedy, &ret->remedy);
}

/* ---- Persist=yes: what libkmod will pass -------------------------------- */

bool modprobe_opt_from_hostprep(const struct modprobe_opt *o)
{
	static const char tail[] = "/modprobe.d/hostprep.conf";
	const size_t t = sizeof(tail) - 1;
	const char *colon = strrchr(o->where, ':');

	/* "DIR/modprobe.d/hostprep.conf:LINE": the kernel command line is never one */
	return o->where[0] == '/' && colon && (size_t)(colon - o->where) >= t &&
	       strneq(colon - t, tail, t);
}

void persist_key_judge(const struct modprobe_eval *e, bool without_hostprep, const char *key,
		       const char *type, const char *want, struct persist_key *ret)
{
	*ret = (struct persist_key){ .hold = PERSIST_ABSENT };
	for (size_t i = e->n_opts; i > 0; i--) {
		const struct modprobe_opt *o = &e->opts[i - 1];

		if (!streq(o->key, key) || (without_hostprep && modprobe_opt_from_hostprep(o)))
			continue;
		ret->by = o;
		ret->by_hostprep = modprobe_opt_from_hostprep(o);
		ret->hold = kmod_param_value_gives(type, o->value, want) ? PERSIST_GIVES
									 : PERSIST_DIFFERS;
		return;
	}
}

int persist_set_elsewhere(const struct modprobe_eval *e, const struct kmod_rule *rule,
			  const char *const *types, char **ret)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f;

	*ret = NULL;
	if (e->unreadable || rule->n_params == 0)
		return 0; /* unknown, or nothing to give: the line stays hostprep's */
	f = open_memstream(&out, &size);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < rule->n_params; i++) {
		const struct kmod_param_want *w = &rule->params[i];
		struct persist_key k;

		persist_key_judge(e, true, w->key, types ? types[i] : NULL, w->value, &k);
		if (k.hold != PERSIST_GIVES) {
			fclose(f);
			free(out);
			return 0;
		}
		fprintf(f, "%s%s%s%s from %s", i ? ", " : "", w->key, k.by->value ? "=" : "",
			strempty(k.by->value), k.by->where);
	}
	if (fclose(f) != 0 || !out)
		return -ENOMEM;
	*ret = out;
	return 0;
}

bool persist_oracle_agrees(bool host, const struct modprobe_eval *e, const char *libkmod)
{
	size_t n = strlen(e->files_options);

	if (host)
		return streq(libkmod, e->options);
	return strneq(libkmod, e->files_options, n) && (!n || !libkmod[n] || libkmod[n] == ' ');
}

int persist_libkmod_gives(const char *libkmod, const char *key, const char *type, const char *want,
			  char **ret_value)
{
	_cleanup_(modprobe_eval_done) struct modprobe_eval e = {};
	const struct modprobe_opt *o;
	int r;

	*ret_value = NULL;
	r = modprobe_options_eval(libkmod, &e);
	if (r < 0)
		return r;
	o = modprobe_eval_last(&e, key);
	if (!o)
		return 0;
	*ret_value = strdup(o->value ? o->value : "");
	if (!*ret_value)
		return -ENOMEM;
	return kmod_param_value_gives(type, o->value, want);
}
