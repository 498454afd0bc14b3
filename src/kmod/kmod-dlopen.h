/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <libkmod.h>

#include "core/dlopen-lib.h"

/*
 * libkmod (and the libcrypto it links) is loaded with dlopen() the first time
 * a [Module:*] rule needs the module index, as systemd does: a run without
 * module rules (most boots, every health probe, status, config) maps neither.
 * The package still depends on it (dh_shlibdeps cannot see a dlopen'd library,
 * so packaging/ names it). Every libkmod call goes through these pointers.
 */
#define KMOD_SONAME "libkmod.so.2"

#define KMOD_SYMS(X)                        \
	X(kmod_new)                         \
	X(kmod_unref)                       \
	X(kmod_set_log_fn)                  \
	X(kmod_load_resources)              \
	X(kmod_list_next)                   \
	X(kmod_module_new_from_name)        \
	X(kmod_module_new_from_name_lookup) \
	X(kmod_module_unref)                \
	X(kmod_module_get_name)             \
	X(kmod_module_get_path)             \
	X(kmod_module_get_options)          \
	X(kmod_module_get_info)             \
	X(kmod_module_info_get_key)         \
	X(kmod_module_info_get_value)       \
	X(kmod_module_info_free_list)       \
	X(kmod_module_probe_insert_module)  \
	X(kmod_module_remove_module)

KMOD_SYMS(DLOPEN_DECLARE)

/*
 * Load libkmod once per process and resolve every symbol above. 0, or
 * -EOPNOTSUPP (logged once, naming the library and dlerror()) when it is not
 * installed or lacks a symbol.
 */
int dlopen_libkmod(void);

/* _cleanup_ helpers of libkmod's types, through the loaded symbols; NULL-safe. */
static inline void kmod_ctx_unrefp(struct kmod_ctx **c)
{
	if (*c)
		sym_kmod_unref(*c);
}

static inline void kmod_module_unrefp(struct kmod_module **m)
{
	if (*m)
		sym_kmod_module_unref(*m);
}

/* A list from kmod_module_get_info(). */
static inline void kmod_info_freep(struct kmod_list **l)
{
	if (*l)
		sym_kmod_module_info_free_list(*l);
}
