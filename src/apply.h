/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "pci.h"
#include "plan.h"
#include "result.h"
#include "sysroot.h"

/*
 * The only code that changes the host. Every ACS write is: take the run
 * lock, re-read the Control word, skip when already right, durably record
 * the original (appended and fsync'd before the write), write, read back,
 * compare. A mismatch is a "fail", never a silent success: kernel lockdown
 * makes the write fail with EPERM (and setpci exits 0 there).
 */
struct apply_env {
	const struct sysroot *root;
	struct pci_backend *pci;
	const char *lockdown;  /* "none", "integrity", "confidentiality"; NULL if unknown */
	const char *osrelease; /* to know whether pci=config_acs= is an alternative */
};

/* Results: one "acs.write" per planned action. Returns <0 only on internal errors. */
int apply_acs(const struct apply_env *env, const struct plan *p, struct results *rs);
/* Results: one "acs.revert" per recorded original; the record is removed when all restored. */
int revert_acs(const struct apply_env *env, struct results *rs);
