// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>

#include "kmod/kmod-backend.h"
#include "kmod/kmod-dlopen.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-parse.h"
#include "core/log.h"
#include "core/macro.h"

void kmod_file_info_done(struct kmod_file_info *f)
{
	free(f->path);
	free(f->srcversion);
	free(f->version);
	free(f->depends);
	free(f->vermagic);
	strv_free(f->parm_names);
	strv_free(f->parm_types);
	*f = (struct kmod_file_info){};
}

int kmod_file_info_parm(const struct kmod_file_info *f, const char *name)
{
	for (size_t i = 0; i < f->n_parms; i++)
		if (streq(f->parm_names[i], name))
			return (int)i;
	return -1;
}

/* libkmod's messages are ours at debug level: results say what matters. */
static void kmod_log(void *data, int priority, const char *file, int line, const char *fn,
		     const char *format, va_list args)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), format, args);
	log_debug("libkmod: %s", msg);
}

static int parm_add(struct kmod_file_info *f, const char *name, const char *type)
{
	int i = kmod_file_info_parm(f, name);
	char **n, **t;

	if (i >= 0) {
		if (type && !f->parm_types[i][0]) {
			char *copy = strdup(type);

			if (!copy)
				return -ENOMEM;
			free(f->parm_types[i]);
			f->parm_types[i] = copy;
		}
		return 0;
	}
	n = reallocarray(f->parm_names, f->n_parms + 2, sizeof(char *));
	if (n)
		f->parm_names = n;
	t = reallocarray(f->parm_types, f->n_parms + 2, sizeof(char *));
	if (t)
		f->parm_types = t;
	if (!n || !t)
		return -ENOMEM;
	f->parm_names[f->n_parms] = strdup(name);
	f->parm_types[f->n_parms] = strdup(strempty(type));
	f->n_parms++;
	f->parm_names[f->n_parms] = f->parm_types[f->n_parms] = NULL;
	return f->parm_names[f->n_parms - 1] && f->parm_types[f->n_parms - 1] ? 0 : -ENOMEM;
}

/* One modinfo key=value into f; unknown keys are of no interest. */
static int info_take(struct kmod_file_info *f, const char *key, const char *value)
{
	char name[KMOD_PARAM_MAX + 1];
	const char *text;
	char **slot = NULL;

	if (streq(key, "parm") || streq(key, "parmtype")) {
		if (modinfo_name_value(value, name, &text) < 0)
			return 0; /* a malformed entry names no usable parameter */
		return parm_add(f, name, streq(key, "parmtype") ? text : NULL);
	}
	if (streq(key, "srcversion"))
		slot = &f->srcversion;
	else if (streq(key, "version"))
		slot = &f->version;
	else if (streq(key, "depends"))
		slot = &f->depends;
	else if (streq(key, "vermagic"))
		slot = &f->vermagic;
	if (!slot || *slot)
		return 0;
	*slot = strdup(value);
	return *slot ? 0 : -ENOMEM;
}

static int read_info(struct kmod_module *mod, struct kmod_file_info *f)
{
	_cleanup_(kmod_info_freep) struct kmod_list *list = NULL;
	struct kmod_list *l;
	int r;

	r = sym_kmod_module_get_info(mod, &list);
	if (r < 0)
		return r;
	for (l = list; l; l = sym_kmod_list_next(list, l)) {
		r = info_take(f, sym_kmod_module_info_get_key(l),
			      sym_kmod_module_info_get_value(l));
		if (r < 0)
			return r;
	}
	if (!f->depends)
		f->depends = strdup("");
	return f->depends ? 0 : -ENOMEM;
}

static int module_get(struct kmod_backend *b, const char *name, struct kmod_module **ret)
{
	int r = sym_kmod_module_new_from_name_lookup(b->ctx, name, ret);

	if (r < 0)
		return r;
	return *ret ? 0 : -ENOENT;
}

static int backend_lookup(struct kmod_backend *b, const char *name, struct kmod_file_info *ret)
{
	_cleanup_(kmod_module_unrefp) struct kmod_module *mod = NULL;
	const char *path;
	int r;

	*ret = (struct kmod_file_info){};
	r = module_get(b, name, &mod);
	if (r < 0)
		return r;
	path = sym_kmod_module_get_path(mod);
	if (!path)
		return -ENOENT; /* builtin: no file */
	if (!sysroot_lib_path_direct(b->root, path)) {
		/* a link on the way: inside the root nothing is there, and libkmod would follow it
		 */
		log_debug("%s: reached through a symlink below the root, not read.", path);
		return -ENOENT;
	}
	r = sysroot_lib_file_check(b->root, path);
	if (r == -EBADFD) /* a FIFO: libkmod's open(2) of it would wait for a writer */
		return log_warning_errno(r, "%s: not a regular file, not read.",
					 sysroot_strip(b->root, path));
	ret->path = strdup(path);
	if (!ret->path)
		return -ENOMEM;
	sysroot_note_read(b->root, path); /* libkmod opens it itself: hostprep snapshot */
	r = read_info(mod, ret);
	if (r < 0)
		kmod_file_info_done(ret);
	return r;
}

/*
 * print_action has no user data pointer: the lines of the one probe in
 * progress go to this buffer (hostprep is single-threaded).
 */
static struct {
	FILE *f;
	const struct kmod_backend *b;
} collect;

static void print_action(struct kmod_module *m, bool install, const char *options)
{
	const char *path = sym_kmod_module_get_path(m);

	if (!collect.f)
		return;
	if (collect.b->is_loaded &&
	    collect.b->is_loaded(sym_kmod_module_get_name(m), collect.b->userdata))
		return;
	if (install)
		fprintf(collect.f, "install command for %s\n", sym_kmod_module_get_name(m));
	else
		fprintf(collect.f, "insmod %s%s%s\n",
			path ? sysroot_strip(collect.b->root, path) : sym_kmod_module_get_name(m),
			options && *options ? " " : "", strempty(options));
}

/* Trailing newline off: results want one line per action joined by "; ". */
static char *actions_join(char *buf)
{
	size_t n = strlen(buf);

	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ';';
	return buf;
}

static int probe(struct kmod_backend *b, const char *name, const char *options, unsigned flags,
		 char **ret_actions)
{
	_cleanup_(kmod_module_unrefp) struct kmod_module *mod = NULL;
	char *buf = NULL;
	size_t size = 0;
	int r;

	r = module_get(b, name, &mod);
	if (r < 0)
		return r;
	collect.f = open_memstream(&buf, &size);
	if (!collect.f)
		return -ENOMEM;
	collect.b = b;
	r = sym_kmod_module_probe_insert_module(mod, flags | KMOD_PROBE_APPLY_BLACKLIST, options,
						NULL, NULL, print_action);
	fclose(collect.f);
	collect.f = NULL;
	if (!buf)
		return -ENOMEM;
	*ret_actions = actions_join(buf);
	/* A deny-listed module is refused with a positive flag value, not an errno. */
	return r > 0 ? -EPERM : r;
}

static int probe_real(struct kmod_backend *b, const char *name, const char *options,
		      char **ret_actions)
{
	return probe(b, name, options, 0, ret_actions);
}

/* IGNORE_LOADED: libkmod would ask the running kernel, not the tree, what is loaded. */
static int probe_dry(struct kmod_backend *b, const char *name, const char *options,
		     char **ret_actions)
{
	return probe(b, name, options, KMOD_PROBE_DRY_RUN | KMOD_PROBE_IGNORE_LOADED, ret_actions);
}

static int remove_real(struct kmod_backend *b, const char *name, char **ret_actions)
{
	_cleanup_(kmod_module_unrefp) struct kmod_module *mod = NULL;
	int r;

	r = sym_kmod_module_new_from_name(b->ctx, name, &mod);
	if (r < 0)
		return r;
	if (asprintf(ret_actions, "rmmod %s", name) < 0)
		return -ENOMEM;
	return sym_kmod_module_remove_module(mod, 0);
}

static int remove_dry(struct kmod_backend *b, const char *name, char **ret_actions)
{
	return asprintf(ret_actions, "rmmod %s", name) < 0 ? -ENOMEM : 0;
}

const struct kmod_backend_ops kmod_backend_real = {
	.name = "libkmod",
	.lookup = backend_lookup,
	.probe = probe_real,
	.remove = remove_real,
};

const struct kmod_backend_ops kmod_backend_dry = {
	.name = "libkmod (dry run)",
	.lookup = backend_lookup,
	.probe = probe_dry,
	.remove = remove_dry,
};

/*
 * modprobe.d as libkmod searches it by default, below the root (the same list for the host:
 * kmod-modprobe.c walks it to name the file behind an option, and must read what libkmod
 * reads). NULL-terminated.
 */
static int config_paths(const struct sysroot *root, char *paths[MODPROBE_DIRS_N + 1])
{
	paths[MODPROBE_DIRS_N] = NULL;
	return modprobe_dirs(root, paths);
}

static void config_paths_free(char *paths[MODPROBE_DIRS_N + 1])
{
	for (size_t i = 0; i < MODPROBE_DIRS_N; i++)
		free(paths[i]);
}

/* What libkmod opens in the module directory by name (kmod 30 to 34). */
static const char *const index_names[] = {
	"modules.softdep",     "modules.weakdep",	  "modules.dep.bin",
	"modules.alias.bin",   "modules.symbols.bin",	  "modules.builtin.alias.bin",
	"modules.builtin.bin", "modules.builtin.modinfo",
};

static int input_refused(const struct sysroot *root, const char *dir, const char *name, int err,
			 bool quiet)
{
	return log_full_errno(quiet ? LOG_DEBUG : LOG_WARNING, err,
			      "%s%s%s: %s; libkmod opens it itself (a blocking open(2) that "
			      "follows links), so the module index is not used.",
			      sysroot_strip(root, dir), name ? "/" : "", strempty(name),
			      err == -EXDEV ? "a link that leaves --root"
					    : "not a regular file (a FIFO would block the run)");
}

/*
 * libkmod opens its index, modules.softdep and the modprobe.d files by path: a FIFO there
 * would hang the run, a link out of --root would be read from this machine. Each is checked
 * first as hostprep's own reads are; one refused and no context is made.
 */
static int inputs_check(const struct sysroot *root, const char *dir, char *const *paths, bool quiet)
{
	for (size_t i = 0; i < ARRAY_SIZE(index_names); i++) {
		_cleanup_(freep) char *path = NULL;
		int r;

		if (asprintf(&path, "%s/%s", dir, index_names[i]) < 0)
			return -ENOMEM;
		r = sysroot_lib_file_check(root, path);
		if (r == -EXDEV || r == -EBADFD)
			return input_refused(root, dir, index_names[i], r, quiet);
	}
	for (size_t i = 0; paths[i]; i++) {
		_cleanup_(freep) char *name = NULL;
		int r = sysroot_lib_dir_check(root, paths[i], modprobe_name_wanted, &name);

		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return input_refused(root, paths[i], name, r, quiet);
	}
	return 0;
}

const char *kmod_backend_strerror(int err)
{
	if (err == -EBADFD)
		return "a file libkmod opens is not a regular file";
	if (err == -EXDEV)
		return "a file libkmod opens is a link that leaves --root";
	return strerror(-err);
}

/* A context over the root's index and modprobe.d; the caller logs (quiet: refusals too). */
static int ctx_new(const struct sysroot *root, const char *osrelease, bool quiet,
		   struct kmod_ctx **ret)
{
	_cleanup_(freep) char *dir = NULL;
	char *paths[MODPROBE_DIRS_N + 1] = {};
	int r;

	if (!osrelease)
		return -ENODATA;
	r = dlopen_libkmod();
	if (r < 0)
		return r;
	/* libkmod opens the index by path: the directory resolved inside the root */
	r = sysroot_lib_path(root, SYSROOT_LIB_MODULES, &dir, "%s", osrelease);
	if (r >= 0)
		r = config_paths(root, paths);
	if (r >= 0)
		r = inputs_check(root, dir, paths, quiet);
	if (r >= 0) {
		*ret = sym_kmod_new(dir, (const char *const *)paths);
		r = *ret ? 0 : -ENOMEM;
	}
	config_paths_free(paths);
	if (r >= 0)
		sym_kmod_set_log_fn(*ret, kmod_log, NULL);
	return r;
}

int kmod_backend_options(const struct sysroot *root, const char *osrelease, const char *name,
			 char **ret)
{
	_cleanup_(kmod_ctx_unrefp) struct kmod_ctx *ctx = NULL;
	_cleanup_(kmod_module_unrefp) struct kmod_module *mod = NULL;
	int r;

	r = ctx_new(root, osrelease, true, &ctx);
	if (r >= 0)
		r = sym_kmod_module_new_from_name(ctx, name, &mod);
	if (r < 0)
		return r;
	*ret = strdup(strempty(sym_kmod_module_get_options(mod)));
	return *ret ? 0 : -ENOMEM;
}

int kmod_backend_open(struct kmod_backend **ret, const struct kmod_backend_ops *ops,
		      const struct sysroot *root, const char *osrelease)
{
	_cleanup_(kmod_ctx_unrefp) struct kmod_ctx *ctx = NULL;
	struct kmod_backend *b;
	int r;

	r = ctx_new(root, osrelease, false, &ctx);
	if (r < 0)
		return r;
	/* One load of the indexes for every lookup of the run. */
	r = sym_kmod_load_resources(ctx);
	if (r < 0)
		return r;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	*b = (struct kmod_backend){ .ops = ops, .root = root, .ctx = TAKE_PTR(ctx) };
	*ret = b;
	return 0;
}

void kmod_backend_close(struct kmod_backend *b)
{
	if (!b)
		return;
	sym_kmod_unref(b->ctx);
	free(b);
}
