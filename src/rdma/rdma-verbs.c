// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>

#include "log.h"
#include "rdma/rdma-verbs.h"

typeof(ibv_get_device_list) *sym_ibv_get_device_list;
typeof(ibv_free_device_list) *sym_ibv_free_device_list;
typeof(ibv_get_device_name) *sym_ibv_get_device_name;
typeof(ibv_open_device) *sym_ibv_open_device;
typeof(ibv_close_device) *sym_ibv_close_device;
typeof(ibv_get_async_event) *sym_ibv_get_async_event;
typeof(ibv_ack_async_event) *sym_ibv_ack_async_event;
typeof(ibv_event_type_str) *sym_ibv_event_type_str;
typeof(ibv_query_port) *sym_ibv_query_port;
typeof(_ibv_query_gid_ex) *sym__ibv_query_gid_ex;

#define SYM(name) (void **)&sym_##name, #name

static const struct {
	void **ptr;
	const char *name;
} verbs_syms[] = {
	{ SYM(ibv_get_device_list) }, { SYM(ibv_free_device_list) }, { SYM(ibv_get_device_name) },
	{ SYM(ibv_open_device) },     { SYM(ibv_close_device) },     { SYM(ibv_get_async_event) },
	{ SYM(ibv_ack_async_event) }, { SYM(ibv_event_type_str) },
};

/* 1 not tried yet, 0 loaded, <0 failed (already logged). */
static int verbs_loaded = 1;

static int load(void)
{
	void *dl = dlopen(VERBS_SONAME, RTLD_NOW | RTLD_NODELETE);
	const char *e;

	if (!dl) {
		e = dlerror();
		return log_warning_errno(-EOPNOTSUPP,
					 "Cannot load %s: %s (install libibverbs1 on Debian, "
					 "libibverbs on Fedora); RDMA ports are re-checked on link "
					 "events only",
					 VERBS_SONAME, e ? e : "not found");
	}
	for (size_t i = 0; i < ARRAY_SIZE(verbs_syms); i++) {
		*verbs_syms[i].ptr = dlsym(dl, verbs_syms[i].name);
		if (!*verbs_syms[i].ptr) {
			e = dlerror();
			log_warning("%s lacks %s: %s", VERBS_SONAME, verbs_syms[i].name,
				    e ? e : "not found");
			for (size_t j = 0; j <= i; j++)
				*verbs_syms[j].ptr = NULL;
			dlclose(dl);
			return -EOPNOTSUPP;
		}
	}
	return 0; /* never closed: the pointers live as long as the process */
}

int dlopen_libibverbs(void)
{
	if (verbs_loaded > 0)
		verbs_loaded = load();
	return verbs_loaded;
}
