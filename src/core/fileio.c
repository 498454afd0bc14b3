// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/sysroot.h"

/* What stat says of a file that is not regular, for the debug log. */
static const char *file_type(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISDIR(m)  ? "a directory"
			     : "not a regular file";
}

/*
 * Everything read here is a regular file: sysfs attributes, /proc files, our own records
 * and report. A FIFO planted in a tree (or in /run) would block read() forever; opened
 * O_NONBLOCK it does not, and this refuses it before any read.
 */
static int check_regular(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return 0;
	log_debug("%s is %s, not read.", path, file_type(st.st_mode));
	return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
}

/* The buffer grows from a page: a cap of 1 MiB for a sysfs attribute (st_size says
 * nothing there) must not cost 1 MiB per read, and a snapshot reads thousands. */
#define READ_FIRST 4096

/*
 * Into buf (cap bytes, *n of them read): 1 at the end (EOF, or the known size read), 0
 * when buf is full first; -EFBIG past max, -errno.
 */
static int read_some(int fd, char *buf, size_t cap, size_t *n, size_t max, size_t known)
{
	while (*n < cap) {
		ssize_t k = read(fd, buf + *n, cap - *n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			return 1;
		*n += k;
		if (*n > max)
			return -EFBIG;
		if (*n == known)
			return 1;
	}
	return 0;
}

/* first (n bytes, the whole file) as a heap string of its size. */
static int copy_out(const char *first, size_t n, char **ret, size_t *ret_size)
{
	char *buf = malloc(n + 1);

	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, n);
	buf[n] = '\0';
	if (ret_size)
		*ret_size = n;
	*ret = buf;
	return 0;
}

/* The next size of a buffer that is full: doubling, up to max + 1 (room to see max + 1). */
static size_t grow_cap(size_t cap, size_t max)
{
	return cap > (max + 1) / 2 ? max + 1 : cap * 2;
}

/*
 * fd, a regular file (checked by the caller), read to its end: max bytes at most, and not
 * past known (st_size; 0 unknown), as tar reads a file: a read that brings the bytes its
 * size says is the last (read_full_regular_fd() says where that holds). What fits a page
 * is read on the stack and copied out at its size: a sysfs attribute says 4096 bytes and
 * holds a line, and a block of a page is past glibc's fast bins (it consolidates the heap
 * first), once per file of a snapshot. The reads are the same either way.
 */
static int read_all(int fd, size_t max, size_t known, char **ret, size_t *ret_size)
{
	char first[READ_FIRST + 1];
	_cleanup_(freep) char *buf = NULL;
	size_t n = 0, cap = max + 1 < READ_FIRST ? max + 1 : READ_FIRST;
	int r;

	if (known && known <= max)
		cap = known + 1;
	if (cap <= sizeof(first)) {
		r = read_some(fd, first, cap, &n, max, known);
		if (r != 0)
			return r < 0 ? r : copy_out(first, n, ret, ret_size);
		cap = grow_cap(cap, max); /* full: on to the heap */
	}
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, n);
	while ((r = read_some(fd, buf, cap, &n, max, known)) == 0) {
		size_t more = grow_cap(cap, max);
		char *grown = realloc(buf, more);

		if (!grown)
			return -ENOMEM;
		buf = grown;
		cap = more;
	}
	if (r < 0)
		return r;
	buf[n] = '\0'; /* a read ends with room left: n < cap */
	if (ret_size)
		*ret_size = n;
	*ret = TAKE_PTR(buf);
	return 0;
}

static int read_checked(int fd, const char *path, size_t max, char **ret, size_t *ret_size)
{
	int r = check_regular(fd, path);

	return r < 0 ? r : read_all(fd, max, 0, ret, ret_size);
}

/* O_NONBLOCK: a FIFO does not block open(2); read_checked() and read_line() refuse it. */
static int open_read_at(const struct sysroot *r, int dfd, const char *path)
{
	return sysroot_open_at(r, dfd, path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
}

int read_full_file_at(const struct sysroot *r, int dfd, const char *path, size_t max, char **ret,
		      size_t *ret_size)
{
	_cleanup_(closep) int fd = open_read_at(r, dfd, path);

	if (fd < 0)
		return fd;
	return read_checked(fd, path, max, ret, ret_size);
}

int fd_trusted(int fd, uid_t owner)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADFD;
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) || (st.st_uid != 0 && st.st_uid != owner))
		return -EPERM;
	return 0;
}

int read_full_fd(int fd, size_t max, char **ret, size_t *ret_size)
{
	return read_checked(fd, "a file", max, ret, ret_size);
}

int open_regular_at(const struct sysroot *r, int dfd, const char *path, struct stat *ret)
{
	int fd = sysroot_open_at(r, dfd, path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY), k;

	if (fd < 0)
		return fd;
	if (fstat(fd, ret) < 0)
		k = -errno;
	else if (!S_ISREG(ret->st_mode))
		k = S_ISDIR(ret->st_mode) ? -EISDIR : -EBADFD;
	else
		return fd;
	close(fd);
	return k;
}

int read_full_regular_fd(int fd, size_t max, size_t known, char **ret, size_t *ret_size)
{
	return read_all(fd, max, known, ret, ret_size);
}

/* Room for a sysfs device directory's entries (about 40) in one getdents64(2). */
#define DIR_BUF 32768

/* A listing being read: each name's offset in names until read_dir_fd() points them. */
struct dir_build {
	struct dir_entries l;
	size_t alloc;	  /* entries l.v has room for */
	size_t used, cap; /* bytes of l.names */
};

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *grown;

	while (n < want)
		n *= 2;
	if (n == *cap)
		return 0;
	grown = reallocarray(*p, n, size);
	if (!grown)
		return -ENOMEM;
	*p = grown;
	*cap = n;
	return 0;
}

/*
 * Both arrays grow by doubling, the names in one buffer: a snapshot lists thousands of
 * directories, and a realloc() of the array and a strdup() of the name per entry were
 * heap work for every one of them.
 */
static int dir_entry_add(struct dir_build *b, const struct dirent64 *de)
{
	size_t len = strlen(de->d_name) + 1;
	int r;

	if (streq(de->d_name, ".") || streq(de->d_name, ".."))
		return 0;
	r = grow((void **)&b->l.v, &b->alloc, b->l.n + 1, sizeof(*b->l.v));
	if (r >= 0)
		r = grow((void **)&b->l.names, &b->cap, b->used + len, 1);
	if (r < 0)
		return r;
	memcpy(b->l.names + b->used, de->d_name, len);
	b->l.v[b->l.n++] =
		(struct dir_entry){ .name = (char *)(uintptr_t)b->used, .type = de->d_type };
	b->used += len;
	return 0;
}

int read_dir_fd(int fd, struct dir_entries *ret)
{
	/* on the stack: a heap block this size cost a consolidation of the heap per listing */
	_Alignas(struct dirent64) char buf[DIR_BUF];
	struct dir_build b = {};
	int r = 0;

	while (r >= 0) {
		ssize_t k = getdents64(fd, buf, DIR_BUF);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) { /* 0: the end */
			r = k < 0 ? -errno : 0;
			break;
		}
		for (ssize_t o = 0; r >= 0 && o < k;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + o);

			r = dir_entry_add(&b, de);
			o += de->d_reclen;
		}
	}
	if (r < 0) {
		dir_entries_done(&b.l);
		return r;
	}
	for (size_t i = 0; i < b.l.n; i++)
		b.l.v[i].name = b.l.names + (uintptr_t)b.l.v[i].name;
	*ret = b.l;
	return 0;
}

void dir_entries_done(struct dir_entries *l)
{
	free(l->names);
	free(l->v);
	*l = (struct dir_entries){};
}

static void first_line(char *s)
{
	size_t n = strcspn(s, "\n");

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	s[n] = '\0';
}

/*
 * A one-line file (a sysfs attribute, a /proc value, a record's line), opened O_NONBLOCK:
 * one pread(2), no fstat(2) first (a quarter of the system calls of a check). Nothing
 * blocks without it: a FIFO opened O_NONBLOCK does not block open(2), and pread(2)
 * refuses it (ESPIPE, reported as before as -EBADFD); a directory is -EISDIR; a device
 * node (none in sysfs or procfs, only in a --root tree made so) is read within size like
 * a file, never waited on (O_NONBLOCK). A regular file or attribute is read whole by one
 * call: its size past size - 1 is -EFBIG.
 */
static int read_line(int fd, const char *path, char *buf, size_t size)
{
	ssize_t k;

	do
		k = pread(fd, buf, size, 0);
	while (k < 0 && errno == EINTR);
	if (k < 0 && errno == ESPIPE) {
		log_debug("%s is a FIFO, not read.", path);
		return -EBADFD;
	}
	if (k < 0)
		return -errno;
	if ((size_t)k >= size)
		return -EFBIG;
	buf[k] = '\0';
	first_line(buf);
	return 0;
}

/* 4096 bytes at most, as a sysfs attribute (PAGE_SIZE) */
#define LINE_FILE_MAX 4096

static int read_line_dup(int fd, const char *path, char **ret)
{
	char buf[LINE_FILE_MAX + 1];
	int r = read_line(fd, path, buf, sizeof(buf));

	if (r < 0)
		return r;
	*ret = strdup(buf);
	return *ret ? 0 : -ENOMEM;
}

int read_one_line_at(const struct sysroot *root, int dfd, const char *path, char **ret)
{
	_cleanup_(closep) int fd = open_read_at(root, dfd, path);

	if (fd < 0)
		return fd;
	return read_line_dup(fd, path, ret);
}

int read_one_line_buf_at(const struct sysroot *root, int dfd, const char *name, char *buf,
			 size_t size)
{
	_cleanup_(closep) int fd = open_read_at(root, dfd, name);

	if (fd < 0)
		return fd;
	return read_line(fd, name, buf, size);
}

int read_one_line_fd(int fd, char **ret)
{
	return read_line_dup(fd, "a file", ret);
}

int write_full(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size > 0) {
		ssize_t k = write(fd, p, size);

		if (k == 0)
			return -EIO;
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

#define TEMP_SUFFIX	".tmp-"
#define TEMP_RANDOM_LEN 6 /* "XXXXXX", as mkostemp(3)'s */

/* "<name>.tmp-XXXXXX", or ".<name>.tmp-XXXXXX" for WRITE_HIDDEN_TEMP (name: no '/'). */
static int temp_name(const char *name, enum write_mode wm, char **ret)
{
	int n = asprintf(ret, "%s%s" TEMP_SUFFIX "XXXXXX", wm & WRITE_HIDDEN_TEMP ? "." : "", name);

	return n < 0 ? -ENOMEM : 0;
}

/* A stdio stream onto write_full(): every byte goes through write(2), the first error kept. */
struct fd_stream {
	int fd;
	int err; /* negative errno of the first failed write */
};

static ssize_t fd_stream_write(void *cookie, const char *buf, size_t size)
{
	struct fd_stream *s = cookie;
	int r;

	if (s->err < 0)
		return -1;
	r = write_full(s->fd, buf, size);
	if (r < 0) {
		s->err = r;
		errno = -r;
		return -1;
	}
	return (ssize_t)size;
}

#define STREAM_BUF_SIZE (32 * 1024) /* a small report in one write(2) */

static int fill_fd(int fd, int (*fill)(FILE *f, void *userdata), void *userdata)
{
	static const cookie_io_functions_t io = { .write = fd_stream_write };
	_cleanup_(freep) char *buf = malloc(STREAM_BUF_SIZE);
	struct fd_stream s = { .fd = fd };
	FILE *f;
	int r;

	if (!buf)
		return -ENOMEM;
	f = fopencookie(&s, "w", io);
	if (!f)
		return -ENOMEM;
	if (setvbuf(f, buf, _IOFBF, STREAM_BUF_SIZE) != 0) {
		fclose(f);
		return -ENOMEM;
	}
	r = fill(f, userdata);
	if (fclose(f) != 0 && r >= 0) /* flushes; the fd is ours, the cookie has no close */
		r = s.err < 0 ? s.err : -EIO;
	if (r >= 0 && s.err < 0)
		r = s.err;
	return r;
}

/*
 * Six letters or digits for a temp name: getrandom(2) when it has entropy without
 * waiting (early boot may not), else the clock, the pid and a counter, mixed. O_EXCL
 * makes the name unique; this only makes a collision rare.
 */
static void temp_suffix(char *out)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t counter;
	struct timespec ts;
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = ((uint64_t)ts.tv_sec << 32 ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 48) +
		    ++counter * 0x9e3779b97f4a7c15ULL;
	}
	for (int i = 0; i < TEMP_RANDOM_LEN; i++, v /= sizeof(set) - 1)
		out[i] = set[v % (sizeof(set) - 1)];
}

/*
 * The temp file in dfd, O_EXCL and O_NOFOLLOW (nothing followed there). It stays locked
 * (flock) for as long as it has its temp name: a run that finds one it can lock knows its
 * writer was killed (death releases the lock) and may remove it. One removed between the
 * open and flock() has no link left: make another.
 */
static int open_temp_at(int dfd, char *tmp)
{
	size_t n = strlen(tmp);

	for (int tries = 0; tries < 64; tries++) {
		_cleanup_(closep) int fd = -1;
		struct stat st;

		temp_suffix(tmp + n - TEMP_RANDOM_LEN);
		fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -errno;
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR)
				return -errno;
		if (fstat(fd, &st) < 0)
			return -errno;
		if (st.st_nlink > 0)
			return TAKE_FD(fd);
	}
	return -EBUSY;
}

/*
 * The temp file's end: mode, fsync, renameat, fsync(dfd) (no fsyncs for WRITE_VOLATILE;
 * dfd opened for reading, for its fsync); r < 0 (the write failed): unlink.
 */
static int finish_temp_at(int dfd, int fd, const char *tmp, const char *name, mode_t mode,
			  enum write_mode wm, int r)
{
	bool durable = !(wm & WRITE_VOLATILE);

	if (r >= 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r >= 0 && durable && fsync(fd) < 0)
		r = -errno;
	if (r >= 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dfd, tmp, 0);
		return r;
	}
	return durable && fsync(dfd) < 0 ? -errno : 0;
}

static int open_temp_for_at(int dfd, const char *name, enum write_mode wm, char **ret_tmp)
{
	_cleanup_(freep) char *tmp = NULL;
	int fd;

	if (!name[0] || strchr(name, '/'))
		return -EINVAL; /* one name in dfd: nothing on the way to follow */
	fd = temp_name(name, wm, &tmp);
	if (fd < 0)
		return fd;
	fd = open_temp_at(dfd, tmp);
	if (fd < 0)
		return fd;
	*ret_tmp = TAKE_PTR(tmp);
	return fd;
}

int write_file_atomic_at(int dfd, const char *name, const void *data, size_t size, mode_t mode,
			 enum write_mode wm)
{
	_cleanup_(freep) char *tmp = NULL;
	_cleanup_(closep) int fd = -1;

	fd = open_temp_for_at(dfd, name, wm, &tmp);
	if (fd < 0)
		return fd;
	return finish_temp_at(dfd, fd, tmp, name, mode, wm, write_full(fd, data, size));
}

int write_file_atomic_stream_at(int dfd, const char *name, mode_t mode, enum write_mode wm,
				int (*fill)(FILE *f, void *userdata), void *userdata)
{
	_cleanup_(freep) char *tmp = NULL;
	_cleanup_(closep) int fd = -1;

	fd = open_temp_for_at(dfd, name, wm, &tmp);
	if (fd < 0)
		return fd;
	return finish_temp_at(dfd, fd, tmp, name, mode, wm, fill_fd(fd, fill, userdata));
}

static bool is_temp_name(const char *name)
{
	size_t n = strlen(name), k = sizeof(TEMP_SUFFIX) - 1 + TEMP_RANDOM_LEN;

	if (n <= k || !strneq(name + n - k, TEMP_SUFFIX, sizeof(TEMP_SUFFIX) - 1))
		return false;
	for (const char *p = name + n - TEMP_RANDOM_LEN; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

int unlink_stale_temps_at(int dfd)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;
	int n = 0, fd;

	/* A new open file description: its own position, the caller keeps dfd. */
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		n = -errno;
		close(fd);
		return n;
	}
	while ((e = readdir(d))) {
		_cleanup_(closep) int tfd = -1;

		if (!is_temp_name(e->d_name))
			continue;
		tfd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		/* Locked: its writer is alive, and renames or removes it itself. */
		if (tfd < 0 || flock(tfd, LOCK_EX | LOCK_NB) < 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			n++;
	}
	return n;
}
