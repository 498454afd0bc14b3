/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <inttypes.h>
#include <stdint.h>

#include "core/config.h"
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

struct aer_config {
	struct config_singleton head;  /* must come first */
	uint64_t limit[_AER_KIND_MAX]; /* AER_OFF: not judged */
	struct origin limit_at[_AER_KIND_MAX];
	bool fail;
	struct origin fail_at;
};

extern const struct config_part aer_config_part;
/* c's [AER] state; NULL when no file gives such a section. */
static inline const struct aer_config *aer_config_get(const struct config *c)
{
	return config_part_state(c, &aer_config_part);
}

/* "correctable", "nonfatal", "fatal": the file name's suffix. */
const char *aer_kind_to_string(enum aer_kind k);
/* "Correctable", "NonFatal", "Fatal": the key. */
const char *aer_kind_key(enum aer_kind k);
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
 * nothing after it. -EINVAL for anything else (an empty file included).
 */
int aer_parse_dev(const char *text, enum aer_kind k, struct aer_counts *ret);
/* An aer_rootport_total_err_* file: one decimal number. -EINVAL. */
int aer_parse_total(const char *text, uint64_t *ret);

/* Whether count is above the limit (never for AER_OFF). */
bool aer_exceeds(uint64_t count, uint64_t limit);
