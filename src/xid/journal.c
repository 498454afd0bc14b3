// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal's kernel records of this boot (xid.h): journald keeps the kernel transport
 * for the whole boot, where /dev/kmsg has lost what the ring buffer overwrote. Each record
 * is handed to the same scan as a /dev/kmsg record, rewritten as one ("6,N,USEC,-;MESSAGE":
 * the sequence number its position, the time its kernel timestamp), so both sources are
 * classified by one code and a snapshot's replay reads the journal's records as a kmsg file.
 * sd_journal_next() on files never blocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/sd-dlopen.h"
#include "core/sysroot.h"
#include "report/gate.h"
#include "xid/xid.h"

#define LINE_BUF 16384 /* a record's text is at most 8 KiB (CONSOLE_EXT_LOG_MAX) */

static void journal_closep(sd_journal **j)
{
	if (*j)
		sym_sd_journal_close(*j);
}

/*
 * The journal files hostprep hands to libsystemd, each opened here through the root
 * (RESOLVE_IN_ROOT: a link out of the root finds nothing), so libsystemd opens no path
 * itself (sd_journal_open_directory_fd() would follow links out of a --root tree).
 * Only files written since this boot began can hold its records (a fleet's persistent
 * journal keeps gigabytes of older boots); past JOURNAL_FILES_MAX, the newest.
 */
#define JOURNAL_FILES_MAX 64

struct journal_files {
	int fd[JOURNAL_FILES_MAX];
	time_t mtime[JOURNAL_FILES_MAX];
	size_t n;
	long long btime; /* /proc/stat's; 0 unknown: every file */
};

static void journal_files_done(struct journal_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		close(f->fd[i]);
	f->n = 0;
}

static void journal_files_add(struct journal_files *f, int fd)
{
	struct stat st;
	size_t old = 0;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (f->btime > 0 && (long long)st.st_mtime < f->btime)) {
		close(fd);
		return;
	}
	if (f->n < JOURNAL_FILES_MAX) {
		f->fd[f->n] = fd;
		f->mtime[f->n++] = st.st_mtime;
		return;
	}
	for (size_t i = 1; i < f->n; i++)
		if (f->mtime[i] < f->mtime[old])
			old = i;
	if (st.st_mtime <= f->mtime[old]) {
		close(fd);
		return;
	}
	close(f->fd[old]);
	f->fd[old] = fd;
	f->mtime[old] = st.st_mtime;
}

static bool journal_name(const char *name)
{
	size_t n = strlen(name), k = strlen(".journal");

	return name[0] != '.' && n > k && streq(name + n - k, ".journal");
}

/* journald's per-machine folder: the machine ID, 32 lower-case hex digits. */
static bool machine_dir(const char *name)
{
	return strlen(name) == 32 && strspn(name, "0123456789abcdef") == 32;
}

/* The *.journal files of dir (below parent), and those of its machine-ID folders. */
static void journal_files_scan(const struct sysroot *root, int parent, const char *dir, bool top,
			       struct journal_files *f)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;

	if (sysroot_opendir_at(root, parent, dir, &d) < 0)
		return;
	while ((de = readdir(d))) {
		if (journal_name(de->d_name)) {
			int fd = sysroot_open_at(root, dirfd(d), de->d_name,
						 O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

			if (fd >= 0)
				journal_files_add(f, fd);
		} else if (top && machine_dir(de->d_name)) {
			journal_files_scan(root, dirfd(d), de->d_name, false, f);
		}
	}
}

/* The persistent journal and the volatile one (before journald flushed it). */
static void journal_files_find(const struct sysroot *root, struct journal_files *f)
{
	static const char *const dirs[] = { "var/log/journal", "run/log/journal" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		journal_files_scan(root, root->fd, dirs[i], true, f);
}

/* "_BOOT_ID=" and the boot ID without its dashes, as journald stores it. */
static void boot_match(const char *boot_id, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "_BOOT_ID=");

	for (const char *p = boot_id; *p && n + 1 < size; p++)
		if (*p != '-')
			buf[n++] = *p;
	buf[n] = '\0';
}

/* A field's value (after "NAME="), NULL when the record has none. */
static const char *field(sd_journal *j, const char *name, size_t *len)
{
	const void *d;
	size_t l, skip = strlen(name) + 1;

	if (sym_sd_journal_get_data(j, name, &d, &l) < 0 || l < skip)
		return NULL;
	*len = l - skip;
	return (const char *)d + skip;
}

/* The kernel's timestamp of the record (since boot), else when journald received it. */
static uint64_t record_usec(sd_journal *j)
{
	char num[24];
	const char *v;
	uint64_t usec = 0;
	size_t len;

	v = field(j, "_SOURCE_MONOTONIC_TIMESTAMP", &len);
	if (v && len > 0 && len < sizeof(num)) {
		memcpy(num, v, len);
		num[len] = '\0';
		if (strspn(num, "0123456789") == len)
			return strtoull(num, NULL, 10);
	}
	sym_sd_journal_get_monotonic_usec(j, &usec, NULL);
	return usec;
}

/* The current record as a kmsg record's first line, its message cut at a newline. */
static int scan_record(sd_journal *j, struct xid_scan *s, char *buf)
{
	size_t len = 0;
	const char *msg = field(j, "MESSAGE", &len);
	const char *end = msg ? memchr(msg, '\n', len) : NULL;
	int n;

	if (end)
		len = (size_t)(end - msg);
	end = msg ? memchr(msg, '\0', len) : NULL;
	if (end)
		len = (size_t)(end - msg);
	n = snprintf(buf, LINE_BUF, "6,%" PRIu64 ",%" PRIu64 ",-;", s->records, record_usec(j));
	snprintf(buf + n, LINE_BUF - (size_t)n, "%.*s", (int)len, msg ? msg : "");
	return xid_scan_line(s, buf);
}

static int scan_all(sd_journal *j, struct xid_scan *s)
{
	char buf[LINE_BUF];
	int r;

	while ((r = sym_sd_journal_next(j)) > 0) {
		if (s->records + s->malformed >= s->max_records) {
			s->capped = true;
			return 0;
		}
		r = scan_record(j, s, buf);
		if (r < 0)
			return r;
	}
	return r;
}

int xid_scan_journal(struct xid_scan *s, const struct sysroot *root)
{
	_cleanup_(journal_files_done) struct journal_files files = {};
	_cleanup_(journal_closep) sd_journal *j = NULL;
	char boot_id[BOOT_ID_LEN + 1], match[64];
	int r = sysroot_boot_time(root, &files.btime);

	if (r < 0)
		return r;
	journal_files_find(root, &files);
	if (!files.n)
		return -ENOENT;
	r = gate_boot_id(root, boot_id);
	if (r >= 0)
		r = dlopen_libsystemd(LOG_DEBUG);
	if (r < 0)
		return r;
	/* the fds stay ours: closed after the journal (journal_closep runs first) */
	r = sym_sd_journal_open_files_fd(&j, files.fd, (unsigned)files.n, 0);
	if (r < 0)
		return r;
	boot_match(boot_id, match, sizeof(match));
	r = sym_sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
	if (r >= 0)
		r = sym_sd_journal_add_match(j, match, 0);
	if (r >= 0)
		r = scan_all(j, s);
	return r < 0 ? r : (int)(s->records > 0);
}
