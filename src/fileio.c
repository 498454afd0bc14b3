// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>

#include "fileio.h"

int read_full_file(const char *path, size_t max, char **ret, size_t *ret_size)
{
	_cleanup_(closep) int fd = -1;
	_cleanup_(freep) char *buf = NULL;
	size_t n = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	buf = malloc(max + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t k = read(fd, buf + n, max + 1 - n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			break;
		n += k;
		if (n > max)
			return -EFBIG;
	}
	buf[n] = '\0';
	if (ret_size)
		*ret_size = n;
	*ret = TAKE_PTR(buf);
	return 0;
}

int read_one_line(const char *path, char **ret)
{
	char *s = NULL;
	size_t n;
	int r;

	r = read_full_file(path, 4096, &s, NULL);
	if (r < 0)
		return r;
	n = strcspn(s, "\n");
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	s[n] = '\0';
	*ret = s;
	return 0;
}

int fsync_parent_dir(const char *path)
{
	_cleanup_(freep) char *copy = strdup(path);
	_cleanup_(closep) int fd = -1;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		return -errno;
	return 0;
}

static int write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size > 0) {
		ssize_t k = write(fd, p, size);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += k;
		size -= k;
	}
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t size, mode_t mode)
{
	_cleanup_(freep) char *tmp = NULL;
	_cleanup_(closep) int fd = -1;
	int r;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write_all(fd, data, size);
	if (r >= 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r >= 0 && fsync(fd) < 0)
		r = -errno;
	if (r >= 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	return fsync_parent_dir(path);
}

int mkdir_parents(const char *path, mode_t mode)
{
	_cleanup_(freep) char *p = strdup(path);

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}
