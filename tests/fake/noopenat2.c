// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for the fake tier: syscall(SYS_openat2, ...) fails with ENOSYS, as on
 * Linux before 5.6 or under a container's seccomp filter, so a case can run hostprep's
 * checked fallback for --root containment. Every other syscall() goes through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	if (n == SYS_openat2) {
		errno = ENOSYS;
		return -1;
	}
	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
