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
	[SYSROOT_EFI] = "/efi",
};

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

static sysroot_data_recorder_t data_recorder;
static void *data_recorder_ud;

void sysroot_set_data_recorder(sysroot_data_recorder_t fn, void *userdata)
{
	data_recorder = fn;
	data_recorder_ud = userdata;
}

void sysroot_note_data(enum sysroot_top top, const char *rel, const char *data, size_t size)
{
	_cleanup_(freep) char *p = NULL;

	if (data_recorder && asprintf(&p, "%s/%s", top_dirs[top] + 1, rel) >= 0)
		data_recorder(p, data, size, data_recorder_ud);
}

bool sysroot_data_recording(void)
{
	return data_recorder;
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

/*
 * openat2(2) is missing before Linux 5.6, and a container runtime's seccomp filter may
 * answer ENOSYS or EPERM for it (a real openat2 has no EPERM for O_PATH): the call that
 * opens the root itself tells, so the probe costs no syscall of its own.
 */
static int open_root_dir(struct sysroot *r, const char *dir)
{
	long fd = sys_openat2(AT_FDCWD, dir, O_PATH | O_DIRECTORY, 0);

	if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
		r->no_openat2 = true;
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	return fd < 0 ? -errno : (int)fd;
}

/*
 * The canonical form of a --root below a symlink: realpath() results (rdma, apply) and
 * the fallback's checks are compared with it. NULL when dir is canonical already.
 */
static int root_canonical(struct sysroot *r)
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
	int fd = open_root_dir(r, r->dir[0] ? r->dir : "/");

	if (fd >= 0) {
		r->fd = fd;
		r->fd_open = true;
		fd = r->dir[0] ? root_canonical(r) : 0;
	}
	if (fd < 0) {
		sysroot_done(r);
		return fd;
	}
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

/*
 * What fd stands for, as a path: its /proc/self/fd link. Only for the answers that need a
 * path (sysroot_canonical(), a link that climbed out of a directory), never per read.
 */
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

/* ---- resolution below the root ------------------------------------------ */

/* Plain *at(2) calls: the host (nothing to leave), or a hand-built struct (messages). */
static bool plain(const struct sysroot *r)
{
	return !r->fd_open || sysroot_is_host(r);
}

/* One name without a '/' that is not "..": looked up in dfd itself, no link on the way. */
static bool one_name(const char *path)
{
	return path[0] && !strchr(path, '/') && !streq(path, "..");
}

static int plain_open(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, flags | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

#define WALK_LINKS_MAX 40 /* as the kernel's MAXSYMLINKS */

/* A walk without openat2: where it is and what is left. */
struct walk {
	const struct sysroot *r;
	bool beneath;	/* it started below the root: leaving the start is -EXDEV */
	int cur;	/* O_PATH of the directory reached */
	unsigned depth; /* levels below the start */
	unsigned links;
	char *todo; /* the rest of the path (malloc'd) */
	char *at;   /* the next component in todo */
};

static int walk_move(struct walk *w, int fd)
{
	if (fd < 0)
		return -errno;
	close(w->cur);
	w->cur = fd;
	return 0;
}

/* ".." from the start of an IN_ROOT walk is the root again, as in chroot(2). */
static int walk_up(struct walk *w)
{
	if (w->depth == 0)
		return w->beneath ? -EXDEV : 0;
	w->depth--;
	return walk_move(w, openat(w->cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
}

/* The link's target replaces its name in what is left to walk. */
static int walk_link(struct walk *w, int fd)
{
	char target[PATH_MAX];
	char *todo = NULL;
	ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (++w->links > WALK_LINKS_MAX)
		return -ELOOP;
	if (target[0] == '/') {
		int k;

		if (w->beneath)
			return -EXDEV;
		w->depth = 0;
		k = walk_move(w, openat(w->r->fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
		if (k < 0)
			return k;
	}
	if (asprintf(&todo, "%s/%s", target, w->at) < 0)
		return -ENOMEM;
	free(w->todo);
	w->todo = w->at = todo;
	return 0;
}

/* The last component, not a link: opened as asked, never following one there now. */
static int walk_last(struct walk *w, int fd, const struct stat *st, const char *name, int flags)
{
	if (flags & O_PATH) {
		if ((flags & O_DIRECTORY) && !S_ISDIR(st->st_mode)) {
			close(fd);
			return -ENOTDIR;
		}
		return fd;
	}
	close(fd);
	return plain_open(w->cur, name, flags | O_NOFOLLOW);
}

/* One component; 1 when it was the last and *ret is the fd. */
static int walk_step(struct walk *w, char *name, bool last, int flags, int *ret)
{
	struct stat st;
	int fd;

	if (streq(name, "."))
		return 0;
	if (streq(name, ".."))
		return walk_up(w);
	fd = openat(w->cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	if (S_ISLNK(st.st_mode) && !(last && (flags & O_NOFOLLOW))) {
		int r = walk_link(w, fd);

		close(fd);
		return r;
	}
	if (last) {
		*ret = walk_last(w, fd, &st, name, flags);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	w->depth++;
	return walk_move(w, fd);
}

/*
 * Without openat2: the resolution it would do, component by component (O_PATH |
 * O_NOFOLLOW, readlinkat() of each link, ".." by depth), the way systemd's chaseat()
 * does. A rename racing the walk could move a directory it is in out of the root: the
 * kernels that need this are the ones that cannot do better.
 */
static int walk_open(const struct sysroot *r, int dfd, const char *path, int flags, bool beneath)
{
	struct walk w = { .r = r, .beneath = beneath, .cur = -1 };
	int ret = -1, k = 0;

	if (path[0] == '/' && beneath)
		return -EXDEV;
	w.todo = w.at = strdup(path);
	if (!w.todo)
		return -ENOMEM;
	w.cur = openat(path[0] == '/' ? r->fd : dfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.cur < 0)
		k = -errno;
	while (k == 0) {
		size_t n;
		char *name;

		w.at += strspn(w.at, "/");
		n = strcspn(w.at, "/");
		if (n == 0) { /* nothing left: the directory reached */
			ret = plain_open(w.cur, ".", flags);
			break;
		}
		name = w.at;
		w.at += n;
		if (*w.at)
			*w.at++ = '\0';
		k = walk_step(&w, name, w.at[strspn(w.at, "/")] == '\0', flags, &ret);
	}
	if (k < 0)
		ret = k;
	free(w.todo);
	if (w.cur >= 0)
		close(w.cur);
	return ret;
}

/* One resolution from dfd: openat2 (EAGAIN: a rename raced a ".." check, again), or a walk. */
static int resolve(const struct sysroot *r, int dfd, const char *path, int flags, bool beneath)
{
	unsigned long long how =
		(beneath ? RESOLVE_BENEATH : RESOLVE_IN_ROOT) | RESOLVE_NO_MAGICLINKS;
	long fd = -1;

	if (r->no_openat2)
		return walk_open(r, dfd, path, flags, beneath);
	for (int tries = 0; tries < 8; tries++) {
		fd = sys_openat2(dfd, path, flags, how);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd < 0 ? -errno : (int)fd;
}

static const char *root_real(const struct sysroot *r)
{
	return r->real ? r->real : r->dir;
}

/*
 * path climbed out of dfd (a sysfs link such as iommu_groups/N/devices/X ->
 * ../../../../devices/...): resolve it again from the root, as dfd's place in the root
 * plus path. Only such reads pay for the readlink of dfd.
 */
static int resolve_again(const struct sysroot *r, int dfd, const char *path, int flags)
{
	_cleanup_(freep) char *full = NULL;
	char dir[PATH_MAX];
	const char *rel;
	int k;

	if (path[0] == '/')
		return resolve(r, r->fd, path, flags, false);
	k = fd_path(dfd, dir);
	if (k < 0)
		return k;
	if (!below(dir, root_real(r), &rel))
		return -EXDEV; /* not a directory of this root */
	if (asprintf(&full, "%s/%s", rel, path) < 0)
		return -ENOMEM;
	return resolve(r, r->fd, full, flags, false);
}

int sysroot_open_at(const struct sysroot *r, int dfd, const char *path, int flags)
{
	int fd;

	if (plain(r))
		return plain_open(dfd, path, flags);
	if (dfd == r->fd)
		return resolve(r, dfd, path, flags, false);
	if (dfd < 0)
		return -EBADF; /* AT_FDCWD: not a directory of the root */
	fd = resolve(r, dfd, path, flags, true);
	return fd == -EXDEV ? resolve_again(r, dfd, path, flags) : fd;
}

static int fd_to_dir(int fd, DIR **ret)
{
	if (fd < 0)
		return fd;
	*ret = fdopendir(fd);
	if (!*ret) {
		int r = -errno;

		close(fd);
		return r;
	}
	return 0;
}

int sysroot_opendir_at(const struct sysroot *r, int dfd, const char *path, DIR **ret)
{
	return fd_to_dir(sysroot_open_at(r, dfd, path, O_RDONLY | O_DIRECTORY | O_NONBLOCK), ret);
}

int sysroot_stat_at(const struct sysroot *r, int dfd, const char *path, int at_flags,
		    struct stat *ret)
{
	bool nofollow = at_flags & AT_SYMLINK_NOFOLLOW;
	_cleanup_(closep) int fd = -1;

	if (plain(r) || (nofollow && one_name(path)))
		return fstatat(dfd, path, ret, at_flags) < 0 ? -errno : 0;
	fd = sysroot_open_at(r, dfd, path, O_PATH | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return fd;
	return fstat(fd, ret) < 0 ? -errno : 0;
}

static int link_text(ssize_t n, char *buf, size_t size)
{
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return (int)n;
}

int sysroot_readlink_at(const struct sysroot *r, int dfd, const char *path, char *buf, size_t size)
{
	_cleanup_(closep) int fd = -1;
	int k;

	if (size < 2)
		return -EINVAL;
	if (plain(r) || one_name(path))
		return link_text(readlinkat(dfd, path, buf, size - 1), buf, size);
	fd = sysroot_open_at(r, dfd, path, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	k = link_text(readlinkat(fd, "", buf, size - 1), buf, size);
	return k == -ENOENT ? -EINVAL : k; /* "" of an fd that is no link: readlink(2)'s EINVAL */
}

int sysroot_link_name_at(const struct sysroot *r, int dfd, const char *path, char *buf, size_t size)
{
	char link[PATH_MAX];
	const char *slash;
	int n = sysroot_readlink_at(r, dfd, path, link, sizeof(link));

	if (n < 0)
		return n;
	slash = strrchr(link, '/');
	slash = slash ? slash + 1 : link;
	if (strlen(slash) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, slash, strlen(slash) + 1);
	return 0;
}

/* ---- "<top>/<fmt...>" below the root ------------------------------------- */

/*
 * The path the calls below open: "sys/<rel>" from the root's fd, or "<dir>/sys/<rel>"
 * for a hand-built struct; *ret_dfd where it starts. Recorded for a snapshot.
 */
_printf_(3, 0) static int top_path(const struct sysroot *r, enum sysroot_top top, const char *fmt,
				   va_list ap, char **ret, int *ret_dfd)
{
	_cleanup_(freep) char *rel = NULL;
	int n;

	if (top < 0 || top >= _SYSROOT_TOP_MAX)
		return -EINVAL;
	if (vasprintf(&rel, fmt, ap) < 0)
		return -ENOMEM;
	record_rel(top, rel);
	if (r->fd_open)
		n = asprintf(ret, "%s%s%s", top_dirs[top] + 1, rel[0] ? "/" : "", rel);
	else
		n = asprintf(ret, "%s%s%s%s", strempty(r->dir), top_dirs[top], rel[0] ? "/" : "",
			     rel);
	*ret_dfd = r->fd_open ? r->fd : AT_FDCWD;
	return n < 0 ? -ENOMEM : 0;
}

int sysroot_openat(const struct sysroot *r, enum sysroot_top top, int flags, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : sysroot_open_at(r, dfd, path, flags);
}

int sysroot_opendir(const struct sysroot *r, enum sysroot_top top, DIR **ret, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : sysroot_opendir_at(r, dfd, path, ret);
}

int sysroot_scandir(const struct sysroot *r, enum sysroot_top top, struct dirent ***ret,
		    int (*filter)(const struct dirent *),
		    int (*compar)(const struct dirent **, const struct dirent **), const char *fmt,
		    ...)
{
	_cleanup_(freep) char *path = NULL;
	_cleanup_(closep) int fd = -1;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	fd = sysroot_open_at(r, dfd, path, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	k = scandirat(fd, ".", ret, filter, compar); /* "." of a directory of the root */
	return k < 0 ? -errno : k;
}

int sysroot_stat(const struct sysroot *r, enum sysroot_top top, int at_flags, struct stat *ret,
		 const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : sysroot_stat_at(r, dfd, path, at_flags, ret);
}

static int exists_at(const struct sysroot *r, int dfd, const char *path)
{
	_cleanup_(closep) int fd = -1;

	if (plain(r)) /* access(2): one syscall */
		return faccessat(dfd, path, F_OK, 0) == 0 ? 1 : errno == ENOENT ? 0 : -errno;
	fd = sysroot_open_at(r, dfd, path, O_PATH);
	return fd >= 0 ? 1 : fd == -ENOENT ? 0 : fd;
}

int sysroot_exists(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : exists_at(r, dfd, path);
}

int sysroot_readlink(const struct sysroot *r, enum sysroot_top top, char *buf, size_t size,
		     const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : sysroot_readlink_at(r, dfd, path, buf, size);
}

/* The real path of what dfd/path leads to, relative to the root ("/" the root itself). */
static int canonical_at(const struct sysroot *r, int dfd, const char *path, char **ret)
{
	_cleanup_(closep) int fd = sysroot_open_at(r, dfd, path, O_PATH);
	char real[PATH_MAX];
	const char *rel;
	int k;

	if (fd < 0)
		return fd;
	k = fd_path(fd, real);
	if (k < 0)
		return k;
	if (plain(r))
		return (*ret = strdup(real)) ? 0 : -ENOMEM;
	if (!below(real, root_real(r), &rel))
		return -EXDEV; /* moved out of the root meanwhile */
	return asprintf(ret, "/%s", streq(rel, ".") ? "" : rel) < 0 ? -ENOMEM : 0;
}

int sysroot_canonical(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	return k < 0 ? k : canonical_at(r, dfd, path, ret);
}

/* sysroot_lib_path() of dfd/path (path modified: cut at its last '/'). */
static int lib_path_at(const struct sysroot *r, int dfd, char *path, char **ret)
{
	_cleanup_(freep) char *real = NULL, *parent = NULL;
	struct stat st;
	char *slash;
	int k = canonical_at(r, dfd, path, &real);

	if (k >= 0)
		return asprintf(ret, "%s%s", plain(r) ? "" : root_real(r), real) < 0 ? -ENOMEM : 0;
	if (k != -ENOENT || sysroot_stat_at(r, dfd, path, AT_SYMLINK_NOFOLLOW, &st) != -ENOENT)
		return k; /* not "nothing there": a dangling link, a loop */
	slash = strrchr(path, '/');
	if (!slash) /* right below the root */
		return asprintf(ret, "%s/%s", root_real(r), path) < 0 ? -ENOMEM : 0;
	*slash = '\0';
	k = lib_path_at(r, dfd, path, &parent);
	if (k < 0)
		return k;
	return asprintf(ret, "%s/%s", parent, slash + 1) < 0 ? -ENOMEM : 0;
}

int sysroot_lib_path(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		     ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	if (plain(r)) /* the host: no link there leaves the root, the path as it is */
		return asprintf(ret, "%s%s", path[0] == '/' ? "" : "/", path) < 0 ? -ENOMEM : 0;
	return lib_path_at(r, dfd, path, ret);
}

bool sysroot_lib_path_direct(const struct sysroot *r, const char *path)
{
	_cleanup_(freep) char *real = NULL;
	const char *rel;

	if (plain(r))
		return true;
	if (!below(path, root_real(r), &rel) && !below(path, r->dir, &rel))
		return false;
	return canonical_at(r, r->fd, rel, &real) >= 0 && streq(real + 1, rel);
}

/* What st says of a file a library would open: 0 a regular file, else why not. */
static int regular_or_why(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -EBADFD;
}

/* path opened as a library's open(2) of it reaches it, but no link out of the root. */
static int lib_open(const struct sysroot *r, const char *path, int flags)
{
	const char *rel;

	if (plain(r))
		return plain_open(AT_FDCWD, path, flags);
	if (below(path, root_real(r), &rel) || below(path, r->dir, &rel))
		return resolve(r, r->fd, rel, flags, true);
	return -EXDEV;
}

int sysroot_lib_file_check(const struct sysroot *r, const char *path)
{
	_cleanup_(closep) int fd = lib_open(r, path, O_PATH);
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	return regular_or_why(&st);
}

/* Refusals only: nothing there, a directory or an error the library's open(2) meets too. */
static bool lib_refused(int k)
{
	return k == -EXDEV || k == -EBADFD;
}

static int lib_entry_check(const struct sysroot *r, const char *dir, const char *name)
{
	_cleanup_(freep) char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	return sysroot_lib_file_check(r, path);
}

int sysroot_lib_dir_check(const struct sysroot *r, const char *dir, bool (*wanted)(const char *),
			  char **ret_name)
{
	_cleanup_(dir_entries_done) struct dir_entries l = {};
	_cleanup_(closep) int fd = lib_open(r, dir, O_RDONLY | O_DIRECTORY);
	int k;

	*ret_name = NULL;
	if (fd < 0) /* the directory itself refused (name NULL), or the library lists nothing */
		return lib_refused(fd) ? fd : 0;
	k = read_dir_fd(fd, &l);
	if (k < 0)
		return k == -ENOMEM ? k : 0;
	for (size_t i = 0; i < l.n; i++) {
		if (!wanted(l.v[i].name))
			continue;
		k = lib_entry_check(r, dir, l.v[i].name);
		if (k == -ENOMEM)
			return k;
		if (lib_refused(k)) {
			*ret_name = strdup(l.v[i].name);
			return *ret_name ? k : -ENOMEM;
		}
	}
	return 0;
}

/* The file opened for reading: never blocking in open(2) (a FIFO), checked by the reader. */
static int open_read(const struct sysroot *r, int dfd, const char *path)
{
	return sysroot_open_at(r, dfd, path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
}

int sysroot_read_attr(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...)
{
	_cleanup_(freep) char *path = NULL;
	_cleanup_(closep) int fd = -1;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	fd = open_read(r, dfd, path);
	return fd < 0 ? fd : read_one_line_fd(fd, ret);
}

int sysroot_read_file(const struct sysroot *r, enum sysroot_top top, size_t max, char **ret,
		      size_t *ret_size, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	_cleanup_(closep) int fd = -1;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	fd = open_read(r, dfd, path);
	return fd < 0 ? fd : read_full_fd(fd, max, ret, ret_size);
}

int sysroot_fopen(const struct sysroot *r, enum sysroot_top top, FILE **ret, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	_cleanup_(closep) int fd = -1;
	struct stat st;
	va_list ap;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	fd = open_read(r, dfd, path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
	*ret = fdopen(fd, "re");
	if (!*ret)
		return -errno;
	TAKE_FD(fd);
	return 0;
}

/* One level of mkdir -p: the directory name in dfd, made when missing. */
static int mkdir_at(const struct sysroot *r, int dfd, const char *name, mode_t mode)
{
	int fd = sysroot_open_at(r, dfd, name, O_RDONLY | O_DIRECTORY);

	if (fd != -ENOENT)
		return fd;
	/* EEXIST: made meanwhile, or a dangling link (then -ENOENT below: not followed) */
	if (mkdirat(dfd, name, mode) < 0 && errno != EEXIST)
		return -errno;
	return sysroot_open_at(r, dfd, name, O_RDONLY | O_DIRECTORY);
}

int sysroot_mkdirs(const struct sysroot *r, enum sysroot_top top, mode_t mode, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	va_list ap;
	int dfd, cur, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	if (!r->fd_open)
		return -EBADF;
	cur = dfd; /* the root's fd, not ours to close */
	for (char *save = NULL, *c = strtok_r(path, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		k = mkdir_at(r, cur, c, mode);
		if (cur != dfd)
			close(cur);
		if (k < 0)
			return k;
		cur = k;
	}
	return cur == dfd ? plain_open(dfd, ".", O_RDONLY | O_DIRECTORY) : cur;
}

int sysroot_unlink(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
{
	_cleanup_(freep) char *path = NULL;
	_cleanup_(closep) int fd = -1;
	va_list ap;
	char *slash;
	int dfd, k;

	va_start(ap, fmt);
	k = top_path(r, top, fmt, ap, &path, &dfd);
	va_end(ap);
	if (k < 0)
		return k;
	slash = strrchr(path, '/'); /* "run/x" at least: the top is there */
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	fd = sysroot_open_at(r, dfd, path, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd;
	return unlinkat(fd, slash + 1, 0) < 0 ? -errno : 0;
}

const char *sysroot_self_fd_dir(void)
{
	return "/proc/self/fd";
}

bool sysroot_link_is_null(const char *target)
{
	return streq(target, "/dev/null");
}

const char *sysroot_strip(const struct sysroot *r, const char *path)
{
	size_t n = strlen(strempty(r->dir)), k = strlen(strempty(r->real));

	if (n && strneq(path, r->dir, n) && path[n] == '/')
		return path + n;
	if (k && strneq(path, r->real, k) && path[k] == '/') /* sysroot_lib_path()'s */
		return path + k;
	return path;
}

int sysroot_boot_time(const struct sysroot *r, long long *ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t size = 0;
	const char *b;
	int k = sysroot_read_file(r, SYSROOT_PROC, 4 << 20, &data, &size, "stat");

	*ret = 0;
	if (k < 0)
		return k == -ENOMEM ? k : 0;
	b = strstr(data, "\nbtime ");
	if (b && sscanf(b + 7, "%lld", ret) != 1)
		*ret = 0;
	return 0;
}
