/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <inttypes.h>
#include <stdint.h>

#include "run/config.h"
#include "core/result.h"

/*
 * PCIe AER counters since boot (drivers/pci/pcie/aer.c): per function
 * aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal ("NAME count" per line, the
 * TOTAL_ERR_COR / TOTAL_ERR_NONFATAL / TOTAL_ERR_FATAL line last); root ports also
 * aer_rootport_total_err_{cor,nonfatal,fatal} (one number: what the port received from
 * below). They exist only when the kernel owns AER for the function (CONFIG_PCIEAER, the
 * firmware granted AER control to the OS, the device has the capability).
 *
 *   [AER]
 *     Fatal=N|off        a function with more than N fatal errors since boot is flagged
 *                        (default 0: any)
 *     NonFatal=N|off     the same for non-fatal (uncorrectable) errors (default 0)
 *     Correctable=N|off  the same for correctable errors (default off: reported only;
 *                        links retrain and replay, a few are normal)
 *     Exceeded=warn|fail the verdict of a function above a threshold (default warn)
 *
 * The functions: the GPUs and NICs of the topology (src/topo/topo.h) and every port on
 * their paths up to the root port. No [AER] section: nothing is read or reported (an
 * empty [AER] section turns the check on with the defaults).
 */

#define AER_COUNT_MAX 1000000000000ULL /* a threshold's bound */
#define AER_OFF	      UINT64_MAX

enum aer_kind {
	AER_COR,
	AER_NONFATAL,
	AER_FATAL,
	_AER_KIND_MAX,
};

enum aer_exceeded {
	AER_EXCEEDED_WARN, /* a threshold exceeded is a warning */
	AER_EXCEEDED_FAIL,
	_AER_EXCEEDED_MAX,
};

struct aer_config {
	struct config_singleton head;  /* must come first */
	uint64_t limit[_AER_KIND_MAX]; /* AER_OFF: not judged */
	struct origin limit_at[_AER_KIND_MAX];
	enum aer_exceeded exceeded;
	struct origin exceeded_at;
};

extern const struct config_part aer_config_part;
/* c's [AER] state; NULL when no file gives such a section. */
static inline const struct aer_config *aer_config_get(const struct config *c)
{
	return config_part_state(c, &aer_config_part);
}

/* "correctable", "nonfatal", "fatal": the file name's suffix. */
const char *aer_kind_to_string(enum aer_kind k);
/* A threshold: "0".."1000000000000" or "off" (AER_OFF); -EINVAL. */
int aer_parse_limit(const char *s, uint64_t *ret);

#define AER_DETAIL_MAX 128

/* One aer_dev_* file. */
struct aer_counts {
	uint64_t total;
	char detail[AER_DETAIL_MAX]; /* the non-zero named counters: "RxErr 3, BadTLP 1" */
};

/*
 * Parse an aer_dev_* file's text for kind k: lines "NAME N" (NAME without blanks, N
 * decimal), the last one TOTAL_ERR_COR, TOTAL_ERR_NONFATAL or TOTAL_ERR_FATAL as k says,
 * nothing after it. -EINVAL for anything else (an empty file included), and for a
 * counter above the total (the kernel counts each error in both: a damaged reading).
 */
int aer_parse_dev(const char *text, enum aer_kind k, struct aer_counts *ret);
/* An aer_rootport_total_err_* file: one decimal number. -EINVAL. */
int aer_parse_total(const char *text, uint64_t *ret);

/*
 * The counter files of one function, as drivers/pci/pcie/aer.c makes them visible: the
 * three aer_dev_* files together whenever the kernel keeps AER statistics for the
 * function (pdev->aer_stats), and on a root port (or an RCEC) the three
 * aer_rootport_total_err_* files with them (aer_stats_attrs_are_visible(), Linux 6.1).
 * dev and rp: a bit per enum aer_kind for each file found (missing: ENOENT); root_port: 1
 * a root port by its PCIe type, 0 not one (rp is not looked at), -1 maybe (on a root bus,
 * its type unread: the kernel knows, we do not).
 *   AER_SET_NONE       nothing: AER is not the kernel's there (said once, not judged)
 *   AER_SET_DEV        the three per-function files (a root port of unread type without
 *                      the totals: the kernel says it is not a root port)
 *   AER_SET_ROOT_PORT  those and the three totals
 *   AER_SET_PARTIAL    any other set: a file gone missing, never "no AER", never a pass
 */
enum aer_set {
	AER_SET_NONE,
	AER_SET_DEV,
	AER_SET_ROOT_PORT,
	AER_SET_PARTIAL,
};

#define AER_FILES_ALL ((1u << _AER_KIND_MAX) - 1)

enum aer_set aer_files_judge(unsigned dev, unsigned rp, int root_port);

/* Whether count is above the limit (never for AER_OFF). */
bool aer_exceeds(uint64_t count, uint64_t limit);
