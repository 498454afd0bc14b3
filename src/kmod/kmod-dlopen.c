// SPDX-License-Identifier: GPL-2.0-or-later
#include <syslog.h>

#include "kmod/kmod-dlopen.h"

DLOPEN_LIB(libkmod, KMOD_SYMS, KMOD_SONAME, "[Module:*] rules",
	   "libkmod2 on Debian, kmod-libs on Fedora");

int dlopen_libkmod(void)
{
	return dlopen_lib(&libkmod, LOG_ERR);
}
