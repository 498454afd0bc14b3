// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <sys/stat.h>

#include "sysroot.h"

static const char *const top_dirs[_SYSROOT_TOP_MAX] = {
	[SYSROOT_SYS] = "/sys",
	[SYSROOT_PROC] = "/proc",
	[SYSROOT_DEV] = "/dev",
	[SYSROOT_ETC] = "/etc",
	[SYSROOT_RUN] = "/run",
	[SYSROOT_USR_LIB] = "/usr/lib",
	[SYSROOT_LIB_MODULES] = "/lib/modules",
	[SYSROOT_VAR_LIB] = "/var/lib",
};

/*
 * A --root that does not exist is a typo, not an empty host: without this
 * check a run would report an empty tree as ready and create run/hostprep
 * below the typo.
 */
static int sysroot_check(struct sysroot *r)
{
	struct stat st;
	int err = 0;

	if (r->dir[0] == '\0')
		return 0;
	if (stat(r->dir, &st) < 0)
		err = -errno;
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	if (err < 0)
		sysroot_done(r);
	return err;
}

int sysroot_init(struct sysroot *r, const char *dir)
{
	size_t n;

	if (!dir)
		dir = "/";
	if (dir[0] == '\0')
		return -EINVAL;
	/* A relative --root is resolved once, so no path depends on a later chdir. */
	r->dir = dir[0] == '/' ? strdup(dir) : realpath(dir, NULL);
	if (!r->dir && dir[0] != '/')
		return -errno; /* realpath(): ENOENT for a relative root that does not exist */
	if (!r->dir)
		return -ENOMEM;
	n = strlen(r->dir);
	while (n > 0 && r->dir[n - 1] == '/')
		r->dir[--n] = '\0';
	return sysroot_check(r);
}

void sysroot_done(struct sysroot *r)
{
	free(r->dir);
	r->dir = NULL;
}

bool sysroot_is_host(const struct sysroot *r)
{
	return !r->dir || r->dir[0] == '\0';
}

char *sysroot_path(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
{
	_cleanup_(freep) char *rel = NULL;
	char *out = NULL;
	va_list ap;
	int n;

	if (top < 0 || top >= _SYSROOT_TOP_MAX)
		return NULL;
	va_start(ap, fmt);
	n = vasprintf(&rel, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	if (asprintf(&out, "%s%s%s%s", strempty(r->dir), top_dirs[top], rel[0] ? "/" : "", rel) < 0)
		return NULL;
	return out;
}

const char *sysroot_strip(const struct sysroot *r, const char *path)
{
	size_t n = strlen(strempty(r->dir));

	if (n && strneq(path, r->dir, n) && path[n] == '/')
		return path + n;
	return path;
}
