/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/cmdline.h"
#include "core/sysroot.h"

/*
 * What libkmod will pass when it loads a module: every "options NAME ..." line of
 * modprobe.d in libkmod's order, then the kernel command line's NAME.param=, each
 * parameter the kernel sees last winning. libkmod reads, in this order, the *.conf (and
 * *.alias) files of /etc, /run, /usr/local/lib, /usr/lib and /lib modprobe.d, sorted by
 * file name across the directories, a name in an earlier directory masking the same
 * name in a later one (libkmod-config.c conf_files_list); the same list is given to
 * kmod_new() (kmod-backend.c) so that libkmod and this walk read the same files.
 *
 * The walk is ours so that a result can name the file:line that sets a value; libkmod
 * (kmod_module_get_options) is the oracle it is compared with (kmod_modprobe_check).
 */
#define MODPROBE_DIRS_N 5

struct modprobe_opt {
	char *key;   /* normalised ('-' is '_') */
	char *value; /* NULL for a bare "key" */
	char *where; /* "/etc/modprobe.d/zz-site.conf:3", "the kernel command line" */
	char *line;  /* the options line as libkmod reads it, or "erdma.compat_mode=N" */
};

struct modprobe_eval {
	char *files_options; /* the options lines' text joined by ' ', as libkmod joins them */
	char *options;	     /* files_options, then the command line's, as libkmod passes them */
	struct modprobe_opt *opts; /* every key=value in the order the kernel parses them */
	size_t n_opts;
	char *install_where; /* the install line libkmod runs instead of insmod, or NULL */
	char *install_line;
};

/*
 * The modprobe.d directories below root in libkmod's order, for libkmod, which opens them by
 * path (sysroot_lib_path(): resolved inside the root; one that is a dangling link there is
 * left out): malloc'd each, NULL after the last. -ENOMEM.
 */
int modprobe_dirs(const struct sysroot *root, char *ret[MODPROBE_DIRS_N]);

int modprobe_eval(const struct sysroot *root, const struct cmdline *cmdline, const char *name,
		  struct modprobe_eval *ret);
void modprobe_eval_done(struct modprobe_eval *e);
/* The occurrence of key the kernel keeps (the last), or NULL. */
const struct modprobe_opt *modprobe_eval_last(const struct modprobe_eval *e, const char *key);

/*
 * The last value of key in an options string as the kernel parses it (next_arg: blanks
 * separate, double quotes group); malloc'd into *ret, NULL when the key is absent.
 */
int modprobe_options_last(const char *options, const char *key, char **ret);
