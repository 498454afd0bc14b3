// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "core/fileio.h"
#include "core/sysroot.h"

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
 * openat2(2) is missing before Linux 5.6, and a container runtime's seccomp filter may
 * answer ENOSYS or EPERM for it (a real openat2 has no EPERM for O_PATH): then the
 * checked fallback. Decided by the call that opens the root itself, so the probe costs no
 * syscall of its own; a property of the kernel, not a cached path.
 */
static bool openat2_missing;

/* The contained root of sysroot_open_path() (sysroot.h); NULL on the host. */
static const struct sysroot *contained;

/* sysroot_set_recorder(): NULL unless a snapshot is recording. */
static sysroot_recorder_t recorder;
static void *recorder_data;

void sysroot_set_recorder(sysroot_recorder_t fn, void *userdata)
{
	recorder = fn;
	recorder_data = userdata;
}

static void record_rel(enum sysroot_top top, const char *rel)
{
	_cleanup_(freep) char *p = NULL;

	if (!recorder)
		return;
	if (asprintf(&p, "%s%s%s", top_dirs[top] + 1, rel[0] ? "/" : "", rel) >= 0)
		recorder(p, recorder_data);
}

void sysroot_note_read(const struct sysroot *r, const char *path)
{
	const char *rel = sysroot_strip(r, path);

	if (recorder && rel[0] == '/')
		recorder(rel + 1, recorder_data);
}

static long sys_openat2(int dfd, const char *path, int flags, unsigned long long resolve)
{
	struct open_how how = { .flags = (unsigned)(flags | O_CLOEXEC), .resolve = resolve };

	return syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

static int open_root_dir(const char *dir)
{
	long fd = sys_openat2(AT_FDCWD, dir, O_PATH | O_DIRECTORY, 0);

	if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
		openat2_missing = true;
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	return fd < 0 ? -errno : (int)fd;
}

/*
 * The canonical form of a --root below a symlink: realpath() results (rdma, apply) and
 * the fallback's checks are compared with it. NULL when dir is canonical already.
 */
static int sysroot_canonical(struct sysroot *r)
{
	r->real = realpath(r->dir, NULL);
	if (!r->real)
		return -errno;
	if (streq(r->real, r->dir)) {
		free(r->real);
		r->real = NULL;
	}
	return 0;
}

/*
 * A --root that does not exist is a typo, not an empty host: without this
 * check a run would report an empty tree as ready and create run/hostprep
 * below the typo.
 */
static int sysroot_check(struct sysroot *r)
{
	int fd = open_root_dir(r->dir[0] ? r->dir : "/");

	if (fd >= 0) {
		r->fd = fd;
		r->fd_open = true;
		fd = r->dir[0] ? sysroot_canonical(r) : 0;
	}
	if (fd < 0) {
		sysroot_done(r);
		return fd;
	}
	if (r->dir[0])
		contained = r;
	return 0;
}

int sysroot_init(struct sysroot *r, const char *dir)
{
	size_t n;

	*r = (struct sysroot){};
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
	if (contained == r)
		contained = NULL;
	free(r->dir);
	r->dir = NULL;
	free(r->real);
	r->real = NULL;
	if (r->fd_open)
		close(r->fd);
	r->fd_open = false;
}

bool sysroot_is_host(const struct sysroot *r)
{
	return !r->dir || r->dir[0] == '\0';
}

/* path is prefix or below it: *rel is the rest without its leading '/' ("." for prefix). */
static bool below(const char *path, const char *prefix, const char **rel)
{
	size_t n = strlen(prefix);

	if (!strneq(path, prefix, n) || (path[n] != '/' && path[n] != '\0'))
		return false;
	for (path += n; *path == '/'; path++)
		;
	*rel = *path ? path : ".";
	return true;
}

/* The directory dfd stands for, as a path (the fallback only). */
static int fd_path(int dfd, char buf[static PATH_MAX])
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
	n = readlink(link, buf, PATH_MAX - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/*
 * Without openat2: what dfd/rel resolves to now must be the root or below it; then that
 * resolved path is opened (a rename racing this check can still win: the kernels that
 * need this fallback are the ones that cannot do better).
 */
static int open_checked(const struct sysroot *r, int dfd, const char *rel, int flags)
{
	_cleanup_(freep) char *full = NULL, *real = NULL;
	char dir[PATH_MAX];
	const char *ignored;
	int fd;

	if (dfd == r->fd)
		snprintf(dir, sizeof(dir), "%s", r->dir);
	else if ((fd = fd_path(dfd, dir)) < 0)
		return fd;
	if (asprintf(&full, "%s/%s", dir, rel) < 0)
		return -ENOMEM;
	real = realpath(full, NULL);
	if (!real)
		return -errno;
	if (!below(real, r->real ? r->real : r->dir, &ignored))
		return -EXDEV;
	fd = open(real, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * rel below dfd, never leaving it: RESOLVE_BENEATH refuses absolute symlinks and ".."
 * above dfd (EXDEV), RESOLVE_NO_MAGICLINKS the /proc/<pid>/fd kind. EAGAIN: a rename
 * raced the ".." check, try again.
 */
static int open_beneath(const struct sysroot *r, int dfd, const char *rel, int flags)
{
	long fd = -1;

	if (openat2_missing)
		return open_checked(r, dfd, rel, flags);
	for (int tries = 0; tries < 8; tries++) {
		fd = sys_openat2(dfd, rel, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd < 0 ? -errno : (int)fd;
}

_printf_(3, 0) static char *sysroot_vpath(const struct sysroot *r, enum sysroot_top top,
					  const char *fmt, va_list ap)
{
	_cleanup_(freep) char *rel = NULL;
	char *out = NULL;

	if (top < 0 || top >= _SYSROOT_TOP_MAX)
		return NULL;
	if (vasprintf(&rel, fmt, ap) < 0)
		return NULL;
	record_rel(top, rel);
	if (asprintf(&out, "%s%s%s%s", strempty(r->dir), top_dirs[top], rel[0] ? "/" : "", rel) < 0)
		return NULL;
	return out;
}

char *sysroot_path(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
{
	va_list ap;
	char *out;

	va_start(ap, fmt);
	out = sysroot_vpath(r, top, fmt, ap);
	va_end(ap);
	return out;
}

int sysroot_read_attr(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;

	va_start(ap, fmt);
	path = sysroot_vpath(r, top, fmt, ap);
	va_end(ap);
	if (!path)
		return -ENOMEM;
	return read_one_line(path, ret);
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
	record_rel(top, rel);
	/* "sys/bus/pci": the top without its '/', below the root's fd. */
	if (r->fd_open)
		n = asprintf(&path, "%s%s%s", top_dirs[top] + 1, rel[0] ? "/" : "", rel);
	else
		n = asprintf(&path, "%s%s%s%s", strempty(r->dir), top_dirs[top], rel[0] ? "/" : "",
			     rel);
	if (n < 0)
		return -ENOMEM;
	if (r->fd_open && !sysroot_is_host(r))
		return open_beneath(r, r->fd, path, flags);
	fd = openat(r->fd_open ? r->fd : AT_FDCWD, path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int open_absolute(const struct sysroot *r, const char *path, int flags)
{
	const char *rel;

	if (below(path, r->dir, &rel) || (r->real && below(path, r->real, &rel)))
		return open_beneath(r, r->fd, rel, flags);
	return -EXDEV;
}

/*
 * rel below a directory of the tree climbs out of that directory (sysfs links such as
 * iommu_groups/N/devices/X -> ../../../../devices/...): what counts is that it stays in
 * the root, so resolve it again from the root, as the directory's path plus rel. Only
 * the reads that climb pay for the readlink.
 */
static int open_from_dir(const struct sysroot *r, int dfd, const char *rel, int flags)
{
	_cleanup_(freep) char *dir = NULL, *path = NULL;
	char fdlink[64];
	int n;

	n = snprintf(fdlink, sizeof(fdlink), "/proc/self/fd/%d", dfd);
	if (n < 0 || (size_t)n >= sizeof(fdlink))
		return -EXDEV;
	dir = realpath(fdlink, NULL);
	if (!dir)
		return -errno;
	if (asprintf(&path, "%s/%s", dir, rel) < 0)
		return -ENOMEM;
	return open_absolute(r, path, flags);
}

int sysroot_open_path(int dfd, const char *path, int flags)
{
	const struct sysroot *r = contained;
	int fd;

	if (!r) {
		fd = openat(dfd, path, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if (path[0] != '/') {
		if (dfd == AT_FDCWD)
			return -EXDEV;
		fd = open_beneath(r, dfd, path, flags);
		return fd == -EXDEV && dfd != r->fd ? open_from_dir(r, dfd, path, flags) : fd;
	}
	return open_absolute(r, path, flags);
}

/* The root itself or a directory above it: it exists, and nothing is made in it. */
static bool above(const struct sysroot *r, const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return strneq(r->dir, path, n) && (r->dir[n] == '/' || r->dir[n] == '\0');
}

int sysroot_check_path(const char *path)
{
	_cleanup_(closep) int fd = -1;

	if (!contained || above(contained, path))
		return 0;
	fd = sysroot_open_path(AT_FDCWD, path, O_PATH);
	return fd == -EXDEV ? -EXDEV : 0;
}

const char *sysroot_strip(const struct sysroot *r, const char *path)
{
	size_t n = strlen(strempty(r->dir));

	if (n && strneq(path, r->dir, n) && path[n] == '/')
		return path + n;
	return path;
}
