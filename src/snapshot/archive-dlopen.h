/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "core/dlopen-lib.h"

/*
 * libarchive (and what it links: libxml2, ICU, libstdc++, the compressors) is loaded with
 * dlopen() by `hostprep snapshot` alone, as libkmod is by the module rules: a boot run, a
 * health probe or status maps none of it. The package still depends on it (packaging/
 * names it). Every libarchive call goes through these pointers, loaded by
 * snapshot_tar_load() (snapshot-tar.c).
 */
#define ARCHIVE_SONAME "libarchive.so.13"

#define ARCHIVE_SYMS(X)                            \
	X(archive_write_new)                       \
	X(archive_write_free)                      \
	X(archive_write_close)                     \
	X(archive_write_add_filter_zstd)           \
	X(archive_write_add_filter_gzip)           \
	X(archive_write_set_format_pax_restricted) \
	X(archive_write_set_bytes_in_last_block)   \
	X(archive_write_open_fd)                   \
	X(archive_write_header)                    \
	X(archive_write_data)                      \
	X(archive_errno)                           \
	X(archive_error_string)                    \
	X(archive_entry_new)                       \
	X(archive_entry_free)                      \
	X(archive_entry_set_pathname)              \
	X(archive_entry_set_mode)                  \
	X(archive_entry_set_uid)                   \
	X(archive_entry_set_gid)                   \
	X(archive_entry_set_mtime)                 \
	X(archive_entry_set_size)                  \
	X(archive_entry_set_symlink)               \
	X(archive_entry_set_rdevmajor)             \
	X(archive_entry_set_rdevminor)             \
	X(archive_entry_pathname)                  \
	X(archive_entry_symlink)

ARCHIVE_SYMS(DLOPEN_DECLARE)
