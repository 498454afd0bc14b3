/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "macro.h"

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
	char *dir; /* "" for the real root, else an absolute path without trailing '/' */
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
 * open(2) of "<root>/<top>/<fmt...>", relative to the root's directory fd: the fd,
 * or negative errno. flags as for openat(2) (O_CLOEXEC is added).
 */
int sysroot_openat(const struct sysroot *r, enum sysroot_top top, int flags, const char *fmt, ...)
	_printf_(4, 5);

/* Strip the root prefix from an absolute path that lies below it (for display). */
const char *sysroot_strip(const struct sysroot *r, const char *path);
