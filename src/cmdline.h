/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "macro.h"

/*
 * The kernel command line split like the kernel's next_arg(): words are
 * separated by spaces, double quotes group (either the value or the whole
 * word) and are removed. "--" ends the kernel's own parameters.
 */
struct cmdline_param {
	char *key;
	char *value; /* NULL for a bare word */
};

struct cmdline {
	struct cmdline_param *params;
	size_t n;
};

int cmdline_parse(const char *s, struct cmdline *ret);
void cmdline_done(struct cmdline *c);
/* The last occurrence wins, as for the kernel's own early params. */
const struct cmdline_param *cmdline_find_last(const struct cmdline *c, const char *key);
