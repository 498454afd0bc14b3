// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot's tar, written with libarchive: pax (sysfs paths are longer than ustar's
 * 100 bytes), zstd when this libarchive has it built in, else gzip. Owner root:root and
 * no user or group names: nothing of who ran it.
 *
 * Names are stored byte for byte. A UTF-8 name as pax wants it: libarchive converts names
 * from the locale's charset, so each header is written under a C.UTF-8 thread locale
 * (hostprep runs in "C", where no byte above 0x7f converts). A name that is not UTF-8 (a
 * host's names are bytes, and hostprep compares bytes) is written raw, marked pax
 * hdrcharset=BINARY, by libarchive's own fallback (ARCHIVE_WARN, taken as success for such
 * a name only), and named in the manifest; GNU tar warns "unknown extended header keyword
 * 'hdrcharset'" for it and keeps its bytes. Never a reason to fail the snapshot.
 *
 * The stream ends where the compressor ends it: libarchive pads the last block to 10240
 * bytes on a pipe, FIFO, character device or fd 1 unless told not to, and zstd -t and
 * tar --zstd reject a stream padded with zeros.
 */
#include <errno.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <sys/sysmacros.h>

#include "core/log.h"
#include "snapshot/archive-dlopen.h"
#include "snapshot/snapshot.h"

DLOPEN_LIB(libarchive, ARCHIVE_SYMS, ARCHIVE_SONAME, "hostprep snapshot",
	   "libarchive13 on Debian, libarchive on Fedora");

int snapshot_tar_load(void)
{
	return dlopen_lib(&libarchive, LOG_ERR);
}

static int tar_error(struct snapshot *s, const char *what)
{
	int e = sym_archive_errno(s->a);

	log_error("Failed to %s: %s", what, sym_archive_error_string(s->a));
	return e > 0 ? -e : -EIO;
}

/* Whether this libarchive compresses zstd itself (ARCHIVE_WARN: it would run a program). */
bool snapshot_tar_has_zstd(void)
{
	struct archive *a = sym_archive_write_new();
	bool ok = a && sym_archive_write_add_filter_zstd(a) == ARCHIVE_OK;

	sym_archive_write_free(a);
	return ok;
}

int snapshot_tar_open(struct snapshot *s, int fd, bool zstd)
{
	s->a = sym_archive_write_new();
	if (!s->a)
		return -ENOMEM;
	/* none: UTF-8 names too are stored raw, as names that are not UTF-8 are */
	s->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (sym_archive_write_set_format_pax_restricted(s->a) != ARCHIVE_OK)
		return tar_error(s, "set the tar format");
	if (sym_archive_write_set_bytes_in_last_block(s->a, 1) != ARCHIVE_OK)
		return tar_error(s, "set the tar's last block");
	if ((zstd ? sym_archive_write_add_filter_zstd(s->a)
		  : sym_archive_write_add_filter_gzip(s->a)) != ARCHIVE_OK)
		return tar_error(s, "set up the compression");
	if (sym_archive_write_open_fd(s->a, fd) != ARCHIVE_OK)
		return tar_error(s, "open the tar");
	return 0;
}

int snapshot_tar_close(struct snapshot *s)
{
	int r = 0;

	if (!s->a)
		return 0;
	if (sym_archive_write_close(s->a) != ARCHIVE_OK)
		r = tar_error(s, "finish the tar");
	sym_archive_write_free(s->a);
	s->a = NULL;
	if (s->utf8)
		freelocale(s->utf8);
	s->utf8 = (locale_t)0;
	return r;
}

static void note_binary(struct snapshot *s, const char *what, const char *name)
{
	s->binary_names++;
	if (!s->notes)
		return;
	fprintf(s->notes, "not UTF-8, stored byte for byte: %s", what);
	snapshot_escape(s->notes, name);
	fputc('\n', s->notes);
}

static struct archive_entry *entry_new(struct snapshot *s, const char *rel, mode_t mode,
				       time_t mtime)
{
	struct archive_entry *e = sym_archive_entry_new();

	if (!e)
		return NULL;
	sym_archive_entry_set_pathname(e, rel);
	sym_archive_entry_set_mode(e, mode);
	sym_archive_entry_set_uid(e, 0);
	sym_archive_entry_set_gid(e, 0);
	sym_archive_entry_set_mtime(e, mtime, 0);
	return e;
}

/* Whether name's directory is UTF-8: only the first name that is not is named. */
static bool parent_utf8(const char *name)
{
	size_t n = strlen(name);
	_cleanup_(freep) char *parent = NULL;
	const char *slash;

	while (n > 0 && name[n - 1] == '/')
		n--;
	slash = memrchr(name, '/', n);
	if (!slash)
		return true;
	parent = strndup(name, (size_t)(slash - name));
	return !parent || snapshot_utf8(parent);
}

/* libarchive's ARCHIVE_WARN for a name that is not UTF-8: written raw (hdrcharset=BINARY) */
static bool header_ok(struct snapshot *s, struct archive_entry *e, int r)
{
	const char *name = sym_archive_entry_pathname(e), *target = sym_archive_entry_symlink(e);
	bool binary = false;

	if (r != ARCHIVE_WARN)
		return r == ARCHIVE_OK;
	if (!snapshot_utf8(name)) {
		if (parent_utf8(name))
			note_binary(s, "", name);
		binary = true;
	}
	if (target && !snapshot_utf8(target)) {
		note_binary(s, "the target of the symlink ", name);
		binary = true;
	}
	return binary;
}

static int entry_write(struct snapshot *s, struct archive_entry *e, const void *data, size_t size)
{
	locale_t old = s->utf8 ? uselocale(s->utf8) : (locale_t)0;
	int r = 0;

	if (!header_ok(s, e, sym_archive_write_header(s->a, e)))
		r = tar_error(s, "write a tar header");
	else if (size && sym_archive_write_data(s->a, data, size) != (la_ssize_t)size)
		r = tar_error(s, "write to the tar");
	if (old)
		uselocale(old);
	sym_archive_entry_free(e);
	return r;
}

int snapshot_tar_dir(struct snapshot *s, const char *rel, mode_t mode, time_t mtime)
{
	struct archive_entry *e = entry_new(s, rel, S_IFDIR | (mode & 07777), mtime);

	if (!e)
		return -ENOMEM;
	s->dirs++;
	return entry_write(s, e, NULL, 0);
}

int snapshot_tar_link(struct snapshot *s, const char *rel, const char *target, time_t mtime)
{
	struct archive_entry *e = entry_new(s, rel, S_IFLNK | 0777, mtime);

	if (!e)
		return -ENOMEM;
	sym_archive_entry_set_symlink(e, target);
	s->links++;
	return entry_write(s, e, NULL, 0);
}

int snapshot_tar_file(struct snapshot *s, const char *rel, mode_t mode, time_t mtime,
		      const void *data, size_t size)
{
	struct archive_entry *e = entry_new(s, rel, S_IFREG | (mode & 07777), mtime);

	if (!e)
		return -ENOMEM;
	sym_archive_entry_set_size(e, (la_int64_t)size);
	s->files++;
	s->bytes += size;
	return entry_write(s, e, data, size);
}

/*
 * A node keeps its numeric owner (no name): workload.devices judges who may open an RDMA
 * node, so the replay must see what the host had. Every other member is root's.
 */
int snapshot_tar_node(struct snapshot *s, const char *rel, const struct stat *st)
{
	struct archive_entry *e = entry_new(s, rel, st->st_mode, st->st_mtime);

	if (!e)
		return -ENOMEM;
	sym_archive_entry_set_uid(e, st->st_uid);
	sym_archive_entry_set_gid(e, st->st_gid);
	sym_archive_entry_set_rdevmajor(e, major(st->st_rdev));
	sym_archive_entry_set_rdevminor(e, minor(st->st_rdev));
	s->nodes++;
	return entry_write(s, e, NULL, 0);
}
