/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sys/stat.h>

#include "core/macro.h"

/*
 * The root prefix. Every path below /sys, /proc, /dev, /etc, /run, /usr/lib,
 * /usr/local/lib, /lib, /var/lib, /boot and /efi is built here and nowhere else, so the real binary
 * can be pointed at a fake tree with --root DIR. No static caches: the prefix lives in the struct
 * the caller owns.
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
	SYSROOT_BOOT,	 /* grub.cfg, BLS entries, grubenv */
	SYSROOT_EFI,	 /* an EFI system partition mounted at /efi: systemd-boot's entries */
	_SYSROOT_TOP_MAX,
};

struct sysroot {
	char *dir;  /* "" for the real root, else an absolute path without trailing '/' */
	char *real; /* realpath(dir) when it differs from dir (a --root below a symlink), else NULL
		     */
	/*
	 * O_PATH of dir (or "/"), opened once by sysroot_init(): everything below the root
	 * is resolved from it (or from a directory opened through it), never from a path
	 * string. A hand-built struct (fd_open false, the host only: for messages) opens
	 * dir + path.
	 */
	int fd;
	bool fd_open;
	/*
	 * The kernel has no openat2(2) (before Linux 5.6), or a seccomp filter hides it
	 * (ENOSYS, EPERM): sysroot_init() found out when it opened the root, and every
	 * resolution below it walks the path itself (the same answers, more syscalls).
	 */
	bool no_openat2;
};

int sysroot_init(struct sysroot *r, const char *dir);
void sysroot_done(struct sysroot *r);
bool sysroot_is_host(const struct sysroot *r);

/*
 * "<root>/<top>/<fmt...>"; malloc'd, NULL on ENOMEM. fmt may be "" for the top itself.
 * For messages only: nothing is opened by this string (what follows does the opening).
 */
char *sysroot_path(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
	_printf_(3, 4);

/*
 * Below the root, "<top>/<fmt...>" resolved from the root's fd, the way chroot(2) would:
 * under a --root every symlink on the way is resolved inside it (an absolute one from the
 * root, ".." never above it: openat2(2) RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS), so a link
 * that points out of the root gives what the root holds at that name, normally nothing
 * (-ENOENT). On the host, plain openat(2) and friends: no syscall more than before.
 * Negative errno; -ENOMEM also when the path cannot be made.
 */
/* open(2): the fd; flags as for openat(2), O_CLOEXEC added; no O_CREAT. */
int sysroot_openat(const struct sysroot *r, enum sysroot_top top, int flags, const char *fmt, ...)
	_printf_(4, 5);
/* opendir(3): 0 and *ret. */
int sysroot_opendir(const struct sysroot *r, enum sysroot_top top, DIR **ret, const char *fmt, ...)
	_printf_(4, 5);
/* scandir(3): the number of entries in *ret (each and the array to free). */
int sysroot_scandir(const struct sysroot *r, enum sysroot_top top, struct dirent ***ret,
		    int (*filter)(const struct dirent *),
		    int (*compar)(const struct dirent **, const struct dirent **), const char *fmt,
		    ...) _printf_(6, 7);
/* stat(2), or lstat(2) with AT_SYMLINK_NOFOLLOW in at_flags. */
int sysroot_stat(const struct sysroot *r, enum sysroot_top top, int at_flags, struct stat *ret,
		 const char *fmt, ...) _printf_(5, 6);
/* 1 it exists (links followed), 0 it does not (-ENOENT), else negative errno. */
int sysroot_exists(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
	_printf_(3, 4);
/* readlink(2) into buf, NUL-terminated: its length; -ENAMETOOLONG when it does not fit. */
int sysroot_readlink(const struct sysroot *r, enum sysroot_top top, char *buf, size_t size,
		     const char *fmt, ...) _printf_(5, 6);
/*
 * What realpath(3) gives, relative to the root: "/sys/devices/pci0000:00/0000:00:01.0"
 * (malloc'd), every link resolved inside the root. On the host, the real path.
 */
int sysroot_canonical(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...) _printf_(4, 5);
/*
 * For a library that opens files by path itself (libkmod: the module index, modprobe.d):
 * the directory with every link on the way resolved inside the root, as a path from "/"
 * (the root's real path, then its canonical path inside the root), so that the library
 * follows no link out of the root to reach it. What does not exist yet is appended as
 * named; -ENOENT when a dangling link stands there (nothing to give that stays inside).
 * The files in it are the library's to open.
 */
int sysroot_lib_path(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		     ...) _printf_(4, 5);
/*
 * A path such a library made by itself below one of those directories (libkmod's module
 * files, from modules.dep): true when it names what the root holds there through no
 * symlink, so that the library's open(2) of it stays inside the root (checked before the
 * library opens it: a rename between the two can still win, as for libpci on the host).
 */
bool sysroot_lib_path_direct(const struct sysroot *r, const char *path);
/*
 * A file such a library opens by its path (libkmod: the index, modules.softdep, the
 * .conf files of modprobe.d): 0 when its open(2) would reach a regular file inside the root
 * (links on the way resolve beneath it: none absolute, none climbing out); -ENOENT nothing
 * there; -EXDEV a link that leaves the root; -EBADFD not a regular file (a FIFO: the
 * library's blocking open would wait for a writer), -EISDIR a directory. On the host only
 * the type is checked. Nothing checks again when the library opens it.
 */
int sysroot_lib_file_check(const struct sysroot *r, const char *path);
/*
 * The same for each file of directory dir that wanted() says the library opens: 0 when none
 * is refused (dir not there: it opens none); -EXDEV or -EBADFD for the first one that is,
 * its name in *ret_name (malloc'd; NULL when dir itself is). Other errors are the library's
 * to meet: 0.
 */
int sysroot_lib_dir_check(const struct sysroot *r, const char *dir, bool (*wanted)(const char *),
			  char **ret_name);
/*
 * The first line of the file (a sysfs attribute, a /proc value), trailing blanks stripped,
 * malloc'd into *ret; as read_one_line_at() (fileio.h: one pread, -EBADFD for a FIFO).
 */
int sysroot_read_attr(const struct sysroot *r, enum sysroot_top top, char **ret, const char *fmt,
		      ...) _printf_(4, 5);
/*
 * fopen(3) "re" of a regular file, for line-by-line readers: opened O_NONBLOCK, and
 * -EBADFD for a FIFO, device or socket, -EISDIR for a directory (nothing blocks).
 */
int sysroot_fopen(const struct sysroot *r, enum sysroot_top top, FILE **ret, const char *fmt, ...)
	_printf_(4, 5);
/*
 * When this boot began (/proc/stat's btime, seconds since the epoch) into *ret; 0 when
 * it cannot be read (then nothing can be judged by it). -ENOMEM only.
 */
int sysroot_boot_time(const struct sysroot *r, long long *ret);
/* The whole file, at most max bytes (-EFBIG past it), as read_full_fd(). */
int sysroot_read_file(const struct sysroot *r, enum sysroot_top top, size_t max, char **ret,
		      size_t *ret_size, const char *fmt, ...) _printf_(6, 7);
/*
 * mkdir -p inside the root (mode for the ones made): an O_DIRECTORY fd of the directory,
 * for the writers of fileio.h. A level that is a symlink is followed inside the root; a
 * dangling one is -ENOENT (nothing is made where it points).
 */
int sysroot_mkdirs(const struct sysroot *r, enum sysroot_top top, mode_t mode, const char *fmt, ...)
	_printf_(4, 5);

/*
 * unlink(2) of "<top>/<fmt...>": its directory resolved inside the root, the last name
 * removed there (a link is removed, never followed). -ENOENT when it is not there.
 */
int sysroot_unlink(const struct sysroot *r, enum sysroot_top top, const char *fmt, ...)
	_printf_(3, 4);

/*
 * The same below a directory that was opened inside the root (dfd; r->fd itself is the
 * root and path is then relative to it). Resolved below dfd (RESOLVE_BENEATH: one
 * syscall); only a path whose links climb out of dfd (sysfs: bus/pci/devices/X ->
 * ../../../devices/...) is resolved again, from the root, inside it.
 */
int sysroot_open_at(const struct sysroot *r, int dfd, const char *path, int flags);
int sysroot_opendir_at(const struct sysroot *r, int dfd, const char *path, DIR **ret);
int sysroot_stat_at(const struct sysroot *r, int dfd, const char *path, int at_flags,
		    struct stat *ret);
int sysroot_readlink_at(const struct sysroot *r, int dfd, const char *path, char *buf, size_t size);
/*
 * The last component of a link's target (sysfs: the driver or iommu_group a device's link
 * names) in buf: 0, -ENAMETOOLONG when it does not fit, or sysroot_readlink_at()'s error.
 */
int sysroot_link_name_at(const struct sysroot *r, int dfd, const char *path, char *buf,
			 size_t size);

/*
 * A symlink's target that names the null device: it masks a file (as in systemd), also
 * below a --root whose tree has no /dev/null, where the link resolves to nothing.
 */
bool sysroot_link_is_null(const char *target);

/* The directory whose entries reopen this process's fds ("/proc/self/fd"), for a child. */
const char *sysroot_self_fd_dir(void);

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
/*
 * What the run judged that no file below the root holds (NVML's answers on the live
 * host): a snapshot stores data at top/rel, where a replay under --root reads it
 * instead (NVML_RECORD). One data recorder per process; NULL stops it.
 */
typedef void (*sysroot_data_recorder_t)(const char *rel, const char *data, size_t size,
					void *userdata);
void sysroot_set_data_recorder(sysroot_data_recorder_t fn, void *userdata);
void sysroot_note_data(enum sysroot_top top, const char *rel, const char *data, size_t size);
/* Whether a data recorder is set: what is noted only for it need not be built otherwise. */
bool sysroot_data_recording(void);
