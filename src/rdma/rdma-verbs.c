// SPDX-License-Identifier: GPL-2.0-or-later
#include <syslog.h>

#include "macro.h"
#include "rdma/rdma-verbs.h"

VERBS_SYMS(DLOPEN_DEFINE)

static const struct dlopen_sym verbs_syms[] = { VERBS_SYMS(DLOPEN_ENTRY) };

static struct dlopen_lib libibverbs = {
	.soname = VERBS_SONAME,
	.needed_by = "[Port:*] rules (RDMA ports are re-checked on link events only)",
	.install = "libibverbs1 on Debian, libibverbs on Fedora",
	.syms = verbs_syms,
	.n_syms = ARRAY_SIZE(verbs_syms),
	.state = 1,
};

int dlopen_libibverbs(void)
{
	return dlopen_lib(&libibverbs, LOG_WARNING);
}
