// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/sd-dlopen.h"

DLOPEN_LIB(libsystemd, SYSTEMD_SYMS, SYSTEMD_SONAME,
	   "the journal, [Xid]'s journal source, sd_notify, the system bus and the boot wait",
	   "libsystemd0 on Debian, systemd-libs on Fedora");

int dlopen_libsystemd(int level)
{
	return dlopen_lib(&libsystemd, level);
}
