// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/record.h"

#define STATE_DIR    "hostprep"
#define RECORD_NAME  "acs-originals" /* in STATE_DIR below /run */
#define PERSIST_NAME "originals"     /* in STATE_DIR below /var/lib */
#define BACKUP_DIR   "hostprep/files"
#define BACKUP_NAME  "%08x.orig"
#define BACKUP_FMT   BACKUP_DIR "/" BACKUP_NAME
#define LOCK_NAME    "lock"

#define SEAL_PREFIX " crc32:"
/* The first line of a record: the number of lines after it (the file's seal). */
#define HEADER_PREFIX "hostprep-record "
#define HEADER_FMT    HEADER_PREFIX "2 lines %u"
#define SEAL_LEN      (sizeof(SEAL_PREFIX) - 1 + 8) /* " crc32:" + 8 hex digits */

/*
 * hostprep's state directories hold only its own files: a temp file in them that no
 * writer holds is what a killed run left (a report, a record rewrite, a backup).
 */
static void clear_stale_temps(const struct sysroot *root)
{
	const struct {
		enum sysroot_top base;
		const char *rel;
	} dirs[] = {
		{ SYSROOT_RUN, STATE_DIR },
		{ SYSROOT_VAR_LIB, STATE_DIR },
		{ SYSROOT_VAR_LIB, BACKUP_DIR },
	};

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		_cleanup_(freep) char *dir = sysroot_path(root, dirs[i].base, "%s", dirs[i].rel);
		_cleanup_(closep) int fd = sysroot_openat(
			root, dirs[i].base, O_RDONLY | O_DIRECTORY, "%s", dirs[i].rel);
		int r = fd == -ENOENT ? 0 : fd < 0 ? fd : unlink_stale_temps_at(fd);

		if (r < 0)
			log_warning_errno(r,
					  "Failed to remove stale temp files in %s, ignoring: %m",
					  strempty(dir));
	}
}

/*
 * The lock file holds the run lock's generation (GEN_FMT, fixed width: rewritten in
 * place): raised by every run that takes the lock to write, before its first read.
 */
#define GEN_FMT "%020" PRIu64 "\n"
#define GEN_LEN 21

/* An empty or damaged file reads as 0: the next writer makes it whole again. */
int record_lock_generation(int fd, uint64_t *ret)
{
	char buf[GEN_LEN + 1] = {};
	ssize_t n = pread(fd, buf, GEN_LEN, 0);
	char *end;

	if (n < 0)
		return -errno;
	*ret = 0;
	if (n == GEN_LEN && buf[GEN_LEN - 1] == '\n') {
		errno = 0;
		*ret = strtoull(buf, &end, 10);
		if (errno || end != buf + GEN_LEN - 1)
			*ret = 0;
	}
	return 0;
}

static int lock_generation_raise(int fd)
{
	char buf[GEN_LEN + 1];
	uint64_t gen;
	int r = record_lock_generation(fd, &gen);

	if (r < 0)
		return r;
	snprintf(buf, sizeof(buf), GEN_FMT, gen + 1);
	if (pwrite(fd, buf, GEN_LEN, 0) != GEN_LEN)
		return errno ? -errno : -EIO;
	return 0;
}

static int lock_open(const struct sysroot *root, int op, int *ret_fd)
{
	_cleanup_(freep) char *dir = sysroot_path(root, SYSROOT_RUN, STATE_DIR);
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, STATE_DIR "/" LOCK_NAME);
	_cleanup_(closep) int fd = -1, dfd = -1;

	if (!dir || !path)
		return -ENOMEM;
	dfd = sysroot_mkdirs(root, SYSROOT_RUN, 0755, STATE_DIR);
	if (dfd < 0)
		return log_error_errno(dfd, "Failed to create %s: %m", dir);
	/* one name in a directory of the root, O_NOFOLLOW: nothing on the way to follow */
	fd = openat(dfd, LOCK_NAME, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return log_error_errno(errno, "Failed to open %s: %m", path);
	while (flock(fd, op) < 0) {
		if (errno == EWOULDBLOCK)
			return -EWOULDBLOCK; /* the caller says what it means */
		if (errno != EINTR)
			return log_error_errno(errno, "Failed to lock %s: %m", path);
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int record_lock(const struct sysroot *root, int *ret_fd)
{
	_cleanup_(closep) int fd = -1;
	int r = lock_open(root, LOCK_EX, &fd);

	if (r < 0)
		return r;
	r = lock_generation_raise(fd);
	if (r < 0)
		return log_error_errno(r, "Failed to raise the run lock's generation: %m");
	clear_stale_temps(root);
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int record_lock_shared(const struct sysroot *root, int *ret_fd, uint64_t *ret_gen)
{
	_cleanup_(closep) int fd = -1;
	int r = lock_open(root, LOCK_SH | LOCK_NB, &fd);

	if (r < 0)
		return r;
	r = record_lock_generation(fd, ret_gen);
	if (r < 0)
		return log_error_errno(r, "Failed to read the run lock's generation: %m");
	*ret_fd = TAKE_FD(fd);
	return 0;
}

static uint32_t crc_of(const char *s, size_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)s, (uInt)n);
}

uint32_t record_crc32(const void *data, size_t size)
{
	return crc_of(data, size);
}

char *record_seal(const char *body)
{
	char *s = NULL;

	if (asprintf(&s, "%s" SEAL_PREFIX "%08x", body, crc_of(body, strlen(body))) < 0)
		return NULL;
	return s;
}

/* The format is printable ASCII and spaces; anything else was not written by us. */
static bool allowed_byte(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e;
}

static bool lower_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Exactly " crc32:" and 8 lowercase hex digits at the end, matching what precedes them. */
static int check_seal(struct record_line *l)
{
	size_t body = l->len >= SEAL_LEN ? l->len - SEAL_LEN : 0;
	const char *seal = l->bytes + body + sizeof(SEAL_PREFIX) - 1;
	char want[9];

	if (l->len < SEAL_LEN || !strneq(l->bytes + body, SEAL_PREFIX, sizeof(SEAL_PREFIX) - 1) ||
	    !lower_hex(seal, 8)) {
		l->why = "damaged checksum field";
		return -EBADMSG;
	}
	snprintf(want, sizeof(want), "%08x", crc_of(l->bytes, body));
	if (!strneq(seal, want, 8)) {
		l->why = "checksum does not match (damaged or edited)";
		return -EBADMSG;
	}
	l->body = strndup(l->bytes, body);
	return l->body ? 0 : -ENOMEM;
}

static int classify(struct record_line *l)
{
	l->state = RECORD_LINE_BAD;
	if (!l->newline) {
		/* What is left can look like a 0.1.0 line: its bytes are never used. */
		l->why = RECORD_TORN;
		return 0;
	}
	if (l->len > RECORD_LINE_MAX) {
		l->why = "longer than any line hostprep writes";
		return 0;
	}
	for (size_t i = 0; i < l->len; i++)
		if (!allowed_byte(l->bytes[i])) {
			l->why = "holds a byte the format does not allow (NUL, control or "
				 "non-ASCII)";
			return 0;
		}
	if (strstr(l->bytes, "crc32:")) {
		int r = check_seal(l);

		if (r == -ENOMEM)
			return r;
		if (r == 0)
			l->state = RECORD_LINE_INTACT;
		return 0;
	}
	l->body = strdup(l->bytes);
	if (!l->body)
		return -ENOMEM;
	l->state = RECORD_LINE_UNSIGNED;
	return 0;
}

static int push_line(struct record *rec, const char *bytes, size_t len, bool newline, unsigned no)
{
	struct record_line *v = reallocarray(rec->lines, rec->n + 1, sizeof(*v));
	struct record_line *l;

	if (!v)
		return -ENOMEM;
	rec->lines = v;
	l = &rec->lines[rec->n];
	*l = (struct record_line){ .len = len, .newline = newline, .no = no };
	l->bytes = malloc(len + 1);
	if (!l->bytes)
		return -ENOMEM;
	memcpy(l->bytes, bytes, len);
	l->bytes[len] = '\0';
	rec->n++;
	return classify(l);
}

/* Split by length, never by string functions: a NUL inside a line is one more byte. */
static int split_lines(struct record *rec, const char *data, size_t size)
{
	unsigned no = 0;

	for (size_t pos = 0; pos < size;) {
		const char *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
		int r = 0;

		no++;
		if (len > 0) /* an empty line holds nothing to keep */
			r = push_line(rec, data + pos, len, nl != NULL, no);
		if (r < 0)
			return r;
		pos += len + (nl ? 1 : 0);
	}
	return 0;
}

/* "hostprep-record 2 lines N", exactly as record_header() writes it. */
static bool parse_header(const struct record_line *l, unsigned *ret_count)
{
	char again[64];
	unsigned n;

	if (l->state != RECORD_LINE_INTACT || sscanf(l->body, HEADER_FMT, &n) != 1)
		return false;
	snprintf(again, sizeof(again), HEADER_FMT, n);
	if (!streq(again, l->body))
		return false;
	*ret_count = n;
	return true;
}

static void drop_first_line(struct record *rec)
{
	free(rec->lines[0].bytes);
	free(rec->lines[0].body);
	memmove(rec->lines, rec->lines + 1, --rec->n * sizeof(*rec->lines));
}

static void mark_cut(struct record *rec, const char *fmt, ...) _printf_(2, 3);
static void mark_cut(struct record *rec, const char *fmt, ...)
{
	va_list ap;

	rec->whole = RECORD_CUT;
	va_start(ap, fmt);
	vsnprintf(rec->cut_why, sizeof(rec->cut_why), fmt, ap);
	va_end(ap);
}

/*
 * Whole: the header's count is the number of lines after it, and the last one ends. Cut
 * at a line boundary, the file is a valid shorter record but for the count; cut mid-line,
 * its last line is torn. A file without a header is a record of an earlier hostprep.
 */
static void check_whole(struct record *rec)
{
	unsigned count;

	rec->whole = RECORD_WHOLE;
	if (rec->n > 0 && parse_header(&rec->lines[0], &count)) {
		drop_first_line(rec);
		rec->header = true;
		if (rec->n < count)
			mark_cut(rec, "its header counts %u lines, %zu are there", count, rec->n);
		else if (rec->n > count)
			mark_cut(rec, "%zu lines, more than the %u its header counts", rec->n,
				 count);
	} else if (rec->n > 0 && rec->lines[0].newline &&
		   (rec->lines[0].state == RECORD_LINE_BAD ||
		    strneq(rec->lines[0].bytes, HEADER_PREFIX, sizeof(HEADER_PREFIX) - 1))) {
		/* a header whose count cannot be read: the lines it counts are unknown */
		mark_cut(rec, "line 1 is damaged: it may be the header that counts the lines");
	} else if (rec->n > 0) {
		rec->whole = RECORD_OLD;
	}
	if (rec->n > 0 && !rec->lines[rec->n - 1].newline && rec->whole != RECORD_CUT)
		mark_cut(rec, "its last line (line %u) is torn", rec->lines[rec->n - 1].no);
}

int record_parse(const char *data, size_t size, struct record *rec)
{
	int r = split_lines(rec, data, size);

	if (r < 0)
		return r;
	check_whole(rec);
	return 0;
}

/* Where each store lives: STATE_DIR below its top, and its name there. */
static enum sysroot_top store_top(enum record_store store)
{
	return store == RECORD_STORE_PERSIST ? SYSROOT_VAR_LIB : SYSROOT_RUN;
}

static const char *store_name(enum record_store store)
{
	return store == RECORD_STORE_PERSIST ? PERSIST_NAME : RECORD_NAME;
}

/* name in dir below top; missing (the file or its directory) is fine. */
static int unlink_in(const struct sysroot *root, enum sysroot_top top, const char *dir,
		     const char *name)
{
	_cleanup_(closep) int dfd = sysroot_openat(root, top, O_PATH | O_DIRECTORY, "%s", dir);

	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	return unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
}

static int record_unlink(struct record *rec)
{
	return unlink_in(rec->root, store_top(rec->store), STATE_DIR, store_name(rec->store));
}

static int load_too_large(struct record *rec)
{
	struct stat st;
	int r = sysroot_stat(rec->root, store_top(rec->store), 0, &st, STATE_DIR "/%s",
			     store_name(rec->store));

	if (r < 0)
		return r;
	rec->too_large = true;
	rec->size = (uint64_t)st.st_size;
	log_error("%s is %" PRIu64 " bytes, more than hostprep ever writes: not reading it, "
		  "not touching it",
		  rec->path, rec->size);
	return 0;
}

int record_load(const struct sysroot *root, struct record *ret)
{
	return record_load_store(root, RECORD_STORE_RUN, ret);
}

int record_load_store(const struct sysroot *root, enum record_store store, struct record *ret)
{
	_cleanup_(record_done) struct record rec = {};
	_cleanup_(freep) char *data = NULL;
	size_t size = 0;
	int r;

	rec.root = root;
	rec.store = store;
	rec.path = sysroot_path(root, store_top(store), STATE_DIR "/%s", store_name(store));
	if (!rec.path)
		return -ENOMEM;
	r = sysroot_read_file(root, store_top(store), RECORD_MAX_SIZE, &data, &size,
			      STATE_DIR "/%s", store_name(store));
	if (r == -EFBIG)
		r = load_too_large(&rec);
	else if (r >= 0)
		r = record_parse(data, size, &rec);
	if (r == -ENOENT)
		r = 0;
	if (r < 0)
		return r;
	if (!rec.too_large)
		rec.size = size;
	*ret = rec;
	rec = (struct record){};
	return 0;
}

void record_done(struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		free(rec->lines[i].bytes);
		free(rec->lines[i].body);
	}
	free(rec->lines);
	free(rec->path);
	*rec = (struct record){};
}

bool record_line_is(const struct record_line *l, const char *kind)
{
	size_t n = strlen(kind);

	return l->body && strneq(l->body, kind, n) && l->body[n] == ' ';
}

static size_t header_size(size_t lines)
{
	char body[64];
	int n = snprintf(body, sizeof(body), HEADER_FMT, (unsigned)lines);

	return (size_t)n + SEAL_LEN + 1;
}

/* The file with the lines where drop[] is not set (drop may be NULL): header, lines. */
static int serialize(const struct record *rec, const bool *drop, char **ret, size_t *ret_size)
{
	_cleanup_(freep) char *header = NULL, *buf = NULL;
	size_t kept = 0, size = 0;
	char body[64];
	FILE *f;

	for (size_t i = 0; i < rec->n; i++)
		kept += !drop || !drop[i];
	snprintf(body, sizeof(body), HEADER_FMT, (unsigned)kept);
	header = record_seal(body);
	if (!header)
		return -ENOMEM;
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fprintf(f, "%s\n", header);
	for (size_t i = 0; i < rec->n; i++) {
		if (drop && drop[i])
			continue;
		fwrite(rec->lines[i].bytes, 1, rec->lines[i].len, f);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	*ret_size = size;
	return 0;
}

/* The whole file, atomically and durably: a kill leaves the old record or the new one. */
static int write_record(struct record *rec, const bool *drop)
{
	_cleanup_(freep) char *buf = NULL;
	_cleanup_(closep) int dfd = -1;
	size_t size = 0;
	int r;

	r = serialize(rec, drop, &buf, &size);
	if (r < 0)
		return r;
	/* The persistent store's directory is made on first use, not by every run. */
	dfd = sysroot_mkdirs(rec->root, store_top(rec->store), 0755, STATE_DIR);
	if (dfd < 0)
		return dfd;
	r = write_file_atomic_at(dfd, store_name(rec->store), buf, size, 0600, WRITE_DURABLE);
	if (r < 0)
		return r;
	rec->size = size;
	return 0;
}

/* What the file would hold with one more line of len bytes. */
uint64_t record_size_with(const struct record *rec, size_t body_len)
{
	uint64_t size = header_size(rec->n + 1) + body_len + SEAL_LEN + 1;

	for (size_t i = 0; i < rec->n; i++)
		size += rec->lines[i].len + 1;
	return size;
}

int record_append(struct record *rec, const char *body)
{
	_cleanup_(freep) char *sealed = record_seal(body);
	int r;

	if (!sealed)
		return -ENOMEM;
	if (rec->too_large)
		return -EFBIG;
	if (rec->whole == RECORD_CUT)
		return -EUCLEAN;
	if (record_size_with(rec, strlen(body)) > RECORD_MAX_SIZE)
		return -EFBIG;
	r = push_line(rec, sealed, strlen(sealed), true, rec->n + 2); /* after the header */
	if (r >= 0)
		r = write_record(rec, NULL);
	if (r < 0) {
		/* not on disk (or not known to be): the record in memory is the file's */
		rec->n--;
		free(rec->lines[rec->n].bytes);
		free(rec->lines[rec->n].body);
		return r;
	}
	rec->header = true;
	rec->whole = RECORD_WHOLE;
	return 0;
}

int record_rewrite(struct record *rec, const bool *drop)
{
	size_t kept = 0;

	if (rec->too_large)
		return -EFBIG;
	if (rec->whole == RECORD_CUT)
		return -EUCLEAN;
	for (size_t i = 0; i < rec->n; i++)
		kept += !drop[i];
	if (kept == rec->n)
		return 0; /* nothing to take out: leave the file as it is, byte for byte */
	if (kept == 0)
		return record_unlink(rec);
	return write_record(rec, drop);
}

int record_remove_if_empty(struct record *rec)
{
	if (rec->n > 0 || rec->too_large || rec->whole == RECORD_CUT)
		return 0;
	return record_unlink(rec);
}

void record_backup_name(uint32_t crc, char buf[static 64])
{
	snprintf(buf, 64, "/var/lib/" BACKUP_FMT, crc);
}

int record_backup_save(const struct sysroot *root, const void *data, size_t size, uint32_t *ret_crc)
{
	uint32_t crc = crc_of(data, size);
	_cleanup_(closep) int dfd = sysroot_mkdirs(root, SYSROOT_VAR_LIB, 0755, BACKUP_DIR);
	char name[32];
	int r;

	if (dfd < 0)
		return dfd;
	snprintf(name, sizeof(name), BACKUP_NAME, crc);
	r = write_file_atomic_at(dfd, name, data, size, 0600, WRITE_DURABLE);
	if (r < 0)
		return r;
	*ret_crc = crc;
	return 0;
}

int record_backup_load(const struct sysroot *root, uint32_t crc, size_t size, char **ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t got = 0;
	int r;

	r = sysroot_read_file(root, SYSROOT_VAR_LIB, size, &data, &got, BACKUP_FMT, crc);
	if (r == -EFBIG)
		return -EBADMSG; /* longer than recorded */
	if (r < 0)
		return r;
	if (got != size || crc_of(data, got) != crc)
		return -EBADMSG;
	*ret = TAKE_PTR(data);
	return 0;
}

/*
 * hostprep/files is hostprep's alone (nothing else writes there): once its last backup
 * is gone, so is it; record_backup_save() makes it again. /var/lib/hostprep stays: it is
 * the unit's StateDirectory= and holds the record.
 */
static void backup_dir_remove_if_empty(const struct sysroot *root)
{
	_cleanup_(closep) int dfd =
		sysroot_openat(root, SYSROOT_VAR_LIB, O_PATH | O_DIRECTORY, STATE_DIR);

	if (dfd >= 0 && unlinkat(dfd, "files", AT_REMOVEDIR) < 0 && errno != ENOENT &&
	    errno != ENOTEMPTY && errno != EEXIST)
		log_warning_errno(errno, "Failed to remove /var/lib/" BACKUP_DIR ", ignoring: %m");
}

int record_backup_remove(const struct sysroot *root, uint32_t crc)
{
	char name[32];
	int r;

	snprintf(name, sizeof(name), BACKUP_NAME, crc);
	r = unlink_in(root, SYSROOT_VAR_LIB, BACKUP_DIR, name);
	if (r >= 0)
		backup_dir_remove_if_empty(root);
	return r;
}

static bool is_backup_name(const char *name)
{
	return strlen(name) == 8 + strlen(".orig") && lower_hex(name, 8) &&
	       streq(name + 8, ".orig");
}

int record_backups_prune(const struct sysroot *root, const struct record *rec)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;
	int r = 0;

	if (rec->n > 0 || rec->too_large || rec->whole == RECORD_CUT)
		return 0; /* a cut record's lost lines may name any of them */
	r = sysroot_opendir(root, SYSROOT_VAR_LIB, &d, BACKUP_DIR);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	while ((e = readdir(d)))
		if (is_backup_name(e->d_name) && unlinkat(dirfd(d), e->d_name, 0) < 0 &&
		    errno != ENOENT)
			r = -errno;
	if (r >= 0)
		backup_dir_remove_if_empty(root);
	return r;
}

char *record_line_escape(const struct record_line *l, size_t max)
{
	size_t n = l->len < max ? l->len : max;
	char *s = malloc(n * 4 + 4), *p = s;

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = l->bytes[i];

		if (allowed_byte(c) && c != '\\')
			*p++ = (char)c;
		else
			p += sprintf(p, "\\x%02x", c);
	}
	if (n < l->len)
		p += sprintf(p, "...");
	*p = '\0';
	return s;
}
