// SPDX-License-Identifier: GPL-2.0-or-later
/* [Sinks]: which files for other systems a run writes, and where (src/report/sink-config.h). */
#include <fcntl.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/log.h"
#include "report/sink-config.h"

#define SECTION "Sinks"

/* The real host's root: renders a default path for `hostprep config` without a literal. */
static const struct sysroot host_root = { .dir = (char *)"" };
static const struct config no_config; /* no [Sinks]: every sink on, at its default path */

/* Absolute, no "..", no blanks or control characters: it is joined to the root prefix. */
static bool path_valid(const char *p)
{
	size_t n = strlen(p);

	if (p[0] != '/' || n > SINK_PATH_MAX || p[n - 1] == '/')
		return false;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return false;
	return !strstr(p, "/../") && !(n >= 3 && streq(p + n - 3, "/..")) && !strstr(p, "//");
}

static char *default_prom_dir(const struct sysroot *root)
{
	return sysroot_path(root, SYSROOT_VAR_LIB, "prometheus/node-exporter");
}

static char *default_nfd_file(const struct sysroot *root)
{
	return sysroot_path(root, SYSROOT_ETC,
			    "kubernetes/node-feature-discovery/features.d/hostprep");
}

/* A path key's default, for the dump (its item's ltype). */
struct path_default {
	char *(*path)(const struct sysroot *root);
};

static int parse_path(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	char **path = config_item_field(it, state);
	char *copy = NULL;

	if (value[0] && !path_valid(value))
		return config_error_at(
			at,
			"%s=: invalid path '%s' (absolute, at most %d characters, no "
			"blanks, '//', '..' or trailing '/')",
			it->key, value, SINK_PATH_MAX);
	if (value[0]) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(*path);
	*path = copy;
	*config_item_at(it, state) = value[0] ? *at : (struct origin){};
	return 0;
}

/* The path set, or the default one as it lies on the real host. */
static const char *print_path(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	const char *path = *(char *const *)config_item_field_const(it, state);
	const struct path_default *d = it->ltype;
	_cleanup_(freep) char *dflt = NULL;

	if (path)
		return path;
	dflt = d->path(&host_root);
	if (!dflt)
		return NULL;
	snprintf(buf, size, "%s", dflt);
	return buf;
}

static const struct path_default prom_dir_default = { default_prom_dir };
static const struct path_default nfd_file_default = { default_nfd_file };

/* In dump order; a new section starts from each one's empty value (both sinks on). */
static const struct config_item sinks_items[] = {
	CONFIG_ITEM_BOOL_AT("Prometheus", struct sinks_config, prometheus.on, prometheus.at, true),
	CONFIG_ITEM_AT("PrometheusDir", parse_path, print_path, &prom_dir_default, 0,
		       struct sinks_config, prom_dir.path, prom_dir.at),
	CONFIG_ITEM_BOOL_AT("NFD", struct sinks_config, nfd.on, nfd.at, true),
	CONFIG_ITEM_AT("NFDFile", parse_path, print_path, &nfd_file_default, 0, struct sinks_config,
		       nfd_file.path, nfd_file.at),
};

static bool is_section(const char *name)
{
	return streq(name, SECTION);
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	struct sinks_config *sc = *state;

	if (sc)
		return 0; /* one [Sinks] in each file (config.c); later keys override */
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	*state = sc;
	return config_items_defaults(sinks_items, ARRAY_SIZE(sinks_items), sc);
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(sinks_items, ARRAY_SIZE(sinks_items), state, key, value, at);

	if (r == -ENOKEY)
		return config_error_at(at, "unknown key '%s' in [" SECTION "] section", key);
	return r;
}

static int part_finish(void *state, const struct config_finish *f)
{
	return 0; /* the keys are independent */
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(sinks_items, ARRAY_SIZE(sinks_items), state) : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(sinks_items, ARRAY_SIZE(sinks_items), state, SECTION, fn, ud);
}

static void part_free(void *state)
{
	struct sinks_config *sc = state;

	if (!sc)
		return;
	free(sc->prom_dir.path);
	free(sc->nfd_file.path);
	free(sc);
}

const struct config_part sinks_config_part = CONFIG_PART("[" SECTION "]", is_section);

bool sinks_prometheus_on(const struct config *c)
{
	return !sinks_config_get(c) || sinks_config_get(c)->prometheus.on;
}

bool sinks_nfd_on(const struct config *c)
{
	return !sinks_config_get(c) || sinks_config_get(c)->nfd.on;
}

/* A configured path lies below the root prefix like every default one. */
static char *rooted(const struct sysroot *root, const char *path, const char *suffix)
{
	char *out;

	if (asprintf(&out, "%s%s%s", strempty(root->dir), path, suffix) < 0)
		return NULL;
	return out;
}

/* The files as paths inside the root ("/var/lib/prometheus/..."), malloc'd. */
static char *prom_in_root(const struct config *c)
{
	if (sinks_config_get(c) && sinks_config_get(c)->prom_dir.path)
		return rooted(&host_root, sinks_config_get(c)->prom_dir.path, "/" PROM_FILE);
	return sysroot_path(&host_root, SYSROOT_VAR_LIB, "prometheus/node-exporter/" PROM_FILE);
}

static char *nfd_in_root(const struct config *c)
{
	if (sinks_config_get(c) && sinks_config_get(c)->nfd_file.path)
		return strdup(sinks_config_get(c)->nfd_file.path);
	return default_nfd_file(&host_root);
}

/* The same below the root prefix, for messages. */
static char *shown(const struct sysroot *root, char *(*in_root)(const struct config *),
		   const struct config *c)
{
	_cleanup_(freep) char *file = in_root(c);

	return file ? rooted(root, file, "") : NULL;
}

char *sinks_prom_path(const struct config *c, const struct sysroot *root)
{
	return shown(root, prom_in_root, c);
}

char *sinks_nfd_path(const struct config *c, const struct sysroot *root)
{
	return shown(root, nfd_in_root, c);
}

/* ---- writing ---- */

/* The directory of file (a path inside the root), opened inside it; *ret_name its name. */
static int open_parent(const struct sysroot *root, const char *file, const char **ret_name)
{
	const char *slash = strrchr(file, '/');
	_cleanup_(freep) char *dir = strndup(file, slash > file ? (size_t)(slash - file) : 1);

	if (!dir)
		return -ENOMEM;
	*ret_name = slash + 1;
	return sysroot_open_at(root, root->fd, dir, O_RDONLY | O_DIRECTORY);
}

/*
 * One sink file. The directory belongs to the other tool: missing means "not installed
 * here", said only when the admin asked for the sink by name. refresh_only (the config
 * is unknown): replace a file an earlier run left, never start a new one.
 */
static int sink_write(const char *what, const struct sysroot *root, const char *file,
		      const char *data, const struct origin *asked, bool refresh_only)
{
	_cleanup_(freep) char *path = rooted(root, file, "");
	_cleanup_(closep) int dfd = -1;
	const char *name;
	struct stat st;
	int r;

	if (!path)
		return -ENOMEM;
	dfd = open_parent(root, file, &name);
	if (dfd == -ENOMEM)
		return dfd;
	if (refresh_only && (dfd < 0 || sysroot_stat_at(root, dfd, name, 0, &st) < 0))
		return 0;
	if (dfd < 0) {
		if (asked && asked->file)
			log_warning("%s:%u: %s=yes but the directory of '%s' does not exist, "
				    "ignoring.",
				    asked->file, asked->line, what, path);
		return 0;
	}
	/*
	 * Durable, and a dot-file temp ("<dir>/.<name>.tmp-XXXXXX"): nfd-worker skips
	 * dot-files, node_exporter reads *.prom only, so neither sees a half-written file.
	 */
	r = write_file_atomic_at(dfd, name, data, strlen(data), 0644,
				 WRITE_DURABLE | WRITE_HIDDEN_TEMP);
	if (r >= 0)
		return 0;
	/* the last verdict must not stay when this one cannot replace it: no file, no READY */
	log_warning_errno(r, "Failed to write '%s', removing it: %m", path);
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		log_warning_errno(errno, "Failed to remove '%s': %m", path);
	return r == -ENOMEM ? r : 0;
}

static int sink_prom(const struct report *r, const struct config *c, const struct sysroot *root,
		     uint64_t duration_usec, bool refresh_only)
{
	_cleanup_(freep) char *file = prom_in_root(c), *text = NULL;
	int ret;

	if (!file)
		return -ENOMEM;
	ret = prom_render(r, duration_usec, &text);
	if (ret < 0)
		return ret;
	return sink_write("Prometheus", root, file, text,
			  sinks_config_get(c) ? &sinks_config_get(c)->prometheus.at : NULL,
			  refresh_only);
}

static int sink_nfd(const struct report *r, const struct config *c, const struct sysroot *root,
		    bool refresh_only)
{
	_cleanup_(freep) char *file = nfd_in_root(c), *text = NULL;
	int ret;

	if (!file)
		return -ENOMEM;
	ret = nfd_render(r, &text);
	if (ret < 0)
		return ret;
	return sink_write("NFD", root, file, text,
			  sinks_config_get(c) ? &sinks_config_get(c)->nfd.at : NULL, refresh_only);
}

/* Whether the sink's file would be written: it is on and its directory exists. */
static bool sink_dir_exists(const struct sysroot *root, char *(*in_root)(const struct config *),
			    const struct config *c)
{
	_cleanup_(freep) char *file = in_root(c);
	const char *name;
	int fd;

	if (!file)
		return false;
	fd = open_parent(root, file, &name);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool sinks_will_write(const struct config *c, const struct sysroot *root)
{
	return (sinks_prometheus_on(c) && sink_dir_exists(root, prom_in_root, c)) ||
	       (sinks_nfd_on(c) && sink_dir_exists(root, nfd_in_root, c));
}

/* Remove the file (a path inside the root) when it is there; what was ours goes. */
static void sink_remove(const struct sysroot *root, const char *file)
{
	_cleanup_(freep) char *path = rooted(root, file, "");
	_cleanup_(closep) int dfd = -1;
	const char *name;

	dfd = open_parent(root, file, &name);
	if (dfd < 0)
		return; /* no directory, no file */
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		log_warning_errno(errno, "Failed to remove '%s': %m", path ? path : file);
}

/*
 * The files this sink must not leave: the configured one when it is off, and the
 * default one when it is moved: a switched-off or moved sink leaves no verdict behind
 * that nothing replaces any more (nfd-worker would read two files of the same labels).
 */
static void sink_drop_stale(const struct sysroot *root, bool on,
			    char *(*in_root)(const struct config *), const struct config *c)
{
	_cleanup_(freep) char *file = in_root(c), *def = in_root(&no_config);

	if (!file || !def)
		return (void)log_oom();
	if (!on)
		sink_remove(root, file);
	if (!streq(file, def))
		sink_remove(root, def);
}

int sink_files(const struct report *r, const struct config *c, const struct sysroot *root,
	       uint64_t duration_usec)
{
	bool refresh_only = !c;
	int ret = 0;

	if (!c)
		c = &no_config;
	sink_drop_stale(root, sinks_prometheus_on(c), prom_in_root, c);
	sink_drop_stale(root, sinks_nfd_on(c), nfd_in_root, c);
	if (sinks_prometheus_on(c))
		ret = sink_prom(r, c, root, duration_usec, refresh_only);
	if (ret >= 0 && sinks_nfd_on(c))
		ret = sink_nfd(r, c, root, refresh_only);
	return ret;
}

/*
 * The NFD file of a run that has no verdict to publish: not ready, and nothing else. A
 * removed file would drop the label, and NFD's taint rule (hostprep.ready In [false])
 * would lift the taint from a host that is not known to be ready. Removed when it cannot
 * be written (sink_write()), as any file that cannot say this run's state.
 */
static void nfd_not_ready(const struct config *c, const struct sysroot *root, const char *file)
{
	if (!sinks_nfd_on(c)) {
		sink_remove(root, file);
		return;
	}
	(void)sink_write("NFD", root, file, nfd_unpublished, NULL, false);
}

void sink_files_remove(const struct config *c, const struct sysroot *root)
{
	_cleanup_(freep) char *prom = prom_in_root(c ? c : &no_config),
			      *nfd = nfd_in_root(c ? c : &no_config);

	if (!prom || !nfd)
		return (void)log_oom();
	sink_remove(root, prom);
	nfd_not_ready(c ? c : &no_config, root, nfd);
}
