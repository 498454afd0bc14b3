/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/*
 * Libraries loaded with dlopen() on first use (libkmod, libibverbs), as systemd
 * does for its optional libraries. A library's header lists its symbols once,
 * as X(name) entries of a LIST(X) macro, and expands that list three times:
 *
 *   LIST(DLOPEN_DECLARE)   in the header: extern typeof(name) *sym_name;
 *   LIST(DLOPEN_DEFINE)    in its .c:     typeof(name) *sym_name;
 *   LIST(DLOPEN_ENTRY)     in its .c:     the table dlopen_lib() fills
 *
 * so a pointer that is declared is always resolved (a pointer left out of a
 * hand-kept table was NULL and crashed the first verbs port query).
 */
struct dlopen_sym {
	void **ptr;
	const char *name;
};

#define DLOPEN_DECLARE(name) extern typeof(name) *sym_##name;
#define DLOPEN_DEFINE(name)  typeof(name) *sym_##name;
#define DLOPEN_ENTRY(name)   { (void **)&sym_##name, #name },

struct dlopen_lib {
	const char *soname;
	const char *needed_by; /* "[Module:*] rules" */
	const char *install;   /* "libkmod2 on Debian, kmod-libs on Fedora" */
	const struct dlopen_sym *syms;
	size_t n_syms;
	int state; /* 1 not tried yet, 0 loaded, <0 failed (already logged) */
};

/*
 * The pointers of LIST (defined here) and the library's one static struct dlopen_lib var,
 * in the library's .c file.
 */
#define DLOPEN_LIB(var, LIST, soname_, needed_by_, install_)                  \
	LIST(DLOPEN_DEFINE)                                                   \
	static const struct dlopen_sym var##_syms[] = { LIST(DLOPEN_ENTRY) }; \
	static struct dlopen_lib var = {                                      \
		.soname = (soname_),                                          \
		.needed_by = (needed_by_),                                    \
		.install = (install_),                                        \
		.syms = var##_syms,                                           \
		.n_syms = sizeof(var##_syms) / sizeof(var##_syms[0]),         \
		.state = 1,                                                   \
	}

/*
 * Load the library once per process and resolve every symbol: 0, or
 * -EOPNOTSUPP (logged once at the given level, naming the library, what needs
 * it, dlerror() and the package to install). On failure every pointer is NULL.
 */
int dlopen_lib(struct dlopen_lib *lib, int level);
