// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>

#include "core/dlopen-lib.h"
#include "core/log.h"

static const char *dl_why(void)
{
	const char *e = dlerror();

	return e ? e : "not found";
}

static void clear(const struct dlopen_lib *lib)
{
	for (size_t i = 0; i < lib->n_syms; i++)
		*lib->syms[i].ptr = NULL;
}

static int load(const struct dlopen_lib *lib, int level)
{
	void *dl = dlopen(lib->soname, RTLD_NOW | RTLD_NODELETE);

	if (!dl)
		return log_full_errno(level, -EOPNOTSUPP,
				      "Cannot load %s, needed by %s: %s (install %s)", lib->soname,
				      lib->needed_by, dl_why(), lib->install);
	for (size_t i = 0; i < lib->n_syms; i++) {
		*lib->syms[i].ptr = dlsym(dl, lib->syms[i].name);
		if (!*lib->syms[i].ptr) {
			log_full(level, "%s lacks %s, needed by %s: %s", lib->soname,
				 lib->syms[i].name, lib->needed_by, dl_why());
			clear(lib);
			dlclose(dl);
			return -EOPNOTSUPP;
		}
	}
	/* Never closed: the pointers live as long as the process (RTLD_NODELETE too). */
	return 0;
}

int dlopen_lib(struct dlopen_lib *lib, int level)
{
	if (lib->state > 0)
		lib->state = load(lib, level);
	return lib->state;
}
