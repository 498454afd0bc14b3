// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-scan.h"
#include "core/log.h"

#define PROC_MODULES_MAX (4 * 1024 * 1024)
#define BUILTIN_MAX	 (4 * 1024 * 1024)
#define MODPROBE_MAX	 (256 * 1024)

/* ---- host-wide facts --------------------------------------------------- */

/* The module behind the device's driver link, NULL when none. */
static char *module_of(const struct sysroot *root, const char *name)
{
	char buf[4096];

	if (sysroot_readlink(root, SYSROOT_SYS, buf, sizeof(buf),
			     "class/infiniband/%s/device/driver/module", name) <= 0)
		return NULL;
	return strdup(basename(buf));
}

/* An auxiliary device an RDMA driver binds: "mlx5_core.rdma.0", "ice.roce.0", "i40e.iwarp.1". */
static int rdma_aux(const struct dirent *de)
{
	return strstr(de->d_name, ".rdma.") || strstr(de->d_name, ".roce.") ||
	       strstr(de->d_name, ".iwarp.");
}

/*
 * The module of the RDMA driver bound to the function's RDMA auxiliary device (kernels
 * with the auxiliary bus, 5.11+): mlx5_ib, bnxt_re, irdma register the IB device on the
 * PCI function that mlx5_core, bnxt_en, ice drive. NULL when there is none.
 */
static char *provider_of(const struct sysroot *root, const char *name)
{
	struct dirent **list = NULL;
	char buf[4096], *ret = NULL;
	int n;

	n = sysroot_scandir(root, SYSROOT_SYS, &list, rdma_aux, alphasort,
			    "class/infiniband/%s/device", name);
	for (int i = 0; i < n; i++) {
		if (!ret && sysroot_readlink(root, SYSROOT_SYS, buf, sizeof(buf),
					     "class/infiniband/%s/device/%s/driver/module", name,
					     list[i]->d_name) > 0)
			ret = strdup(basename(buf));
		free(list[i]);
	}
	free(list);
	return ret;
}

bool kmod_rdma_dev_of(const struct kmod_rdma_dev *d, const char *module)
{
	return (d->module && streq(d->module, module)) ||
	       (d->provider && streq(d->provider, module));
}

static int rdma_dev_add(const struct sysroot *root, struct kmod_host *h, const char *name)
{
	struct kmod_rdma_dev *grown;

	grown = reallocarray(h->devs, h->n_devs + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	h->devs = grown;
	h->devs[h->n_devs] = (struct kmod_rdma_dev){ .name = strdup(name),
						     .module = module_of(root, name),
						     .provider = provider_of(root, name) };
	return h->devs[h->n_devs++].name ? 0 : -ENOMEM;
}

static struct kmod_rdma_dev *rdma_dev_find(struct kmod_host *h, const char *name)
{
	for (size_t i = 0; i < h->n_devs; i++)
		if (streq(h->devs[i].name, name))
			return &h->devs[i];
	return NULL;
}

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/* In name order: devices are reported in a stable order. */
static int scan_class(const struct sysroot *root, const char *cls,
		      int (*fn)(const struct sysroot *, struct kmod_host *, const char *),
		      struct kmod_host *h)
{
	struct dirent **list = NULL;
	int n, r = 0;

	n = sysroot_scandir(root, SYSROOT_SYS, &list, not_dot, alphasort, "class/%s", cls);
	if (n < 0)
		return n == -ENOENT ? 0 : n;
	for (int i = 0; i < n; i++) {
		if (r >= 0)
			r = fn(root, h, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return r;
}

static int uverbs_add(const struct sysroot *root, struct kmod_host *h, const char *name)
{
	_cleanup_(freep) char *ibdev = NULL;
	struct kmod_rdma_dev *dev;
	int r;

	r = sysroot_read_attr(root, SYSROOT_SYS, &ibdev, "class/infiniband_verbs/%s/ibdev", name);
	if (r == -ENOMEM)
		return r;
	dev = r < 0 ? NULL : rdma_dev_find(h, ibdev);
	if (!dev)
		return 0;
	free(dev->uverbs);
	dev->uverbs = strdup(name);
	dev->node = sysroot_exists(root, SYSROOT_DEV, "infiniband/%s", name) > 0;
	return dev->uverbs ? 0 : -ENOMEM;
}

int kmod_host_scan(const struct sysroot *root, struct kmod_host *h)
{
	_cleanup_(freep) char *pm = sysroot_path(root, SYSROOT_PROC, "modules");
	int r;

	*h = (struct kmod_host){};
	if (!pm)
		return -ENOMEM;
	r = sysroot_read_file(root, SYSROOT_PROC, PROC_MODULES_MAX, &h->proc_modules, NULL,
			      "modules");
	if (r == -ENOMEM)
		return r;
	h->proc_modules_err = r < 0 ? r : 0;
	if (r < 0)
		log_debug_errno(r, "Failed to read %s: %m", pm);
	h->rdma_cm_node = sysroot_exists(root, SYSROOT_DEV, "infiniband/rdma_cm") > 0;
	r = scan_class(root, "infiniband", rdma_dev_add, h);
	if (r >= 0)
		r = scan_class(root, "infiniband_verbs", uverbs_add, h);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		log_debug_errno(r, "Failed to list RDMA devices: %m");
	return 0;
}

/* ---- users: /proc/PID/fd links to /dev/infiniband nodes ---------------- */

static int user_add(struct kmod_host *h, int pid, const char *comm, const char *node)
{
	struct kmod_user *grown = reallocarray(h->users, h->n_users + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	h->users = grown;
	h->users[h->n_users] = (struct kmod_user){ .pid = pid, .node = strdup(node) };
	snprintf(h->users[h->n_users].comm, sizeof(h->users[0].comm), "%s", comm);
	return h->users[h->n_users++].node ? 0 : -ENOMEM;
}

static int scan_pid(const struct sysroot *root, struct kmod_host *h, int pid, const char *prefix)
{
	_cleanup_(freep) char *comm = NULL;
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	char target[4096];
	int r;

	r = sysroot_opendir(root, SYSROOT_PROC, &d, "%d/fd", pid);
	if (r < 0)
		return r == -ENOMEM ? r : 0; /* gone, or not ours to look at */
	while ((de = readdir(d))) {
		/* the link's text: what the process opened, never followed */
		if (sysroot_readlink_at(root, dirfd(d), de->d_name, target, sizeof(target)) <= 0)
			continue;
		if (!strneq(target, prefix, strlen(prefix)))
			continue;
		if (!comm && sysroot_read_attr(root, SYSROOT_PROC, &comm, "%d/comm", pid) < 0 &&
		    !(comm = strdup("?")))
			return -ENOMEM;
		r = user_add(h, pid, comm, target);
		if (r < 0)
			return r;
	}
	return 0;
}

int kmod_host_scan_users(const struct sysroot *root, struct kmod_host *h)
{
	_cleanup_(freep) char *ib = sysroot_path(root, SYSROOT_DEV, "infiniband/");
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	int r;

	if (h->users_scanned)
		return 0;
	if (!ib)
		return -ENOMEM;
	h->users_scanned = true;
	r = sysroot_opendir(root, SYSROOT_PROC, &d, "%s", "");
	if (r < 0)
		return r;
	/* The link text is the path the process opened: the host's, without our root. */
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		r = scan_pid(root, h, atoi(de->d_name), sysroot_strip(root, ib));
		if (r < 0)
			return r;
	}
	return 0;
}

void kmod_host_done(struct kmod_host *h)
{
	free(h->proc_modules);
	for (size_t i = 0; i < h->n_devs; i++) {
		free(h->devs[i].name);
		free(h->devs[i].module);
		free(h->devs[i].provider);
		free(h->devs[i].uverbs);
	}
	free(h->devs);
	for (size_t i = 0; i < h->n_users; i++)
		free(h->users[i].node);
	free(h->users);
	*h = (struct kmod_host){};
}

char *kmod_dev_node_display(const struct sysroot *root, const char *node)
{
	_cleanup_(freep) char *p = sysroot_path(root, SYSROOT_DEV, "infiniband/%s", node);

	return p ? strdup(sysroot_strip(root, p)) : NULL;
}

/* ---- one module -------------------------------------------------------- */

/* The /proc/modules line of name; -ENOENT when not loaded. */
static int proc_modules_find(const char *text, const char *name, struct proc_module *ret)
{
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_(freep) char *line = strndup(p, len);

		if (!line)
			return -ENOMEM;
		p += len + (p[len] == '\n');
		if (proc_module_parse(line, ret) < 0)
			continue;
		if (streq(ret->name, name))
			return 0;
		proc_module_done(ret);
	}
	return -ENOENT;
}

static int sys_module_exists(const struct sysroot *root, const char *name)
{
	return sysroot_exists(root, SYSROOT_SYS, "module/%s", name);
}

static int builtin_listed(const struct sysroot *root, const char *osrelease, const char *name)
{
	_cleanup_(freep) char *text = NULL;
	int r;

	r = sysroot_read_file(root, SYSROOT_LIB_MODULES, BUILTIN_MAX, &text, NULL,
			      "%s/modules.builtin", osrelease);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	return modules_builtin_has(text, name);
}

/* Holders from /sys/module/NAME/holders/, "a,b" in name order (stable reports). */
static char *read_holders(const struct sysroot *root, const char *name)
{
	struct dirent **list = NULL;
	char *out = NULL;
	size_t size = 0;
	FILE *f;
	int n;

	f = open_memstream(&out, &size);
	if (!f)
		return NULL;
	n = sysroot_scandir(root, SYSROOT_SYS, &list, not_dot, alphasort, "module/%s/holders",
			    name);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s%s", i ? "," : "", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	fclose(f);
	return out;
}

static void take_proc(struct kmod_seen *s, struct proc_module *pm, const char *mlx_users)
{
	static const enum kmod_state map[] = {
		[KMOD_STATE_LIVE] = KS_LIVE,
		[KMOD_STATE_COMING] = KS_COMING,
		[KMOD_STATE_GOING] = KS_GOING,
	};

	s->state = map[pm->state];
	s->refcnt = pm->refcnt;
	memcpy(s->taint, pm->taint, sizeof(s->taint));
	s->ofed_dep = mlx_users && kmod_list_has(mlx_users, s->rule->name);
}

int kmod_sys_state(const struct sysroot *root, const char *name, enum kmod_live_state *ret)
{
	_cleanup_(freep) char *init = NULL;
	int r = sysroot_read_attr(root, SYSROOT_SYS, &init, "module/%s/initstate", name);

	if (r == -ENOMEM)
		return r;
	if (r < 0 || kmod_initstate_parse(init, ret) < 0)
		return -ENOENT;
	return 0;
}

/* Without /proc/modules: /sys/module/NAME/{initstate,refcnt,taint} say the same. */
static int scan_state_sys(const struct sysroot *root, const struct kmod_host *h,
			  struct kmod_seen *s)
{
	static const enum kmod_state map[] = {
		[KMOD_STATE_LIVE] = KS_LIVE,
		[KMOD_STATE_COMING] = KS_COMING,
		[KMOD_STATE_GOING] = KS_GOING,
	};
	_cleanup_(freep) char *refcnt = NULL, *taint = NULL;
	enum kmod_live_state ls;
	const char *n = s->rule->name;
	int r;

	r = kmod_sys_state(root, n, &ls);
	if (r < 0)
		return r;
	s->state = map[ls];
	if (sysroot_read_attr(root, SYSROOT_SYS, &refcnt, "module/%s/refcnt", n) >= 0)
		s->refcnt = strtol(refcnt, NULL, 10);
	if (sysroot_read_attr(root, SYSROOT_SYS, &taint, "module/%s/taint", n) >= 0)
		snprintf(s->taint, sizeof(s->taint), "%s", taint);
	return 0;
}

/* Builtin: /sys/module/NAME without initstate (it has parameters), or modules.builtin. */
static int scan_builtin(const struct sysroot *root, const char *osrelease, struct kmod_seen *s)
{
	int r = sys_module_exists(root, s->rule->name);

	if (r == 0)
		r = builtin_listed(root, osrelease, s->rule->name);
	if (r < 0)
		return r;
	return r;
}

/* Loaded or not, from /proc/modules (else /sys/module); builtin as above. */
static int scan_state(const struct sysroot *root, const struct kmod_host *h, const char *osrelease,
		      struct kmod_seen *s)
{
	struct proc_module pm = {}, compat = {};
	int r;

	if (h->proc_modules_err < 0) {
		r = scan_state_sys(root, h, s);
		if (r != -ENOENT)
			return r;
		r = scan_builtin(root, osrelease, s);
		if (r == -ENOMEM)
			return r;
		s->state = r > 0 ? KS_BUILTIN : KS_UNKNOWN; /* not loaded, or unseen: cannot tell */
		s->err = h->proc_modules_err;
		return 0;
	}
	r = proc_modules_find(h->proc_modules, "mlx_compat", &compat);
	if (r == -ENOMEM)
		return r;
	r = proc_modules_find(h->proc_modules, s->rule->name, &pm);
	if (r == -ENOMEM) {
		proc_module_done(&compat);
		return r;
	}
	if (r == 0)
		take_proc(s, &pm, compat.users);
	proc_module_done(&pm);
	proc_module_done(&compat);
	if (r == 0)
		return 0;
	r = scan_builtin(root, osrelease, s);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	s->state = r ? KS_BUILTIN : KS_NOT_LOADED;
	return 0;
}

/* The state of a module no rule names (its own struct kmod_seen, filled by scan_state). */
static int host_module_state(const struct sysroot *root, const char *osrelease,
			     const struct kmod_host *h, const char *name, enum kmod_state *ret)
{
	struct kmod_rule rule = {};
	struct kmod_seen s = { .rule = &rule, .refcnt = -1 };
	int r;

	snprintf(rule.name, sizeof(rule.name), "%s", name);
	r = scan_state(root, h, osrelease, &s);
	*ret = r < 0 ? KS_UNKNOWN : s.state;
	return r == -ENOMEM ? r : 0;
}

int kmod_host_modules_scan(const struct sysroot *root, const char *osrelease, struct kmod_host *h)
{
	int r = host_module_state(root, osrelease, h, "ib_uverbs", &h->uverbs_state);

	if (r >= 0)
		r = host_module_state(root, osrelease, h, "rdma_ucm", &h->ucm_state);
	return r;
}

static void scan_running(const struct sysroot *root, struct kmod_seen *s)
{
	const char *n = s->rule->name;

	(void)sysroot_read_attr(root, SYSROOT_SYS, &s->srcversion, "module/%s/srcversion", n);
	(void)sysroot_read_attr(root, SYSROOT_SYS, &s->version, "module/%s/version", n);
	s->holders = read_holders(root, n);
}

static int scan_params(const struct sysroot *root, struct kmod_seen *s)
{
	size_t n = s->rule->n_params;

	s->param_have = calloc(n + 1, sizeof(char *));
	s->param_err = calloc(n + 1, sizeof(int));
	if (!s->param_have || !s->param_err)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char key[KMOD_PARAM_MAX + 16];
		int r;

		snprintf(key, sizeof(key), "parameters/%s", s->rule->params[i].key);
		r = sysroot_read_attr(root, SYSROOT_SYS, &s->param_have[i], "module/%s/%s",
				      s->rule->name, key);
		if (r == -ENOMEM)
			return r;
		s->param_err[i] = r < 0 ? r : 0;
	}
	return 0;
}

/* ---- deny-lists -------------------------------------------------------- */

/* The first "blacklist NAME" line of one file: "<dir>/<file>:<line>" in *ret, 1; 0: none. */
static int blacklist_in_file(const struct modprobe_file *f, const char *name, char **ret)
{
	unsigned line = 0;

	for (const char *p = f->text; p && *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_(freep) char *l = strndup(p, len);
		char found[KMOD_NAME_MAX + 1];

		if (!l)
			return -ENOMEM;
		line++;
		p += len + (p[len] == '\n');
		if (modprobe_blacklist_line(l, found) == 1 && streq(found, name))
			return asprintf(ret, "%s/%s:%u", modprobe_dir_shown[f->dir], f->name,
					line) < 0
				       ? -ENOMEM
				       : 1;
	}
	return 0;
}

/* libkmod's modprobe.blacklist=: every word of it, "--" or not (it adds each). */
static bool libkmod_denies(const struct cmdline *cmd, const char *name)
{
	for (size_t i = 0; i < cmd->n_all; i++)
		if (streq(cmd->params[i].key, "modprobe.blacklist") && cmd->params[i].value &&
		    kmod_cmdline_blacklisted(cmd->params[i].value, name))
			return true;
	return false;
}

static const char *cmdline_deny_by(const struct cmdline *cmd, const char *name)
{
	const struct cmdline_param *bl = cmdline_find_last(cmd, "module_blacklist");

	if (bl && bl->value && kmod_cmdline_blacklisted(bl->value, name))
		return "the kernel command line module_blacklist=";
	if (libkmod_denies(cmd, name))
		return "the kernel command line modprobe.blacklist=";
	return NULL;
}

/*
 * Who deny-lists the module: the kernel command line's module_blacklist= (the kernel's,
 * its last word) or modprobe.blacklist= (libkmod's, every word), else the first
 * "blacklist NAME" of the modprobe.d files libkmod reads, in its order (a file masked by
 * the same name in an earlier directory is not read: kmod-modprobe.h).
 */
static int scan_deny(const struct sysroot *root, const struct cmdline *cmd, struct kmod_seen *s)
{
	_cleanup_(modprobe_files_done) struct modprobe_files files = {};
	const char *name = s->rule->name, *by;
	int r;

	by = cmdline_deny_by(cmd, name);
	if (by) {
		s->deny_by = strdup(by);
		return s->deny_by ? 0 : -ENOMEM;
	}
	r = modprobe_files_read(root, &files);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < files.n; i++) {
		r = blacklist_in_file(&files.v[i], name, &s->deny_by);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}

int kmod_seen_scan(const struct sysroot *root, struct kmod_backend *b, const struct kmod_host *h,
		   const struct cmdline *cmd, const char *osrelease, const struct kmod_rule *rule,
		   struct kmod_seen *s)
{
	int r;

	*s = (struct kmod_seen){ .rule = rule, .refcnt = -1 };
	r = scan_state(root, h, osrelease, s);
	if (r < 0)
		return r;
	if (s->state == KS_LIVE || s->state == KS_COMING || s->state == KS_GOING)
		scan_running(root, s);
	s->file_err = b ? b->ops->lookup(b, rule->name, &s->file) : -ENODATA;
	if (s->file_err == -ENOMEM)
		return s->file_err;
	if (s->state == KS_NOT_LOADED && s->file_err == -ENOENT)
		s->state = KS_NOT_INSTALLED;
	r = scan_deny(root, cmd, s);
	if (r < 0)
		return r;
	return scan_params(root, s);
}

void kmod_seen_done(struct kmod_seen *s)
{
	free(s->holders);
	free(s->srcversion);
	free(s->version);
	kmod_file_info_done(&s->file);
	free(s->deny_by);
	free(s->set_by);
	for (size_t i = 0; s->param_have && i < s->rule->n_params; i++)
		free(s->param_have[i]);
	free(s->param_have);
	free(s->param_err);
	*s = (struct kmod_seen){};
}

bool kmod_state_present(enum kmod_state s)
{
	return s == KS_BUILTIN || s == KS_LIVE;
}

char *kmod_state_describe(const struct kmod_seen *s, const char *osrelease)
{
	char *out = NULL;
	int r = -1;

	switch (s->state) {
	case KS_BUILTIN:
		return strdup("builtin");
	case KS_LIVE:
		if (s->holders && *s->holders)
			r = asprintf(&out, "live (refcnt %ld, holders %s)", s->refcnt, s->holders);
		else
			r = asprintf(&out, "live (refcnt %ld)", s->refcnt);
		break;
	case KS_COMING:
		return strdup("coming (still initialising)");
	case KS_GOING:
		return strdup("going (being unloaded)");
	case KS_NOT_LOADED:
		if (s->deny_by)
			r = asprintf(&out, "deny-listed (by %s)", s->deny_by);
		else
			return strdup("not loaded");
		break;
	case KS_NOT_INSTALLED:
		r = asprintf(&out, "not installed (no file for %s under /lib/modules/%s)",
			     s->rule->name, strempty(osrelease));
		break;
	case KS_UNKNOWN:
		r = asprintf(&out, "cannot read the module list: %s", strerror(-s->err));
		break;
	}
	return r < 0 ? NULL : out;
}
