/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <libkmod.h>

/*
 * libkmod (and the libcrypto it links) is loaded with dlopen() the first time
 * a [Module:*] rule needs the module index, as systemd does: a run without
 * module rules (most boots, every health probe, status, config) maps neither.
 * The package still depends on it (dh_shlibdeps cannot see a dlopen'd library,
 * so packaging/ names it). Every libkmod call goes through these pointers.
 */
#define KMOD_SONAME "libkmod.so.2"

extern typeof(kmod_new) *sym_kmod_new;
extern typeof(kmod_unref) *sym_kmod_unref;
extern typeof(kmod_set_log_fn) *sym_kmod_set_log_fn;
extern typeof(kmod_load_resources) *sym_kmod_load_resources;
extern typeof(kmod_list_next) *sym_kmod_list_next;
extern typeof(kmod_module_new_from_name) *sym_kmod_module_new_from_name;
extern typeof(kmod_module_new_from_name_lookup) *sym_kmod_module_new_from_name_lookup;
extern typeof(kmod_module_unref) *sym_kmod_module_unref;
extern typeof(kmod_module_get_name) *sym_kmod_module_get_name;
extern typeof(kmod_module_get_path) *sym_kmod_module_get_path;
extern typeof(kmod_module_get_info) *sym_kmod_module_get_info;
extern typeof(kmod_module_info_get_key) *sym_kmod_module_info_get_key;
extern typeof(kmod_module_info_get_value) *sym_kmod_module_info_get_value;
extern typeof(kmod_module_info_free_list) *sym_kmod_module_info_free_list;
extern typeof(kmod_module_probe_insert_module) *sym_kmod_module_probe_insert_module;
extern typeof(kmod_module_remove_module) *sym_kmod_module_remove_module;

/*
 * Load libkmod once per process and resolve every symbol above. 0, or
 * -EOPNOTSUPP (logged once, naming the library and dlerror()) when it is not
 * installed or lacks a symbol.
 */
int dlopen_libkmod(void);
