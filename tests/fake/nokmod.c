// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim: libkmod is not installed. dlopen() of any libkmod fails like
 * a missing file; every other dlopen() goes through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

void *dlopen(const char *file, int flags)
{
	static void *(*real)(const char *, int);

	if (file && strstr(file, "libkmod"))
		return NULL;
	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	return real(file, flags);
}
