// SPDX-License-Identifier: GPL-2.0-or-later
#include <syslog.h>

#include "kmod/kmod-dlopen.h"
#include "macro.h"

KMOD_SYMS(DLOPEN_DEFINE)

static const struct dlopen_sym kmod_syms[] = { KMOD_SYMS(DLOPEN_ENTRY) };

static struct dlopen_lib libkmod = {
	.soname = KMOD_SONAME,
	.needed_by = "[Module:*] rules",
	.install = "libkmod2 on Debian, kmod-libs on Fedora",
	.syms = kmod_syms,
	.n_syms = ARRAY_SIZE(kmod_syms),
	.state = 1,
};

int dlopen_libkmod(void)
{
	return dlopen_lib(&libkmod, LOG_ERR);
}
