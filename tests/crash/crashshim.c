// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD fault shim for the crash-consistency tier (tests/crash/run.py).
 *
 * It counts the calls that change a file below CRASH_ROOT, in the order the process
 * makes them, and kills the process with SIGKILL at the k-th one: a crash at that exact
 * point, with everything before it on disk (a kill loses no page cache) and nothing after.
 * Only calls whose file lies below CRASH_ROOT count: stdout, stderr, the journal socket
 * and this shim's own log never do.
 *
 *   CRASH_ROOT=DIR       absolute, canonical: the tree under test (required; unset: inert)
 *   CRASH_CALLS=LIST     which classes count, comma-separated (default: all four)
 *                          write   write pwrite pwrite64 writev pwritev pwritev64 pwritev2
 *                                  (libpci writes config space with pwrite64)
 *                          fsync   fsync fdatasync
 *                          rename  rename renameat renameat2
 *                          unlink  unlink unlinkat
 *   CRASH_AT=K           kill at the K-th counted call (1-based); unset: never
 *   CRASH_WHEN=before    kill before the call is made (default), or "after" it returned
 *   CRASH_LOG=FILE       append "N CLASS FUNCTION PATH" per counted call (N from 1);
 *                        a run without CRASH_AT gives the number of crash points
 *   CRASH_ENOSPC=LIST    write-class calls to a file whose path contains one of the
 *                        comma-separated strings fail with ENOSPC (a full disk there)
 *   CRASH_ENOSPC_FROM=J  ... from the J-th such write on (default 1): the disk fills mid-run
 *   CRASH_ENOSPC_SHORT=1 the first failing write stores half its bytes and returns that
 *                        short count, as ext4 does when the last blocks run out; later
 *                        ones fail with ENOSPC
 *
 * Calls glibc makes internally (stdio's flush, mkostemp's open) bypass the PLT and are
 * not seen; hostprep's own writes all go through these functions (check: CRASH_LOG).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

enum klass { K_WRITE, K_FSYNC, K_RENAME, K_UNLINK };
static const char *const klass_name[] = { "write", "fsync", "rename", "unlink" };

static unsigned long counted;	 /* counted calls so far */
static unsigned long enospc_seen; /* writes that matched CRASH_ENOSPC so far */
static bool short_done;

typedef ssize_t (*write_fn)(int, const void *, size_t);

static ssize_t raw_write(int fd, const void *buf, size_t n)
{
	static write_fn real;

	if (!real)
		real = (write_fn)dlsym(RTLD_NEXT, "write");
	return real(fd, buf, n);
}

static const char *root(void)
{
	const char *r = getenv("CRASH_ROOT");

	return r && r[0] == '/' ? r : NULL;
}

static bool below_root(const char *path)
{
	const char *r = root();
	size_t n = r ? strlen(r) : 0;

	return r && strncmp(path, r, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* dirfd + name as an absolute path (names are absolute or relative to dirfd/cwd). */
static bool at_path(int dirfd, const char *name, char *buf, size_t size)
{
	char dir[PATH_MAX];

	if (name[0] == '/') {
		snprintf(buf, size, "%s", name);
		return true;
	}
	if (dirfd == AT_FDCWD ? !getcwd(dir, sizeof(dir)) : !fd_path(dirfd, dir, sizeof(dir)))
		return false;
	return snprintf(buf, size, "%s/%s", dir, name) < (int)size;
}

static bool klass_on(enum klass k)
{
	const char *calls = getenv("CRASH_CALLS");
	const char *name = klass_name[k];
	size_t n = strlen(name);

	if (!calls || !*calls)
		return true;
	for (const char *p = calls; p; p = strchr(p, ',')) {
		p += *p == ',';
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

static void log_call(enum klass k, const char *func, const char *path)
{
	const char *log = getenv("CRASH_LOG");
	char line[PATH_MAX + 128];
	int fd, n;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%lu %s %s %s\n", counted, klass_name[k], func, path);
	raw_write(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	close(fd);
}

static void die(void)
{
	kill(getpid(), SIGKILL);
	for (;;)
		pause();
}

/*
 * Before a call: count it if it changes a file below the root; returns whether the caller
 * must kill the process after making the call.
 */
static bool pre(enum klass k, const char *func, const char *path)
{
	const char *at = getenv("CRASH_AT");
	const char *when = getenv("CRASH_WHEN");
	bool after = when && strcmp(when, "after") == 0;

	if (!path || !below_root(path) || !klass_on(k))
		return false;
	counted++;
	log_call(k, func, path);
	if (!at || strtoul(at, NULL, 10) != counted)
		return false;
	if (!after)
		die();
	return true;
}

static bool fd_pre(enum klass k, const char *func, int fd, char *path, size_t size)
{
	path[0] = '\0';
	if (!root() || !fd_path(fd, path, size))
		return false;
	return pre(k, func, path);
}

static bool path_matches(const char *path, const char *list)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save))
		if (*s && strstr(path, s))
			return true;
	return false;
}

/*
 * A write to a full disk: -1 (ENOSPC), or with CRASH_ENOSPC_SHORT the number of bytes of
 * the first failing write that still fit. 0: not affected, make the call.
 */
static int enospc(const char *path, size_t count, size_t *ret_short)
{
	const char *list = getenv("CRASH_ENOSPC");
	const char *from = getenv("CRASH_ENOSPC_FROM");
	const char *shortw = getenv("CRASH_ENOSPC_SHORT");

	if (!list || !path[0] || !path_matches(path, list))
		return 0;
	if (++enospc_seen < (from ? strtoul(from, NULL, 10) : 1))
		return 0;
	if (shortw && strcmp(shortw, "1") == 0 && !short_done && count > 1) {
		short_done = true;
		*ret_short = count / 2;
		return 1;
	}
	errno = ENOSPC;
	return -1;
}

#define REAL(type, name)                                                                           \
	static type real_##name;                                                                   \
	if (!real_##name)                                                                          \
	real_##name = (type)dlsym(RTLD_NEXT, #name)

/* The write-class body: count, maybe fail with ENOSPC (or write short), call, maybe die. */
#define WRITE_BODY(func, call, count, short_call)                                                  \
	do {                                                                                       \
		char path_[PATH_MAX];                                                              \
		bool kill_ = fd_pre(K_WRITE, func, fd, path_, sizeof(path_));                      \
		size_t short_ = 0;                                                                 \
		int full_ = enospc(path_, (count), &short_);                                       \
		ssize_t r_;                                                                        \
		int e_;                                                                            \
                                                                                                   \
		if (full_ < 0)                                                                     \
			r_ = -1;                                                                   \
		else if (full_ > 0)                                                                \
			r_ = (short_call);                                                         \
		else                                                                               \
			r_ = (call);                                                               \
		e_ = errno;                                                                        \
		if (kill_)                                                                         \
			die();                                                                     \
		errno = e_;                                                                        \
		return r_;                                                                         \
	} while (0)

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*pwritev64_fn)(int, const struct iovec *, int, off64_t);
typedef ssize_t (*pwritev2_fn)(int, const struct iovec *, int, off_t, int);
typedef int (*fd_fn)(int);
typedef int (*rename_fn)(const char *, const char *);
typedef int (*renameat_fn)(int, const char *, int, const char *);
typedef int (*renameat2_fn)(int, const char *, int, const char *, unsigned);
typedef int (*unlink_fn)(const char *);
typedef int (*unlinkat_fn)(int, const char *, int);

static size_t iov_len(const struct iovec *iov, int cnt)
{
	size_t n = 0;

	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	return n;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	WRITE_BODY("write", raw_write(fd, buf, count), count, raw_write(fd, buf, short_));
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	REAL(pwrite_fn, pwrite);
	WRITE_BODY("pwrite", real_pwrite(fd, buf, count, off), count,
		   real_pwrite(fd, buf, short_, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	REAL(pwrite64_fn, pwrite64);
	WRITE_BODY("pwrite64", real_pwrite64(fd, buf, count, off), count,
		   real_pwrite64(fd, buf, short_, off));
}

/* Vector writes: a short one stores the first iovec's first half (enough to tear a line). */
ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	REAL(writev_fn, writev);
	WRITE_BODY("writev", real_writev(fd, iov, cnt), iov_len(iov, cnt),
		   raw_write(fd, iov[0].iov_base, short_ < iov[0].iov_len ? short_ : iov[0].iov_len));
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	REAL(pwritev_fn, pwritev);
	WRITE_BODY("pwritev", real_pwritev(fd, iov, cnt, off), iov_len(iov, cnt), (errno = ENOSPC, -1));
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	REAL(pwritev64_fn, pwritev64);
	WRITE_BODY("pwritev64", real_pwritev64(fd, iov, cnt, off), iov_len(iov, cnt), (errno = ENOSPC, -1));
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	REAL(pwritev2_fn, pwritev2);
	WRITE_BODY("pwritev2", real_pwritev2(fd, iov, cnt, off, flags), iov_len(iov, cnt), (errno = ENOSPC, -1));
}

static int fd_call(const char *func, int fd, fd_fn real)
{
	char path[PATH_MAX];
	bool kill_ = fd_pre(K_FSYNC, func, fd, path, sizeof(path));
	int r = real(fd), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}

int fsync(int fd)
{
	REAL(fd_fn, fsync);
	return fd_call("fsync", fd, real_fsync);
}

int fdatasync(int fd)
{
	REAL(fd_fn, fdatasync);
	return fd_call("fdatasync", fd, real_fdatasync);
}

/* A rename counts when either end is below the root; the log names the target. */
static bool rename_pre(const char *func, int olddir, const char *old, int newdir, const char *new)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (!root() || !at_path(olddir, old, a, sizeof(a)) || !at_path(newdir, new, b, sizeof(b)))
		return false;
	return pre(K_RENAME, func, below_root(b) ? b : a);
}

int rename(const char *old, const char *new)
{
	REAL(rename_fn, rename);
	bool kill_ = rename_pre("rename", AT_FDCWD, old, AT_FDCWD, new);
	int r = real_rename(old, new), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}

int renameat(int olddir, const char *old, int newdir, const char *new)
{
	REAL(renameat_fn, renameat);
	bool kill_ = rename_pre("renameat", olddir, old, newdir, new);
	int r = real_renameat(olddir, old, newdir, new), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}

int renameat2(int olddir, const char *old, int newdir, const char *new, unsigned flags)
{
	REAL(renameat2_fn, renameat2);
	bool kill_ = rename_pre("renameat2", olddir, old, newdir, new);
	int r = real_renameat2(olddir, old, newdir, new, flags), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}

static bool unlink_pre(const char *func, int dirfd, const char *name)
{
	char p[PATH_MAX];

	if (!root() || !at_path(dirfd, name, p, sizeof(p)))
		return false;
	return pre(K_UNLINK, func, p);
}

int unlink(const char *path)
{
	REAL(unlink_fn, unlink);
	bool kill_ = unlink_pre("unlink", AT_FDCWD, path);
	int r = real_unlink(path), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}

int unlinkat(int dirfd, const char *name, int flags)
{
	REAL(unlinkat_fn, unlinkat);
	bool kill_ = unlink_pre("unlinkat", dirfd, name);
	int r = real_unlinkat(dirfd, name, flags), e = errno;

	if (kill_)
		die();
	errno = e;
	return r;
}
