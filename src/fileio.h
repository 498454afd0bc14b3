/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sys/types.h>

#include "macro.h"

/* Read a small file whole (max bytes, NUL-terminated). -ENOENT, -EFBIG, ... */
int read_full_file(const char *path, size_t max, char **ret, size_t *ret_size);
/* Read the first line of a sysfs-style attribute, trailing whitespace stripped. */
int read_one_line(const char *path, char **ret);

/* Write via "<path>.tmp-XXXXXX" + fsync + rename + fsync(dir). */
int write_file_atomic(const char *path, const void *data, size_t size, mode_t mode);
/* Create a directory and its parents (mode for the ones made). */
int mkdir_parents(const char *path, mode_t mode);
/* fsync the directory that contains path. */
int fsync_parent_dir(const char *path);
