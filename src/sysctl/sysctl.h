/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"

/*
 * [Sysctl]: kernel settings P2P and RDMA guides ask for, checked only (never written).
 *
 *   [Sysctl]
 *     Expect=NAME=VALUE   one expectation per line (the value may hold spaces: integer
 *                         vectors like net.ipv4.tcp_rmem); accumulates over lines and files,
 *                         the same NAME again replaces its value, an empty Expect= clears
 *                         the list. NAME in dotted form only (kernel.numa_balancing).
 *
 * Compared like sysctl(8) shows them: whitespace-separated words, integers numerically
 * ("0" = "00"), anything else byte for byte. A mismatch fails; the remedy is a line for a
 * sysctl.d drop-in. No [Sysctl] section (the default): nothing is read.
 */

#define SYSCTL_MAX_EXPECT 64
#define SYSCTL_NAME_MAX	  128
#define SYSCTL_VALUE_MAX  128
#define SYSCTL_DROPIN	  "sysctl.d/90-hostprep.conf" /* below /etc */

struct sysctl_expect {
	char *name;  /* dotted */
	char *value; /* whitespace runs collapsed to one space */
	struct origin at;
};

struct sysctl_config {
	struct config_singleton head; /* must come first */
	struct sysctl_expect *expect;
	size_t n_expect;
};

extern const struct config_part sysctl_config_part;
/* c's [Sysctl] state; NULL when no file gives such a section. */
static inline const struct sysctl_config *sysctl_config_get(const struct config *c)
{
	return config_part_state(c, &sysctl_config_part);
}

/* Dotted name: words of [A-Za-z0-9_-] joined by single dots; no '/', no "..". */
bool sysctl_name_valid(const char *name);
/* "NAME=VALUE" (spaces around '=' allowed) -> malloc'd name and normalized value. */
int sysctl_parse_expect(const char *s, char **ret_name, char **ret_value, const char **reason);
/* Collapse whitespace runs into one space, trim both ends; malloc'd. */
char *sysctl_normalize(const char *s);
/* Equal as sysctl values: same number of words, integers numerically, else by bytes. */
bool sysctl_values_equal(const char *a, const char *b);

struct run;
int sysctl_verify(struct run *run);
