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
	/*
	 * The first file (or directory) libkmod would read that cannot be read here, NULL when
	 * none: what libkmod will pass is then unknown, never what the rest says.
	 */
	char *unreadable;
	int unreadable_err;
};

/*
 * The modprobe.d directories below root in libkmod's order, for libkmod, which opens them by
 * path (sysroot_lib_path(): resolved inside the root; one that is a dangling link there is
 * left out): malloc'd each, NULL after the last. -ENOMEM.
 */
int modprobe_dirs(const struct sysroot *root, char *ret[MODPROBE_DIRS_N]);
/* "/etc/modprobe.d", ... in the same order, for what results name. */
extern const char *const modprobe_dir_shown[MODPROBE_DIRS_N];

/*
 * The files as libkmod lists them, each read once: the walk below is pure over this list,
 * so unit tests build it by hand (tests/unit/test_kmod_judge.c).
 */
struct modprobe_file {
	char *name; /* "zz-site.conf"; "" for a directory that cannot be listed */
	size_t dir; /* index into modprobe_dir_shown[] */
	char *text; /* the whole file, "" for a dangling link or a device (/dev/null: masked) */
	int err;    /* text NULL: why it cannot be read */
};

struct modprobe_files {
	struct modprobe_file *v;
	size_t n;
};

/* libkmod's conf_files_filter_out by name: not a dot file, *.conf or *.alias. */
bool modprobe_name_wanted(const char *name);
/*
 * Add a file of directory dir (text taken, NULL with err when unreadable): the same name in
 * an earlier directory masks it, whichever is added first. -E2BIG past the file limit.
 */
int modprobe_files_add(struct modprobe_files *f, size_t dir, const char *name, char *text, int err);
/* In libkmod's order: by file name across the directories. */
void modprobe_files_sort(struct modprobe_files *f);
void modprobe_files_done(struct modprobe_files *f);
/* Every modprobe.d directory below root, read and sorted (a directory entry is left out). */
int modprobe_files_read(const struct sysroot *root, struct modprobe_files *ret);

/* What libkmod passes to name from those files and the kernel command line (pure). */
int modprobe_eval_files(const struct modprobe_files *files, const struct cmdline *cmdline,
			const char *name, struct modprobe_eval *ret);
/* modprobe_files_read() and modprobe_eval_files(). */
int modprobe_eval(const struct sysroot *root, const struct cmdline *cmdline, const char *name,
		  struct modprobe_eval *ret);
void modprobe_eval_done(struct modprobe_eval *e);
/* The occurrence of key the kernel keeps (the last), or NULL. */
const struct modprobe_opt *modprobe_eval_last(const struct modprobe_eval *e, const char *key);

/* An options string (libkmod's) as the kernel parses it: opts only. */
int modprobe_options_eval(const char *options, struct modprobe_eval *ret);
/*
 * The last value of key in an options string as the kernel parses it (next_arg: blanks
 * separate, double quotes group); malloc'd into *ret, NULL when the key is absent.
 */
int modprobe_options_last(const char *options, const char *key, char **ret);
