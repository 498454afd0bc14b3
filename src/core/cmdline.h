/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/macro.h"

/*
 * The kernel command line split exactly like the kernel's parse_args() and
 * next_arg() (lib/cmdline.c): words are separated by the kernel's white
 * space (isspace() of lib/ctype.c, which includes 0xa0); a double quote
 * toggles grouping of spaces, but only two quotes are removed: one that
 * opens the word (with the word's last character if that is a quote) and
 * one that opens the value right after the first '=' (again with the
 * word's last character if that is a quote). Every other quote stays in
 * the key or value, as the kernel's parameter handlers see it. A bare "--"
 * (after that quote removal) ends the kernel's own parameters.
 */
struct cmdline_param {
	char *key;
	char *value; /* NULL for a word without '=' */
};

struct cmdline {
	struct cmdline_param *params;
	size_t n;     /* the kernel's: the words before a bare "--" */
	size_t n_all; /* every word: libkmod reads the rest too (modprobe.blacklist=, NAME.param=)
		       */
};

int cmdline_parse(const char *s, struct cmdline *ret);
void cmdline_done(struct cmdline *c);
/* The last occurrence wins, as for the kernel's own early params. */
const struct cmdline_param *cmdline_find_last(const struct cmdline *c, const char *key);
/* The kernel's isspace(): \t \n \v \f \r, space and 0xa0 (Latin-1 NBSP). */
bool cmdline_isspace(char c);
