/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "pci/pci.h"
#include "acs/plan.h"
#include "core/result.h"
#include "core/sysroot.h"

/*
 * The only code that changes the host. The caller holds the run lock
 * (record_lock(), taken before the scan the plan came from). Every ACS
 * write is: re-read the capability header, Capability and Control words
 * (a port reading all-ones is not responding: nothing recorded, nothing
 * written), skip when already right, durably record the original in the
 * originals record (record.h), re-check, write, read back, compare. A
 * mismatch is a "fail", never a silent success: kernel lockdown makes the
 * write fail with EPERM (and setpci exits 0 there).
 */
#define DEVPATH_MAX 512

/* One "acs" line: the Control word hostprep found before its first write to the port. */
struct original {
	char addr[PCI_ADDR_LEN];
	unsigned off;
	uint16_t ctrl;
	char devpath[DEVPATH_MAX]; /* the device's sysfs directory; "" when unknown */
};

/*
 * An "acs" record line's body, exactly as acs_original_format() writes it (legacy: 0.1.0's
 * lines, without checksum, devpath optional), with an offset and Control word that can be
 * an ACS capability's: 0, -EBADMSG, -ENOMEM. The fuzzer checks the round trip.
 */
int acs_original_parse(const char *body, bool legacy, struct original *o);
int acs_original_format(const struct original *o, bool legacy, char *buf, size_t size);

struct apply_env {
	const struct sysroot *root;
	struct pci_backend *pci;
	const char *lockdown;  /* "none", "integrity", "confidentiality"; NULL if unknown */
	const char *osrelease; /* to know whether pci=config_acs= is an alternative */
};

/* Results: one "acs.write" per planned action. Returns <0 only on internal errors. */
int apply_acs(const struct apply_env *env, const struct plan *p, struct results *rs);
/*
 * Results: one "acs.revert" per acs line of the record (object "record" for a line that
 * fails the integrity check, kept byte-exact), or one skip "nothing recorded". Restored
 * lines leave the record; the file is removed when nothing is left.
 */
int revert_acs(const struct apply_env *env, struct results *rs);
