// SPDX-License-Identifier: GPL-2.0-or-later
#include <syslog.h>

#include "rdma/rdma-verbs.h"

DLOPEN_LIB(libibverbs, VERBS_SYMS, VERBS_SONAME,
	   "[Port:*] rules (RDMA ports are re-checked on link events only)",
	   "libibverbs1 on Debian, libibverbs on Fedora");

int dlopen_libibverbs(void)
{
	return dlopen_lib(&libibverbs, LOG_WARNING);
}
