// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot's tar, written with libarchive: pax (sysfs paths are longer than ustar's
 * 100 bytes), zstd when this libarchive has it built in, else gzip. Owner root:root and
 * no user or group names: nothing of who ran it.
 *
 * The stream ends where the compressor ends it: libarchive pads the last block to 10240
 * bytes on a pipe, FIFO, character device or fd 1 unless told not to, and zstd -t and
 * tar --zstd reject a stream padded with zeros.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "core/log.h"
#include "snapshot/snapshot.h"

static int tar_error(struct snapshot *s, const char *what)
{
	int e = archive_errno(s->a);

	log_error("Failed to %s: %s", what, archive_error_string(s->a));
	return e > 0 ? -e : -EIO;
}

/* Whether this libarchive compresses zstd itself (ARCHIVE_WARN: it would run a program). */
bool snapshot_tar_has_zstd(void)
{
	struct archive *a = archive_write_new();
	bool ok = a && archive_write_add_filter_zstd(a) == ARCHIVE_OK;

	archive_write_free(a);
	return ok;
}

int snapshot_tar_open(struct snapshot *s, int fd, bool zstd)
{
	s->a = archive_write_new();
	if (!s->a)
		return -ENOMEM;
	if (archive_write_set_format_pax_restricted(s->a) != ARCHIVE_OK)
		return tar_error(s, "set the tar format");
	if (archive_write_set_bytes_in_last_block(s->a, 1) != ARCHIVE_OK)
		return tar_error(s, "set the tar's last block");
	if ((zstd ? archive_write_add_filter_zstd(s->a) : archive_write_add_filter_gzip(s->a)) !=
	    ARCHIVE_OK)
		return tar_error(s, "set up the compression");
	if (archive_write_open_fd(s->a, fd) != ARCHIVE_OK)
		return tar_error(s, "open the tar");
	return 0;
}

int snapshot_tar_close(struct snapshot *s)
{
	int r = 0;

	if (!s->a)
		return 0;
	if (archive_write_close(s->a) != ARCHIVE_OK)
		r = tar_error(s, "finish the tar");
	archive_write_free(s->a);
	s->a = NULL;
	return r;
}

static struct archive_entry *entry_new(const char *rel, mode_t mode, time_t mtime)
{
	struct archive_entry *e = archive_entry_new();

	if (!e)
		return NULL;
	archive_entry_set_pathname(e, rel);
	archive_entry_set_mode(e, mode);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, mtime, 0);
	return e;
}

static int entry_write(struct snapshot *s, struct archive_entry *e, const void *data, size_t size)
{
	int r = 0;

	if (archive_write_header(s->a, e) != ARCHIVE_OK)
		r = tar_error(s, "write a tar header");
	else if (size && archive_write_data(s->a, data, size) != (la_ssize_t)size)
		r = tar_error(s, "write to the tar");
	archive_entry_free(e);
	return r;
}

int snapshot_tar_dir(struct snapshot *s, const char *rel, mode_t mode, time_t mtime)
{
	struct archive_entry *e = entry_new(rel, S_IFDIR | (mode & 07777), mtime);

	if (!e)
		return -ENOMEM;
	s->dirs++;
	return entry_write(s, e, NULL, 0);
}

int snapshot_tar_link(struct snapshot *s, const char *rel, const char *target, time_t mtime)
{
	struct archive_entry *e = entry_new(rel, S_IFLNK | 0777, mtime);

	if (!e)
		return -ENOMEM;
	archive_entry_set_symlink(e, target);
	s->links++;
	return entry_write(s, e, NULL, 0);
}

int snapshot_tar_file(struct snapshot *s, const char *rel, mode_t mode, time_t mtime,
		      const void *data, size_t size)
{
	struct archive_entry *e = entry_new(rel, S_IFREG | (mode & 07777), mtime);

	if (!e)
		return -ENOMEM;
	archive_entry_set_size(e, (la_int64_t)size);
	s->files++;
	s->bytes += size;
	return entry_write(s, e, data, size);
}

int snapshot_tar_node(struct snapshot *s, const char *rel, mode_t mode, dev_t rdev, time_t mtime)
{
	struct archive_entry *e = entry_new(rel, mode, mtime);

	if (!e)
		return -ENOMEM;
	archive_entry_set_rdevmajor(e, major(rdev));
	archive_entry_set_rdevminor(e, minor(rdev));
	s->nodes++;
	return entry_write(s, e, NULL, 0);
}
