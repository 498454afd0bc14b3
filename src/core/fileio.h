/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/macro.h"
#include "core/sysroot.h"

/*
 * Read a small file whole (max bytes, NUL-terminated) below a directory fd opened inside
 * the root (or r->fd itself), resolved inside it as sysroot_open_at() does (sysroot.h):
 * one openat2(2) below dfd. -ENOENT, -EFBIG, ... Opened O_NONBLOCK and checked after the
 * open: only a regular file is read; a FIFO, device or socket is -EBADFD, a directory
 * -EISDIR, so no read blocks. Below a top of the root: sysroot_read_file().
 */
int read_full_file_at(const struct sysroot *r, int dfd, const char *path, size_t max, char **ret,
		      size_t *ret_size);
/*
 * The first line of a sysfs-style attribute (4096 bytes at most, -EFBIG past them),
 * trailing whitespace stripped: openat2, one pread(2), close. No fstat(2): a FIFO is
 * refused by pread(2) itself (-EBADFD), a directory is -EISDIR; nothing blocks.
 */
int read_one_line_at(const struct sysroot *r, int dfd, const char *path, char **ret);
/*
 * The same into the caller's buffer, no malloc: one pread(2) (sysfs hands out an
 * attribute whole, a page at most; a small regular file reads whole too), the first line,
 * trailing blanks stripped. -EFBIG when the file does not fit in size - 1 bytes. For the
 * attributes of thousands of PCI functions (topology), below the function's directory fd.
 */
int read_one_line_buf_at(const struct sysroot *r, int dfd, const char *name, char *buf,
			 size_t size);
/* The same from an open fd (not closed); the same checks. */
int read_full_fd(int fd, size_t max, char **ret, size_t *ret_size);
/*
 * A file that lets something start (the report, a gate record) may only have been written
 * by root or by owner (whoever runs hostprep: a test's own files): 0 when fd is a regular
 * file of one of them that no group or other may write; -EPERM otherwise, -EBADFD when it
 * is not a regular file.
 */
int fd_trusted(int fd, uid_t owner);
/*
 * path below dfd opened for reading (O_NONBLOCK, O_NOFOLLOW), *ret its fstat(2): the fd of
 * a regular file, -EISDIR, -EBADFD (anything else, closed again: nothing read), -errno.
 * With read_full_regular_fd(): read_full_file_at() for a caller that wants the stat too.
 */
int open_regular_at(const struct sysroot *r, int dfd, const char *path, struct stat *ret);
/*
 * read_full_fd() of an fd open_regular_at() gave: no second fstat(2). known: its st_size,
 * read(2) stops there, without one more for the end: a regular file on disk and a sysfs
 * binary attribute are that long, a sysfs text attribute (4096) is shorter, so read to its
 * end as before, and procfs says 0: unknown. A file that grew since its fstat() is cut.
 */
int read_full_regular_fd(int fd, size_t max, size_t known, char **ret, size_t *ret_size);

/* A directory's entry as getdents64(2) gave it: d_type is DT_UNKNOWN where the fs says none. */
struct dir_entry {
	char *name; /* in its listing's names */
	unsigned char type;
};
struct dir_entries {
	struct dir_entry *v;
	size_t n;
	char *names; /* every name, NUL-terminated, one after the other */
};
/*
 * The entries of the directory open at fd but "." and "..", unsorted, from getdents64(2)
 * on that fd: no fdopendir() (an fstat(2) and two fcntl(2)s per directory, a fifth of a
 * snapshot's system calls on a sysfs tree). -errno.
 */
int read_dir_fd(int fd, struct dir_entries *ret);
void dir_entries_done(struct dir_entries *l);
int read_one_line_fd(int fd, char **ret);

/* Write all of data, retrying short writes and EINTR; -errno of the write that failed. */
int write_full(int fd, const void *data, size_t size);
/*
 * How durable an atomic write is. Both write a locked "<name>.tmp-XXXXXX" and rename it
 * over name, so a reader sees the old or the new file whole and a kill -9 at any point
 * leaves one of them. WRITE_DURABLE also fsyncs the file before the rename and the
 * directory after it, so the new file survives a power loss: the originals record, the
 * modprobe.d and GRUB drop-ins, files other systems read from /var/lib. WRITE_VOLATILE
 * skips both fsyncs: for files under /run (report.json, rdma.env, gpus.json), which a
 * power loss removes anyway and whose fsyncs cost ~2 ms per run on a disk-backed --root.
 */
enum write_mode {
	WRITE_DURABLE = 0,
	WRITE_VOLATILE = 1 << 0,
	/*
	 * Or'ed to either: the temp is the dot-file ".<name>.tmp-XXXXXX", for a directory
	 * another tool scans (NFD's features.d reads every file but dot-files; node_exporter's
	 * textfile dir reads *.prom only): it never sees a half-written file.
	 */
	WRITE_HIDDEN_TEMP = 1 << 1,
};

/*
 * Write name in the directory dfd, opened inside the root (sysroot_mkdirs(); O_RDONLY,
 * for the directory's fsync): name is one name in it (-EINVAL for a path); the temp file
 * is made there (O_EXCL, O_NOFOLLOW), renamed over name (renameat(2)), the directory
 * fsynced (see enum write_mode): nothing is resolved by a path string, nothing follows a
 * link.
 */
int write_file_atomic_at(int dfd, const char *name, const void *data, size_t size, mode_t mode,
			 enum write_mode wm);
/*
 * The same, the bytes written by fill() to a buffered stream as it makes them, so that a
 * large file is never held whole. Each buffer flush is a write(2) of the temp file; the
 * first failure (-errno) is returned, or fill()'s own negative errno.
 */
int write_file_atomic_stream_at(int dfd, const char *name, mode_t mode, enum write_mode wm,
				int (*fill)(FILE *f, void *userdata), void *userdata);
/*
 * Remove the "*.tmp-XXXXXX" files of the atomic writer in dfd whose writer is gone (a
 * kill -9 mid-write): only in a directory that holds nothing but hostprep's own files.
 * Returns how many, -errno.
 */
int unlink_stale_temps_at(int dfd);
