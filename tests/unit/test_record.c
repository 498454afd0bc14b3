// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The originals record: sealed lines, loading by length, byte-exact rewrites.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "fileio.h"
#include "record.h"

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

	assert_int_equal(mkdir_parents(dir, 0755), 0);
	free(dir);
	assert_int_equal(write_file_atomic(f->path, data, size, 0600, WRITE_DURABLE), 0);
}

static size_t get(const struct fixture *f, char **ret)
{
	size_t size = 0;

	assert_int_equal(read_full_file(f->path, RECORD_MAX_SIZE, ret, &size), 0);
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
	static const char legacy[] = "acs 0000:15:01.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01.0";
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

/* Dropping the good lines leaves every other byte as it was, NUL and torn tail included. */
static void test_rewrite_byte_exact(void **state)
{
	struct fixture *f = *state;
	char *good = record_seal("acs 0000:15:01.0 0x220 0x001d -");
	static const char bad[] = "acs \0000:17:00.0 0xf24 0x001d";
	char *data = NULL, *after = NULL;
	struct record rec;
	bool drop[3] = { true, false, false };
	size_t n, size;

	n = (size_t)asprintf(&data, "%s\n", good);
	data = realloc(data, n + sizeof(bad) + 16);
	memcpy(data + n, bad, sizeof(bad) - 1);
	n += sizeof(bad) - 1;
	data[n++] = '\n';
	memcpy(data + n, "torn", 4);
	n += 4;
	put(f, data, n);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(rec.n, 3);
	assert_int_equal(record_rewrite(&rec, drop), 0);
	size = get(f, &after);
	assert_int_equal(size, n - strlen(good) - 1);
	assert_memory_equal(after, data + strlen(good) + 1, size);
	record_done(&rec);
	free(after);
	/* dropping everything removes the file */
	assert_int_equal(record_load(&f->root, &rec), 0);
	memset(drop, 1, sizeof(drop));
	assert_int_equal(record_rewrite(&rec, drop), 0);
	assert_int_equal(access(f->path, F_OK), -1);
	record_done(&rec);
	free(data);
	free(good);
}

/* After a torn tail, an append starts on its own line and the torn line keeps its bytes. */
static void test_append_after_torn(void **state)
{
	struct fixture *f = *state;
	char *after = NULL;
	struct record rec;
	size_t size;

	put(f, "acs 0000:15", 11);
	assert_int_equal(record_load(&f->root, &rec), 0);
	assert_int_equal(record_append(&rec, "acs 0000:17:00.0 0xf24 0x001d -"), 0);
	record_done(&rec);
	size = get(f, &after);
	assert_true(size > 12);
	assert_memory_equal(after, "acs 0000:15\nacs 0000:17:00.0", 28);
	free(after);
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
	assert_int_equal(read_full_file(path, 4096, &data, NULL), 0);
	assert_string_equal(data, "file /etc/modprobe.d/hostprep.conf absent crc32:8ccc35c1\n");
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
		assert_int_equal(write_file_atomic(p, bad, sizeof(bad), 0600, WRITE_DURABLE), 0);
	}
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig), &back), -EBADMSG);
	assert_null(back);
	assert_int_equal(record_backup_remove(&f->root, crc), 0);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(record_backup_remove(&f->root, crc), 0); /* gone already: fine */
	assert_int_equal(record_backup_load(&f->root, crc, sizeof(orig), &back), -ENOENT);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seal),
		cmocka_unit_test_setup_teardown(test_missing_is_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_then_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_lines, setup, teardown),
		cmocka_unit_test(test_torn_not_legacy),
		cmocka_unit_test_setup_teardown(test_rewrite_byte_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_after_torn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_large, setup, teardown),
		cmocka_unit_test(test_escape),
		cmocka_unit_test_setup_teardown(test_persist_store, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backup_roundtrip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
