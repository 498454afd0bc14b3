// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
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
	[SYSROOT_USR_LOCAL_LIB] = "/usr/local/lib",
	[SYSROOT_LIB] = "/lib",
	[SYSROOT_LIB_MODULES] = "/lib/modules",
	[SYSROOT_VAR_LIB] = "/var/lib",
	[SYSROOT_BOOT] = "/boot",
};

/*
 * A --root that does not exist is a typo, not an empty host: without this
 * check a run would report an empty tree as ready and create run/hostprep
 * below the typo.
 */
static int sysroot_check(struct sysroot *r)
{
	int fd = open(r->dir[0] ? r->dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		int err = -errno;

		sysroot_done(r);
		return err;
	}
	r->fd = fd;
	r->fd_open = true;
	return 0;
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
	if (r->fd_open)
		close(r->fd);
	r->fd_open = false;
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

int sysroot_openat(const struct sysroot *r, enum sysroot_top top, int flags, const char *fmt, ...)
{
	_cleanup_(freep) char *rel = NULL, *path = NULL;
	va_list ap;
	int n, fd;

	if (top < 0 || top >= _SYSROOT_TOP_MAX)
		return -EINVAL;
	va_start(ap, fmt);
	n = vasprintf(&rel, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	/* "sys/bus/pci": the top without its '/', below the root's fd. */
	if (r->fd_open)
		n = asprintf(&path, "%s%s%s", top_dirs[top] + 1, rel[0] ? "/" : "", rel);
	else
		n = asprintf(&path, "%s%s%s%s", strempty(r->dir), top_dirs[top], rel[0] ? "/" : "",
			     rel);
	if (n < 0)
		return -ENOMEM;
	fd = openat(r->fd_open ? r->fd : AT_FDCWD, path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

const char *sysroot_strip(const struct sysroot *r, const char *path)
{
	size_t n = strlen(strempty(r->dir));

	if (n && strneq(path, r->dir, n) && path[n] == '/')
		return path + n;
	return path;
}
