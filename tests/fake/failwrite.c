// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for tests/fake/run.sh: every write to a file named
 * "config" fails with EPERM, which is what a kernel in lockdown (integrity
 * mode, usual with Secure Boot) answers to a PCI config-space write.
 * Covers pwrite/pwrite64/write/pwritev/pwritev2. Build:
 *   cc -shared -fPIC -o failwrite.so failwrite.c -ldl
 * FAILWRITE_LOG=FILE appends one line per refused write.
 * FAILWRITE_KILL=1 instead kills the process (SIGKILL) at its first write to
 * a config file: a crash at the worst moment, after the original is recorded.
 * FAILWRITE_KILL_PATH=STRING kills the process at its first write to any file
 * whose path contains STRING (e.g. "modprobe.d/hostprep.conf": the temp file
 * of an atomic write), whatever its name; other files are written normally.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int is_config_fd(int fd)
{
	char link[64], path[4096];
	ssize_t n;
	const char *base;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	{
		const char *kill_path = getenv("FAILWRITE_KILL_PATH");
		if (kill_path && *kill_path && strstr(path, kill_path))
			raise(SIGKILL);
	}
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strcmp(base, "config") != 0)
		return 0;
	if (getenv("FAILWRITE_KILL"))
		raise(SIGKILL);
	{
		const char *log = getenv("FAILWRITE_LOG");
		if (log) {
			FILE *f = fopen(log, "ae");
			if (f) {
				fprintf(f, "EPERM %s\n", path);
				fclose(f);
			}
		}
	}
	return 1;
}

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*pwritev2_fn)(int, const struct iovec *, int, off_t, int);

#define REAL(name)                                                      \
	static name##_fn real_##name;                                   \
	if (!real_##name)                                               \
		real_##name = (name##_fn)dlsym(RTLD_NEXT, #name)

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	REAL(pwrite);
	if (is_config_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	return real_pwrite(fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	REAL(pwrite64);
	if (is_config_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	return real_pwrite64(fd, buf, count, off);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	REAL(write);
	if (fd > 2 && is_config_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	return real_write(fd, buf, count);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	REAL(pwritev);
	if (is_config_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	return real_pwritev(fd, iov, cnt, off);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	REAL(pwritev2);
	if (is_config_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	return real_pwritev2(fd, iov, cnt, off, flags);
}
