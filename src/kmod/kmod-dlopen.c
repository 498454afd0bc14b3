// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>

#include "kmod/kmod-dlopen.h"
#include "log.h"

typeof(kmod_new) *sym_kmod_new;
typeof(kmod_unref) *sym_kmod_unref;
typeof(kmod_set_log_fn) *sym_kmod_set_log_fn;
typeof(kmod_load_resources) *sym_kmod_load_resources;
typeof(kmod_list_next) *sym_kmod_list_next;
typeof(kmod_module_new_from_name) *sym_kmod_module_new_from_name;
typeof(kmod_module_new_from_name_lookup) *sym_kmod_module_new_from_name_lookup;
typeof(kmod_module_unref) *sym_kmod_module_unref;
typeof(kmod_module_get_name) *sym_kmod_module_get_name;
typeof(kmod_module_get_path) *sym_kmod_module_get_path;
typeof(kmod_module_get_info) *sym_kmod_module_get_info;
typeof(kmod_module_info_get_key) *sym_kmod_module_info_get_key;
typeof(kmod_module_info_get_value) *sym_kmod_module_info_get_value;
typeof(kmod_module_info_free_list) *sym_kmod_module_info_free_list;
typeof(kmod_module_probe_insert_module) *sym_kmod_module_probe_insert_module;
typeof(kmod_module_remove_module) *sym_kmod_module_remove_module;

#define SYM(name) (void **)&sym_##name, #name

static const struct {
	void **ptr;
	const char *name;
} kmod_syms[] = {
	{ SYM(kmod_new) },
	{ SYM(kmod_unref) },
	{ SYM(kmod_set_log_fn) },
	{ SYM(kmod_load_resources) },
	{ SYM(kmod_list_next) },
	{ SYM(kmod_module_new_from_name) },
	{ SYM(kmod_module_new_from_name_lookup) },
	{ SYM(kmod_module_unref) },
	{ SYM(kmod_module_get_name) },
	{ SYM(kmod_module_get_path) },
	{ SYM(kmod_module_get_info) },
	{ SYM(kmod_module_info_get_key) },
	{ SYM(kmod_module_info_get_value) },
	{ SYM(kmod_module_info_free_list) },
	{ SYM(kmod_module_probe_insert_module) },
	{ SYM(kmod_module_remove_module) },
};

/* The result of the one attempt: 1 not tried yet, 0 loaded, <0 failed (already logged). */
static int kmod_loaded = 1;

static const char *dl_why(void)
{
	const char *e = dlerror();

	return e ? e : "not found";
}

static int load(void)
{
	void *dl = dlopen(KMOD_SONAME, RTLD_NOW | RTLD_NODELETE);

	if (!dl)
		return log_error_errno(-EOPNOTSUPP,
				       "Cannot load %s, needed by [Module:*] rules: %s "
				       "(install libkmod2 on Debian, kmod-libs on Fedora)",
				       KMOD_SONAME, dl_why());
	for (size_t i = 0; i < ARRAY_SIZE(kmod_syms); i++) {
		*kmod_syms[i].ptr = dlsym(dl, kmod_syms[i].name);
		if (!*kmod_syms[i].ptr) {
			log_error("%s lacks %s: %s", KMOD_SONAME, kmod_syms[i].name, dl_why());
			for (size_t j = 0; j <= i; j++)
				*kmod_syms[j].ptr = NULL;
			dlclose(dl);
			return -EOPNOTSUPP;
		}
	}
	/* Never closed: the pointers live as long as the process (RTLD_NODELETE too). */
	return 0;
}

int dlopen_libkmod(void)
{
	if (kmod_loaded > 0)
		kmod_loaded = load();
	return kmod_loaded;
}
