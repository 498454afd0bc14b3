// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The originals record: sealed lines, loading by length, byte-exact rewrites.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/record.h"
#include "scratch.h"

struct fixture {
	char dir[64];
	struct sysroot root;
	char *path;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/hostprep-record-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(sysroot_init(&f->root, f->dir), 0);
	f->path = sysroot_path(&f->root, SYSROOT_RUN, "hostprep/acs-originals");
	assert_non_null(f->path);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd = NULL;

	assert_true(asprintf(&cmd, "rm -rf '%s'", f->dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f->path);
	sysroot_done(&f->root);
	free(f);
	return 0;
}

static void put(const struct fixture *f, const void *data, size_t size)
{
	char *dir = sysroot_path(&f->root, SYSROOT_RUN, "hostprep");

	scratch_mkdir_p(dir);
	free(dir);
	scratch_write(f->path, data, size);
}

static size_t get(const struct fixture *f, char **ret)
{
	size_t size = 0;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(read_full_fd(fd, RECORD_MAX_SIZE, ret, &size), 0);
	close(fd);
	return size;
}

static void test_seal(void **state)
{
	char *s = record_seal("acs 0000:15:01.0 0x220 0x001d -");

	/* zlib.crc32(b"acs 0000:15:01.0 0x220 0x001d -") */
	assert_non_null(s);
	assert_int_equal(strlen(s), strlen("acs 0000:15:01.0 0x220 0x001d - crc32:") + 8);
	assert_true(strneq(s + strlen(s) - 15, " crc32:", 7));
	free(s);
}

static void test_missing_is_empty(void **state)
{
	struct fixture *f = *state;
	struct record rec;

	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 0);
	assert_false(rec.too_large);
	record_done(&rec);
}

/*
 * The run lock's generation (issue 25): every writer raises it when it takes the lock;
 * a reader's shared glance fails while a writer holds it and sees the generation move.
 */
static void test_lock_generation(void **state)
{
	struct fixture *f = *state;
	char *path = sysroot_path(&f->root, SYSROOT_RUN, "hostprep/lock"), *text = NULL;
	int w = -1, rd = -1;
	uint64_t gen = 99;

	assert_non_null(path);
	assert_int_equal(record_lock_shared(&f->root, &rd, &gen), 0);
	assert_int_equal(gen, 0); /* a new, empty lock file */
	close(rd);
	rd = -1;
	assert_int_equal(record_lock(&f->root, &w), 0);
	assert_int_equal(record_lock_shared(&f->root, &rd, &gen), -EWOULDBLOCK);
	assert_int_equal(rd, -1);
	close(w);
	assert_int_equal(record_lock_shared(&f->root, &rd, &gen), 0);
	assert_int_equal(gen, 1);
	close(rd);
	assert_int_equal(record_lock(&f->root, &w), 0);
	assert_int_equal(record_lock_generation(w, &gen), 0);
	assert_int_equal(gen, 2);
	close(w);
	text = scratch_read(path);
	assert_non_null(text);
	assert_string_equal(text, "00000000000000000002\n");
	free(text);
	/* damaged: counts 0, and the next writer makes it whole */
	scratch_write(path, "12x\n", 4);
	assert_int_equal(record_lock_shared(&f->root, &rd, &gen), 0);
	assert_int_equal(gen, 0);
	close(rd);
	assert_int_equal(record_lock(&f->root, &w), 0);
	assert_int_equal(record_lock_generation(w, &gen), 0);
	assert_int_equal(gen, 1);
	close(w);
	free(path);
}

static void test_append_then_load(void **state)
{
	struct fixture *f = *state;
	struct record rec;
	int lock = -1;

	assert_int_equal(record_lock(&f->root, &lock), 0);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(record_append(&rec, "acs 0000:15:01.0 0x220 0x001d -"), 0);
	assert_int_equal(record_append(&rec, "kmod /etc/modprobe.d/x.conf"), 0);
	record_done(&rec);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 2);
	assert_int_equal(rec.lines[0].state, RECORD_LINE_INTACT);
	assert_string_equal(rec.lines[0].body, "acs 0000:15:01.0 0x220 0x001d -");
	assert_true(record_line_is(&rec.lines[0], "acs"));
	assert_false(record_line_is(&rec.lines[1], "acs"));
	assert_true(record_line_is(&rec.lines[1], "kmod"));
	record_done(&rec);
	close(lock);
}

/* NUL, a flipped digit, a damaged seal, no seal: classified, never cut short. */
static void test_bad_lines(void **state)
{
	struct fixture *f = *state;
	char *good = record_seal("acs 0000:15:01.0 0x220 0x001d -");
	char *flip = record_seal("acs 0000:17:00.0 0xf24 0x001d -");
	char data[512];
	struct record rec;
	size_t n;

	flip[strlen("acs 0000:17:00.0 0xf24 0x00")] = '0'; /* 0x001d -> 0x000d */
	n = (size_t)snprintf(data, sizeof(data),
			     "%s\nacs Z%s\n%s\n\nacs 0000:b9:01.0 0xf24 0x00\n%s", good, good + 4,
			     flip, good);
	data[strlen(good) + 5] = '\0'; /* a NUL after the 4th byte of line 2 */
	n -= 3;			       /* and a torn last line: "... crc32:xxxxx" */
	put(f, data, n);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 5); /* the empty line holds nothing */
	assert_int_equal(rec.lines[0].state, RECORD_LINE_INTACT);
	assert_int_equal(rec.lines[1].state, RECORD_LINE_BAD);
	assert_int_equal(rec.lines[1].len, strlen(good) + 1);
	assert_int_equal(rec.lines[1].bytes[4], '\0');
	assert_int_equal(rec.lines[1].no, 2);
	assert_int_equal(rec.lines[2].state, RECORD_LINE_BAD);
	assert_string_equal(rec.lines[2].why, "checksum does not match (damaged or edited)");
	assert_int_equal(rec.lines[3].state, RECORD_LINE_UNSIGNED);
	assert_int_equal(rec.lines[3].no, 5);
	assert_int_equal(rec.lines[4].state, RECORD_LINE_BAD);
	assert_false(rec.lines[4].newline);
	assert_string_equal(rec.lines[4].why, RECORD_TORN);
	record_done(&rec);
	free(good);
	free(flip);
}

/*
 * A torn last line whose bytes read like a 0.1.0 line (no checksum) is torn, not unsigned:
 * nothing is built from it. The same bytes with their '\n' are an unsigned line.
 */
static void test_torn_not_legacy(void **state)
{
	static const char legacy[] =
		"acs 0000:15:01.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01.0";
	struct record rec = {};

	assert_int_equal(record_parse(legacy, sizeof(legacy) - 1, &rec), 0);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.lines[0].state, RECORD_LINE_BAD);
	assert_string_equal(rec.lines[0].why, RECORD_TORN);
	assert_null(rec.lines[0].body);
	record_done(&rec);
	assert_int_equal(record_parse("x\n", 2, &rec), 0);
	assert_int_equal(rec.lines[0].state, RECORD_LINE_UNSIGNED);
	record_done(&rec);
}

/* Dropping the good line leaves every other byte as it was, NUL included, under a header. */
static void test_rewrite_byte_exact(void **state)
{
	struct fixture *f = *state;
	char *good = record_seal("acs 0000:15:01.0 0x220 0x001d -");
	char *header = record_seal("hostprep-record 2 lines 2");
	static const char bad[] = "acs \0000:17:00.0 0xf24 0x001d";
	char *data = NULL, *after = NULL;
	struct record rec;
	bool drop[3] = { true, false, false };
	size_t n, size, hl = strlen(header) + 1;

	n = (size_t)asprintf(&data, "%s\n", good);
	data = realloc(data, n + 2 * sizeof(bad) + 16);
	for (int k = 0; k < 2; k++) {
		memcpy(data + n, bad, sizeof(bad) - 1);
		n += sizeof(bad) - 1;
		data[n++] = '\n';
	}
	put(f, data, n);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 3);
	assert_int_equal(rec.whole, RECORD_OLD);
	assert_int_equal(record_rewrite(&rec, drop), 0);
	size = get(f, &after);
	assert_int_equal(size, hl + n - strlen(good) - 1);
	assert_memory_equal(after, header, hl - 1);
	assert_memory_equal(after + hl, data + strlen(good) + 1, size - hl);
	record_done(&rec);
	free(after);
	/* dropping everything removes the file */
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.whole, RECORD_WHOLE);
	assert_int_equal(rec.n, 2);
	memset(drop, 1, sizeof(drop));
	assert_int_equal(record_rewrite(&rec, drop), 0);
	assert_int_equal(access(f->path, F_OK), -1);
	record_done(&rec);
	free(data);
	free(good);
	free(header);
}

/* A torn last line: the record is cut; nothing is added to it, nothing rewritten. */
static void test_append_refused_when_torn(void **state)
{
	struct fixture *f = *state;
	char *after = NULL;
	struct record rec;
	bool drop[1] = { true };

	put(f, "acs 0000:15", 11);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.whole, RECORD_CUT);
	assert_string_equal(rec.cut_why, "its last line (line 1) is torn");
	assert_int_equal(record_append(&rec, "acs 0000:17:00.0 0xf24 0x001d -"), -EUCLEAN);
	assert_int_equal(rec.n, 1);
	assert_int_equal(record_rewrite(&rec, drop), -EUCLEAN);
	assert_int_equal(record_remove_if_empty(&rec), 0);
	record_done(&rec);
	assert_int_equal(get(f, &after), 11);
	assert_memory_equal(after, "acs 0000:15", 11);
	free(after);
}

static void append3(const struct fixture *f)
{
	struct record rec;
	int lock = -1;

	assert_int_equal(record_lock(&f->root, &lock), 0);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(record_append(&rec, "acs 0000:15:01.0 0x220 0x001d -"), 0);
	assert_int_equal(record_append(&rec, "acs 0000:17:00.0 0xf24 0x001d -"), 0);
	assert_int_equal(record_append(&rec, "acs 0000:17:01.0 0xf24 0x001d -"), 0);
	record_done(&rec);
	close(lock);
}

/*
 * Cut at a line boundary, a record is a valid shorter file but for its header: every cut
 * is seen, and a cut record is never added to, rewritten or removed.
 */
static void test_cut_at_line_boundary(void **state)
{
	struct fixture *f = *state;
	char *data = NULL, *header = record_seal("hostprep-record 2 lines 3");
	bool drop[3] = { true, true, true };
	struct record rec;
	size_t size, cut;

	append3(f);
	size = get(f, &data);
	assert_true(strneq(data, header, strlen(header)));
	for (cut = 0; cut < size; cut++) {
		if (cut > 0 && data[cut - 1] != '\n')
			continue;
		put(f, data, cut);
		assert_int_equal(record_load(&f->root, &rec), 0);
		if (cut == 0) { /* no bytes: nothing recorded */
			assert_int_equal(rec.whole, RECORD_WHOLE);
			record_done(&rec);
			continue;
		}
		assert_int_equal(rec.whole, RECORD_CUT);
		assert_true(strstr(rec.cut_why, "its header counts 3 lines, "));
		assert_int_equal(record_append(&rec, "acs 0000:37:01.0 0x220 0x001d -"), -EUCLEAN);
		assert_int_equal(record_rewrite(&rec, drop), -EUCLEAN);
		assert_int_equal(record_remove_if_empty(&rec), 0);
		assert_int_equal(access(f->path, F_OK), 0);
		record_done(&rec);
	}
	/* whole: the same bytes */
	put(f, data, size);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.whole, RECORD_WHOLE);
	assert_int_equal(rec.n, 3);
	assert_int_equal(rec.lines[0].no, 2);
	record_done(&rec);
	free(data);
	free(header);
}

/* More lines than counted, a damaged or edited header: not whole either. */
static void test_header_mismatch(void **state)
{
	char *h1 = record_seal("hostprep-record 2 lines 1");
	char *h0 = record_seal("hostprep-record 2 lines 01");
	char *line = record_seal("x y");
	char *data = NULL;
	struct record rec = {};
	int n;

	n = asprintf(&data, "%s\n%s\n%s\n", h1, line, line);
	assert_int_equal(record_parse(data, (size_t)n, &rec), 0);
	assert_int_equal(rec.whole, RECORD_CUT);
	assert_string_equal(rec.cut_why, "2 lines, more than the 1 its header counts");
	record_done(&rec);
	free(data);
	n = asprintf(&data, "%s\n%s\n", h0, line); /* not the canonical form */
	assert_int_equal(record_parse(data, (size_t)n, &rec), 0);
	assert_int_equal(rec.whole, RECORD_CUT);
	assert_string_equal(rec.cut_why,
			    "line 1 is damaged: it may be the header that counts the lines");
	assert_int_equal(rec.n, 2);
	record_done(&rec);
	free(data);
	h1[3] = 'X'; /* damaged: its checksum no longer matches */
	n = asprintf(&data, "%s\n%s\n", h1, line);
	assert_int_equal(record_parse(data, (size_t)n, &rec), 0);
	assert_int_equal(rec.whole, RECORD_CUT);
	assert_int_equal(rec.lines[0].state, RECORD_LINE_BAD);
	record_done(&rec);
	free(data);
	free(h1);
	free(h0);
	free(line);
}

/* An earlier hostprep's record (no header): read; the next change writes it with one. */
static void test_old_record_converted(void **state)
{
	struct fixture *f = *state;
	char *l1 = record_seal("acs 0000:15:01.0 0x220 0x001d -");
	char *l2 = record_seal("acs 0000:17:00.0 0xf24 0x001d -");
	char *h = record_seal("hostprep-record 2 lines 3");
	char *old = NULL, *want = NULL, *after = NULL;
	struct record rec;
	int n, m;

	n = asprintf(&old, "%s\n%s\n", l1, l2);
	put(f, old, (size_t)n);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.whole, RECORD_OLD);
	assert_int_equal(rec.n, 2);
	assert_int_equal(record_append(&rec, "x"), 0);
	record_done(&rec);
	m = asprintf(&want, "%s\n%sx crc32:%08x\n", h, old, record_crc32("x", 1));
	assert_int_equal(get(f, &after), (size_t)m);
	assert_memory_equal(after, want, (size_t)m);
	free(l1);
	free(l2);
	free(h);
	free(old);
	free(want);
	free(after);
}

/*
 * apply never writes a record revert would not read: a line that would take the file past
 * RECORD_MAX_SIZE is refused (-EFBIG) and the file stays as it was; one that brings it
 * to exactly RECORD_MAX_SIZE is written, and read back.
 */
static void test_record_full(void **state)
{
	struct fixture *f = *state;
	struct record rec;
	char body[1001];
	uint64_t size;
	size_t len;

	memset(body, 'f', 1000);
	body[1000] = '\0';
	body[0] = 'z', body[1] = ' ';
	assert_int_equal(record_load(&f->root, &rec), 0);
	while (record_size_with(&rec, 1000) <= RECORD_MAX_SIZE)
		assert_int_equal(record_append(&rec, body), 0);
	len = RECORD_MAX_SIZE - (size_t)(record_size_with(&rec, 0));
	assert_true(len > 2 && len < 1000);
	body[len + 1] = '\0';
	assert_int_equal(record_size_with(&rec, len + 1), RECORD_MAX_SIZE + 1);
	assert_int_equal(record_append(&rec, body), -EFBIG);
	size = rec.size;
	body[len] = '\0';
	assert_int_equal(record_size_with(&rec, len), RECORD_MAX_SIZE);
	record_done(&rec);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.size, size); /* the refused line left the file as it was */
	assert_int_equal(record_append(&rec, body), 0);
	assert_int_equal(rec.size, RECORD_MAX_SIZE);
	record_done(&rec);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_false(rec.too_large);
	assert_int_equal(rec.whole, RECORD_WHOLE);
	assert_string_equal(rec.lines[rec.n - 1].body, body);
	record_done(&rec);
}

static void test_too_large(void **state)
{
	struct fixture *f = *state;
	char *data = malloc(RECORD_MAX_SIZE + 1);
	bool drop[1] = { true };
	struct record rec;

	memset(data, 'a', RECORD_MAX_SIZE + 1);
	put(f, data, RECORD_MAX_SIZE + 1);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_true(rec.too_large);
	assert_int_equal(rec.size, RECORD_MAX_SIZE + 1);
	assert_int_equal(rec.n, 0);
	assert_int_equal(record_append(&rec, "acs 0000:15:01.0 0x220 0x001d -"), -EFBIG);
	assert_int_equal(record_rewrite(&rec, drop), -EFBIG);
	record_done(&rec);
	free(data);
}

static void test_escape(void **state)
{
	struct record_line l = { .bytes = (char *)"ac\0s\x1b\\", .len = 6 };
	char *s = record_line_escape(&l, 100);

	assert_string_equal(s, "ac\\x00s\\x1b\\x5c");
	free(s);
	s = record_line_escape(&l, 2);
	assert_string_equal(s, "ac...");
	free(s);
}

/* The persistent store: its own file below /var/lib (made on first append), not /run's. */
static void test_persist_store(void **state)
{
	struct fixture *f = *state;
	char *path = sysroot_path(&f->root, SYSROOT_VAR_LIB, "hostprep/originals");
	char *data = NULL;
	struct record rec;
	int lock = -1;

	assert_non_null(path);
	assert_int_equal(record_lock(&f->root, &lock), 0);
	assert_int_equal(record_load_store(&f->root, RECORD_STORE_PERSIST, &rec), 0);
	assert_int_equal(rec.n, 0);
	assert_string_equal(rec.path, path);
	assert_int_equal(record_append(&rec, "file /etc/modprobe.d/hostprep.conf absent"), 0);
	record_done(&rec);
	assert_int_equal(access(f->path, F_OK), -1); /* nothing in /run */
	data = scratch_read(path);
	assert_non_null(data);
	assert_string_equal(data, "hostprep-record 2 lines 1 crc32:0a7f3fd7\n"
				  "file /etc/modprobe.d/hostprep.conf absent crc32:8ccc35c1\n");
	assert_int_equal(record_load_store(&f->root, RECORD_STORE_PERSIST, &rec), 0);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.lines[0].state, RECORD_LINE_INTACT);
	assert_true(record_line_is(&rec.lines[0], "file"));
	record_done(&rec);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 0); /* the run store is another file */
	record_done(&rec);
	free(data);
	free(path);
	close(lock);
}

static char *backup_path(const struct fixture *f, uint32_t crc)
{
	char *p = sysroot_path(&f->root, SYSROOT_VAR_LIB, "hostprep/files/%08x.orig", crc);

	assert_non_null(p);
	return p;
}

/* A backup comes back only with the recorded size and crc32; bytes include NULs. */
static void test_backup_roundtrip(void **state)
{
	struct fixture *f = *state;
	static const char orig[] = "options x y=1\n\0tail";
	uint32_t crc = 0;
	char *back = NULL, *p, name[64];

	assert_int_equal(record_backup_save(&f->root, orig, sizeof(orig), &crc), 0);
	assert_int_equal(crc, record_crc32(orig, sizeof(orig)));
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig), &back), 0);
	assert_memory_equal(back, orig, sizeof(orig));
	free(back);
	back = NULL;
	/* the wrong size or crc: refused */
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig) - 1, &back), -EBADMSG);
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig) + 1, &back), -EBADMSG);
	assert_null(back);
	record_backup_name(crc, name);
	assert_true(strneq(name, "/var/lib/hostprep/files/", 24));
	/* one byte flipped on disk */
	p = backup_path(f, crc);
	{
		char bad[sizeof(orig)];

		memcpy(bad, orig, sizeof(orig));
		bad[0] = 'O';
		scratch_write(p, bad, sizeof(bad));
	}
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig), &back), -EBADMSG);
	assert_null(back);
	assert_int_equal(record_backup_remove(&f->root, crc), 0);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(record_backup_remove(&f->root, crc), 0); /* gone already: fine */
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig), &back), -ENOENT);
	free(p);
}

/* The dot-file temp of a sink file: the file whole with its mode, nothing else left. */
static void test_atomic_hidden_temp(void **state)
{
	struct fixture *f = *state;
	char *dir = sysroot_path(&f->root, SYSROOT_RUN, "textfile");
	char *path = sysroot_path(&f->root, SYSROOT_RUN, "textfile/hostprep.prom");
	char *stale = sysroot_path(&f->root, SYSROOT_RUN, "textfile/.hostprep.prom.tmp-AbC123");
	char *text = NULL;
	struct stat st;
	DIR *d;
	struct dirent *e;
	int n = 0, dfd;

	assert_non_null(dir);
	assert_non_null(path);
	assert_non_null(stale);
	dfd = sysroot_mkdirs(&f->root, SYSROOT_RUN, 0755, "textfile");
	assert_true(dfd >= 0);
	assert_int_equal(write_file_atomic_at(dfd, "hostprep.prom", "a 1\n", 4, 0644,
					      WRITE_DURABLE | WRITE_HIDDEN_TEMP),
			 0);
	text = scratch_read(path);
	assert_non_null(text);
	assert_string_equal(text, "a 1\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)))
		n += !streq(e->d_name, ".") && !streq(e->d_name, "..");
	closedir(d);
	assert_int_equal(n, 1);
	/* a writer killed mid-write leaves one the stale-temp sweep knows */
	scratch_write(stale, "", 0);
	assert_int_equal(unlink_stale_temps_at(dfd), 1);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(path, F_OK), 0);
	close(dfd);
	free(text);
	free(stale);
	free(path);
	free(dir);
}

/* An attribute into a caller's buffer: first line, blanks off; too long, a FIFO, a dir. */
static void test_read_one_line_buf_at(void **state)
{
	struct fixture *f = *state;
	char *dir = sysroot_path(&f->root, SYSROOT_SYS, "dev");
	char *attr = sysroot_path(&f->root, SYSROOT_SYS, "dev/numa_node");
	char *fifo = sysroot_path(&f->root, SYSROOT_SYS, "dev/fifo");
	char buf[8];
	int dfd;

	assert_non_null(dir);
	assert_non_null(attr);
	assert_non_null(fifo);
	scratch_mkdir_p(dir);
	scratch_write(attr, "1 \t\nx\n", 6);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, "numa_node", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, "numa_node", buf, 6), -EFBIG);
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, "fifo", buf, sizeof(buf)), -EBADFD);
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, ".", buf, sizeof(buf)), -EISDIR);
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, "missing", buf, sizeof(buf)), -ENOENT);
	close(dfd);
	free(fifo);
	free(attr);
	free(dir);
}

/*
 * read_full_regular_fd() with the size fstat() said (known): the file's n bytes whatever
 * known is (a sysfs attribute says 4096, a file may have grown or shrunk since), read on
 * the stack first and then on the heap; max still cuts at its edge.
 */
static void read_known(const char *path, const char *want, size_t n)
{
	const size_t knowns[] = { n, n + 1, n ? n - 1 : 0, 4096, 1, 0 };

	for (size_t k = 0; k < ARRAY_SIZE(knowns); k++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		size_t got = 99;
		char *s = NULL;

		assert_true(fd >= 0);
		assert_int_equal(read_full_regular_fd(fd, 1U << 20, knowns[k], &s, &got), 0);
		assert_int_equal(got, n);
		assert_memory_equal(s, want, n);
		assert_int_equal(s[n], '\0');
		free(s);
		if (n > 0) {
			int r;

			s = NULL;
			got = 99;
			assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
			r = read_full_regular_fd(fd, n - 1, knowns[k], &s, &got);
			/* past max: refused, or (tar's rule) a read that ended at the size said */
			if (r == 0) {
				assert_true(knowns[k] > 0 && knowns[k] < n);
				assert_int_equal(got, knowns[k]);
				assert_memory_equal(s, want, got);
			} else {
				assert_int_equal(r, -EFBIG);
				assert_null(s);
			}
			free(s);
		}
		close(fd);
	}
}

/* A whole file into a buffer that grows from a page: every size at the page and doubling
 * edges reads back byte-exact, and the cap holds at its edge (max bytes read, max + 1 not). */
static void test_read_full_grows(void **state)
{
	struct fixture *f = *state;
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 8191, 8192, 8193, 70000 };
	char *dir = sysroot_path(&f->root, SYSROOT_SYS, "dev");
	char *attr = sysroot_path(&f->root, SYSROOT_SYS, "dev/blob");
	char *want = malloc(70001);
	int dfd;

	assert_non_null(dir);
	assert_non_null(attr);
	assert_non_null(want);
	for (size_t i = 0; i < 70001; i++)
		want[i] = 'a' + i % 23;
	scratch_mkdir_p(dir);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t n = sizes[i], got = 99;
		char *s = NULL;

		scratch_write(attr, want, n);
		assert_int_equal(read_full_file_at(&f->root, dfd, "blob", n, &s, &got), 0);
		assert_int_equal(got, n);
		assert_memory_equal(s, want, n);
		assert_int_equal(s[n], '\0');
		free(s);
		assert_int_equal(read_full_file_at(&f->root, dfd, "blob", 1U << 20, &s, &got), 0);
		assert_int_equal(got, n);
		free(s);
		if (n > 0) {
			s = NULL;
			assert_int_equal(read_full_file_at(&f->root, dfd, "blob", n - 1, &s, &got),
					 -EFBIG);
			assert_null(s);
		}
		read_known(attr, want, n);
	}
	close(dfd);
	free(want);
	free(attr);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seal),
		cmocka_unit_test_setup_teardown(test_missing_is_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_then_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_generation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_lines, setup, teardown),
		cmocka_unit_test(test_torn_not_legacy),
		cmocka_unit_test_setup_teardown(test_rewrite_byte_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_refused_when_torn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_at_line_boundary, setup, teardown),
		cmocka_unit_test(test_header_mismatch),
		cmocka_unit_test_setup_teardown(test_old_record_converted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_large, setup, teardown),
		cmocka_unit_test(test_escape),
		cmocka_unit_test_setup_teardown(test_persist_store, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backup_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_hidden_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_one_line_buf_at, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_full_grows, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
