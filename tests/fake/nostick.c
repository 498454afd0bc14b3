// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for tests/fake/run.sh: a write to a file named "config"
 * succeeds but does not stick, or only partly, the way a device that ignores
 * (or hard-wires) some bits of a register behaves. The write returns the full
 * count; what reaches the file is, bit by bit, the new value where
 * NOSTICK_MASK has a 1 and the old one elsewhere. NOSTICK_MASK (a 16-bit
 * number, applied to each little-endian word of the write; default 0) says
 * which bits stick: 0 stores nothing, 0x0004 only bit 2. Only a read-back
 * comparison after the write can tell. Covers pwrite/pwrite64/write/pwritev/
 * pwritev2. Build:
 *   cc -shared -fPIC -o nostick.so nostick.c -ldl
 * NOSTICK_LOG=FILE appends one line per write: path, offset, bytes asked.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*pwritev2_fn)(int, const struct iovec *, int, off_t, int);

#define REAL(name)                                                      \
	static name##_fn real_##name;                                   \
	if (!real_##name)                                               \
		real_##name = (name##_fn)dlsym(RTLD_NEXT, #name)

static int fd_path(int fd, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, size - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return 1;
}

static int is_config_fd(int fd, char *path, size_t size)
{
	const char *base;

	if (fd <= 2 || !fd_path(fd, path, size))
		return 0;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "config") == 0;
}

static unsigned long mask16(void)
{
	const char *m = getenv("NOSTICK_MASK");

	return m ? strtoul(m, NULL, 0) & 0xffff : 0;
}

/* Store what sticks of BUF at OFF: per byte, (old & ~mask) | (new & mask). */
static ssize_t store_sticking(int fd, const char *path, const void *buf, size_t count, off_t off)
{
	REAL(pwrite);
	unsigned long mask = mask16();
	unsigned char old[4096], out[4096];
	const unsigned char *in = buf;
	const char *log = getenv("NOSTICK_LOG");
	size_t i, n = count < sizeof(out) ? count : sizeof(out);
	ssize_t got;

	if (log) {
		FILE *f = fopen(log, "ae");
		if (f) {
			fprintf(f, "%s +0x%llx %zu bytes, mask 0x%04lx\n", path,
				(unsigned long long)off, count, mask);
			fclose(f);
		}
	}
	if (mask == 0)
		return (ssize_t)count;
	got = pread(fd, old, n, off);
	if (got < (ssize_t)n)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned char m = (mask >> (8 * ((off + i) & 1))) & 0xff;
		out[i] = (old[i] & ~m) | (in[i] & m);
	}
	if (real_pwrite(fd, out, n, off) != (ssize_t)n)
		return -1;
	return (ssize_t)count;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	char path[4096];

	REAL(pwrite);
	if (is_config_fd(fd, path, sizeof(path)))
		return store_sticking(fd, path, buf, count, off);
	return real_pwrite(fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	char path[4096];

	REAL(pwrite64);
	if (is_config_fd(fd, path, sizeof(path)))
		return store_sticking(fd, path, buf, count, off);
	return real_pwrite64(fd, buf, count, off);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	char path[4096];
	ssize_t r;
	off_t off;

	REAL(write);
	if (!is_config_fd(fd, path, sizeof(path)))
		return real_write(fd, buf, count);
	off = lseek(fd, 0, SEEK_CUR);
	r = store_sticking(fd, path, buf, count, off);
	if (r > 0)
		lseek(fd, off + r, SEEK_SET);
	return r;
}

/* Vectored writes: the iovecs one after the other, as the kernel would. */
static ssize_t store_vec(int fd, const char *path, const struct iovec *iov, int cnt, off_t off)
{
	ssize_t total = 0, r;
	int i;

	for (i = 0; i < cnt; i++) {
		r = store_sticking(fd, path, iov[i].iov_base, iov[i].iov_len, off + total);
		if (r < 0)
			return total ? total : r;
		total += r;
	}
	return total;
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	char path[4096];

	REAL(pwritev);
	if (is_config_fd(fd, path, sizeof(path)))
		return store_vec(fd, path, iov, cnt, off);
	return real_pwritev(fd, iov, cnt, off);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	char path[4096];

	REAL(pwritev2);
	if (is_config_fd(fd, path, sizeof(path)))
		return store_vec(fd, path, iov, cnt, off);
	return real_pwritev2(fd, iov, cnt, off, flags);
}
