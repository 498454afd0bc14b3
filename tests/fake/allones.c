// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for tests/fake/cases: a PCI function that stops answering
 * between the plan and the write. Once the process has opened a path
 * containing ALLONES_AFTER (e.g. "acs-originals": apply opens the record
 * after it planned), every read of a config file whose path contains
 * ALLONES_DEV returns all-ones past the first 256 bytes, as a device that
 * fell off the bus reads. Build: cc -shared -fPIC -o allones.so allones.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static int triggered;

static void note_open(const char *path)
{
	const char *after = getenv("ALLONES_AFTER");

	if (after && path && strstr(path, after))
		triggered = 1;
}

static int is_target(int fd)
{
	const char *dev = getenv("ALLONES_DEV");
	char link[64], path[4096];
	ssize_t n;

	if (!triggered || !dev)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return strstr(path, dev) && strstr(path, "/config");
}

static ssize_t mask(int fd, void *buf, ssize_t got, off_t off)
{
	if (got <= 0 || !is_target(fd))
		return got;
	for (ssize_t i = 0; i < got; i++)
		if (off + i >= 0x100)
			((unsigned char *)buf)[i] = 0xff;
	return got;
}

#define OPEN_WRAPPER(name)                                                               \
	int name(const char *path, int flags, ...)                                       \
	{                                                                                \
		static int (*real)(const char *, int, ...);                              \
		mode_t mode = 0;                                                         \
		if (!real)                                                               \
			real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		if (flags & O_CREAT) {                                                   \
			va_list ap;                                                      \
			va_start(ap, flags);                                             \
			mode = va_arg(ap, mode_t);                                       \
			va_end(ap);                                                      \
		}                                                                        \
		note_open(path);                                                         \
		return real(path, flags, mode);                                          \
	}

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)                                                                  \
	int name(int dirfd, const char *path, int flags, ...)                                 \
	{                                                                                     \
		static int (*real)(int, const char *, int, ...);                              \
		mode_t mode = 0;                                                              \
		if (!real)                                                                    \
			real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		if (flags & O_CREAT) {                                                        \
			va_list ap;                                                           \
			va_start(ap, flags);                                                  \
			mode = va_arg(ap, mode_t);                                            \
			va_end(ap);                                                           \
		}                                                                             \
		note_open(path);                                                              \
		return real(dirfd, path, flags, mode);                                        \
	}

OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

/* Under --root hostprep opens through openat2(2) (containment), which glibc reaches only
 * by syscall(): note those paths too. */
long syscall(long n, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_openat2)
		note_open((const char *)a[1]);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t pread(int fd, void *buf, size_t count, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);

	if (!real)
		real = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	return mask(fd, buf, real(fd, buf, count, off), off);
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t off)
{
	static ssize_t (*real)(int, void *, size_t, off64_t);

	if (!real)
		real = (ssize_t(*)(int, void *, size_t, off64_t))dlsym(RTLD_NEXT, "pread64");
	return mask(fd, buf, real(fd, buf, count, off), off);
}
