/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/macro.h"

/*
 * The root prefix. Every path below /sys, /proc, /dev, /etc, /run, /usr/lib,
 * /usr/local/lib, /lib and /var/lib is built here and nowhere else, so the real binary can be
 * pointed at a fake tree with --root DIR. No static caches: the prefix lives
 * in the struct the caller owns.
 */
enum sysroot_top {
	SYSROOT_SYS,
	SYSROOT_PROC,
	SYSROOT_DEV,
	SYSROOT_ETC,
	SYSROOT_RUN,
	SYSROOT_USR_LIB,
	SYSROOT_USR_LOCAL_LIB, /* modprobe.d is read there too */
	SYSROOT_LIB,	       /* /lib/modprobe.d (not merged with /usr/lib everywhere) */
	SYSROOT_LIB_MODULES,
	SYSROOT_VAR_LIB, /* state that must survive a reboot */
	SYSROOT_BOOT,	 /* grub.cfg, BLS entries: read only */
	_SYSROOT_TOP_MAX,
};

struct sysroot {
	char *dir;  /* "" for the real root, else an absolute path without trailing '/' */
	char *real; /* realpath(dir) when it differs from dir (a --root below a symlink), else NULL
		     */
	/*
	 * O_PATH of dir (or "/"), opened once by sysroot_init(): sysroot_openat()
	 * resolves below it, so a long --root is not walked again per file.
	 * A hand-built struct (fd_open false) falls back to dir + path.
	 */
	int fd;
	bool fd_open;
};

int sysroot_init(struct sysroot *r, const char *dir);
void sysroot_done(struct sysroot *r);
bool sysroot_is_host(const struct sysroot *r);

/* "<root>/<top>/<fmt...>"; malloc'd, NULL on ENOMEM. fmt may be "" for the top itself. */
char *sysroot_path(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
	_printf_(3, 4);

/*
 * The first line of the file "<root>/<top>/<fmt...>" (a sysfs attribute, a /proc value),
 * trailing blanks stripped, malloc'd into *ret: read_one_line() of sysroot_path(), with its
 * errors (-ENOENT, -EXDEV, -EBADFD, ...); -ENOMEM also when the path cannot be made.
 */
int sysroot_read_attr(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...) _printf_(4, 5);

/*
 * open(2) of "<root>/<top>/<fmt...>", relative to the root's directory fd: the fd,
 * or negative errno. flags as for openat(2) (O_CLOEXEC is added). Below a --root
 * (not the host) nothing leaves the root: a symlink that would (an absolute one, or
 * ".." above the root) is -EXDEV, resolved by openat2(2) RESOLVE_BENEATH, or where the
 * kernel has no openat2 (or a seccomp filter hides it) by a realpath() check.
 */
int sysroot_openat(const struct sysroot *r, enum sysroot_top top, int flags, const char *fmt, ...)
	_printf_(4, 5);

/*
 * For the readers and writers that take path strings (fileio): the --root set up by
 * the last sysroot_init() of a non-host root is the process's contained root until its
 * sysroot_done(). sysroot_open_path() opens an absolute path below it as
 * sysroot_openat() does (-EXDEV for what leaves it), and an absolute path outside it
 * not at all (-EXDEV); a path relative to dfd is held below dfd. Without a contained
 * root (the host), openat(2). O_CLOEXEC is added.
 */
int sysroot_open_path(int dfd, const char *path, int flags);
/*
 * Before writing in the directory path (or below it): 0 when it stays inside the
 * contained root (or does not exist yet: there is nothing to leave through), -EXDEV
 * when it leaves it or lies outside it. Always 0 without a contained root.
 */
int sysroot_check_path(const char *path);

/* Strip the root prefix from an absolute path that lies below it (for display). */
const char *sysroot_strip(const struct sysroot *r, const char *path);

/*
 * hostprep snapshot (src/snapshot/): while a recorder is set, each path built below the
 * root (sysroot_path(), sysroot_read_attr(), sysroot_openat()) and each file a library
 * reads for hostprep (sysroot_note_read(): libkmod's module files) is handed to it,
 * relative to the root and without a leading '/' ("sys/bus/pci", "proc/cmdline"), before
 * it is opened. One recorder per process; NULL stops it. Nothing is recorded otherwise.
 */
typedef void (*sysroot_recorder_t)(const char *rel, void *userdata);
void sysroot_set_recorder(sysroot_recorder_t fn, void *userdata);
/* path: absolute, below r's root (as sysroot_path() made it). */
void sysroot_note_read(const struct sysroot *r, const char *path);
