// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where `snapshot -o PATH` writes, decided by what PATH is, never by replacing what it is:
 *   - a regular file, or a name that does not exist: the tar is written under a temporary
 *     name beside it and renamed over it when whole (mode 0600): all or nothing;
 *   - a FIFO or a character device (a pipe to a reader, /dev/null, a tape): the tar is
 *     written into it as one stream; renaming over it would replace the system's
 *     /dev/null or a reader's FIFO;
 *   - a symlink that leads to a FIFO or a character device (/dev/stdout, /dev/fd/N on a
 *     pipe): the same, through the link;
 *   - anything else is refused (exit 2), written to nothing: a directory, a block device
 *     (a tar over a disk), a socket, and a symlink to a file or to nothing: renaming over
 *     it would replace the link, and writing through it would write wherever it leads (a
 *     link planted in /tmp). -o - (standard output) is the way to a shell's redirection.
 * A terminal is refused as standard output is.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "snapshot/snapshot.h"

static int refuse(const char *path, const char *why)
{
	log_error("Not writing the snapshot to '%s': %s.", path, why);
	return -EINVAL;
}

static bool is_stream(const struct stat *st)
{
	return S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode);
}

static const char *refused_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "it is a directory";
	if (S_ISBLK(st->st_mode))
		return "it is a block device";
	if (S_ISSOCK(st->st_mode))
		return "it is a socket";
	return "it is not a regular file, a FIFO or a character device";
}

/* A symlink: what it leads to decides, and only a stream is written through it. */
static int kind_of_link(const char *path, enum snapshot_out *ret)
{
	_cleanup_(closep) int fd = open(path, O_PATH | O_CLOEXEC);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return refuse(path, "it is a symlink to nothing (name the file itself)");
	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(errno, "Failed to open '%s': %m", path);
	if (!is_stream(&st))
		return refuse(path,
			      S_ISREG(st.st_mode)
				      ? "it is a symlink to a file (name the file itself, or -o -)"
				      : refused_kind(&st));
	*ret = SNAPSHOT_OUT_STREAM;
	return 0;
}

int snapshot_out_kind(const char *path, enum snapshot_out *ret)
{
	_cleanup_(closep) int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	*ret = SNAPSHOT_OUT_REPLACE;
	if (fd < 0 && errno == ENOENT)
		return 0; /* a new name (or a missing directory: the temporary file says so) */
	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(errno, "Failed to open '%s': %m", path);
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISLNK(st.st_mode))
		return kind_of_link(path, ret);
	if (!is_stream(&st))
		return refuse(path, refused_kind(&st));
	*ret = SNAPSHOT_OUT_STREAM;
	return 0;
}

int snapshot_out_stream(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	bool tty;

	if (fd < 0)
		return log_error_errno(errno, "Failed to open '%s': %m", path);
	tty = isatty(fd);
	if (fstat(fd, &st) < 0 || !is_stream(&st) || tty) {
		close(fd); /* a terminal, or it changed since it was looked at */
		return refuse(path, tty ? "it is a terminal" : "it is no longer a FIFO or device");
	}
	return fd;
}

int snapshot_out_temp(const char *path, char **ret_tmp)
{
	char *tmp = NULL;
	int fd;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(tmp);
		return log_error_errno(errno, "Failed to create '%s.tmp-XXXXXX': %m", path);
	}
	*ret_tmp = tmp;
	return fd;
}

int snapshot_out_finish(const char *path, const char *tmp, int fd, int r)
{
	if (r >= 0 && (fchmod(fd, 0600) < 0 || fsync(fd) < 0))
		r = log_error_errno(errno, "Failed to write '%s': %m", tmp);
	close(fd);
	if (r >= 0 && rename(tmp, path) < 0)
		r = log_error_errno(errno, "Failed to rename '%s' to '%s': %m", tmp, path);
	if (r < 0)
		(void)unlink(tmp);
	return r;
}
