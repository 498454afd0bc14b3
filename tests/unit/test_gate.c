// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot gate's record (src/report/gate.c) against scratch trees under a root prefix:
 * unit names, boot IDs, the record of this boot and of another, and every record that
 * proves nothing (damaged, untrusted, not a file) or cannot be written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/gate.h"

#define ID1	    "0d2e7f5c-1111-4a2b-9c3d-123456789abc"
#define ID2	    "0d2e7f5c-2222-4a2b-9c3d-123456789abc"
#define BOOT_ID	    "proc/sys/kernel/random/boot_id"
#define RECORD(u)   "run/" GATE_DIR "/" u
#define UNIT	    "kubelet.service"

struct fixture {
	char dir[64];
	struct sysroot root;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	umask(022);
	strcpy(f->dir, "/tmp/hostprep-test-gate-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(sysroot_init(&f->root, f->dir), 0);
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	sysroot_done(&f->root);
	free(f);
	return 0;
}

static char *tree_path(struct fixture *f, const char *rel)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", f->dir, rel) > 0);
	return p;
}

/* rel's parents made, then rel written with content (mode 0644) */
static void put(struct fixture *f, const char *rel, const char *content)
{
	char *p = tree_path(f, rel);
	FILE *fp;

	for (char *s = p + strlen(f->dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(content, fp);
	assert_int_equal(fclose(fp), 0);
	free(p);
}

static void test_name_valid(void **state)
{
	char longest[256], too_long[257];

	memset(longest, 'a', 255);
	longest[255] = '\0';
	memset(too_long, 'a', 256);
	too_long[256] = '\0';
	assert_true(gate_name_valid("kubelet.service"));
	assert_true(gate_name_valid("slurmd"));
	assert_true(gate_name_valid("train@rail\\x2d0.service"));
	assert_true(gate_name_valid("a:b_c-d"));
	assert_true(gate_name_valid(longest));
	assert_false(gate_name_valid(too_long));
	assert_false(gate_name_valid(""));
	assert_false(gate_name_valid(".hidden"));
	assert_false(gate_name_valid(".."));
	assert_false(gate_name_valid("a/b"));
	assert_false(gate_name_valid("a b"));
	assert_false(gate_name_valid("a\n"));
	assert_false(gate_name_valid("k\xc3\xa4.service"));
}

static void test_boot_id_valid(void **state)
{
	assert_true(boot_id_valid(ID1));
	assert_false(boot_id_valid("0D2E7F5C-1111-4A2B-9C3D-123456789ABC")); /* the kernel's is lower */
	assert_false(boot_id_valid("0d2e7f5c-1111-4a2b-9c3d-123456789ab"));
	assert_false(boot_id_valid(ID1 "0"));
	assert_false(boot_id_valid("0d2e7f5c11111-4a2b-9c3d-123456789abc"));
	assert_false(boot_id_valid("0d2e7f5c-1111-4a2b-9c3d-12345678-abc"));
	assert_false(boot_id_valid("0d2e7f5g-1111-4a2b-9c3d-123456789abc"));
	assert_false(boot_id_valid(""));
}

static void test_boot_id_read(void **state)
{
	struct fixture *f = *state;
	char id[BOOT_ID_LEN + 1];

	assert_int_equal(gate_boot_id(&f->root, id), -ENOENT);
	put(f, BOOT_ID, "not a boot id\n");
	assert_int_equal(gate_boot_id(&f->root, id), -EBADMSG);
	put(f, BOOT_ID, ID1 "\n");
	assert_int_equal(gate_boot_id(&f->root, id), 0);
	assert_string_equal(id, ID1);
}

/* Recorded in this boot: 1; in another boot, or never: 0. The record is the ID and '\n'. */
static void test_record_this_boot(void **state)
{
	struct fixture *f = *state;
	char *path = tree_path(f, RECORD(UNIT)), *dir = tree_path(f, "run/" GATE_DIR);
	char buf[64] = "";
	struct stat st;
	int fd;

	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), 0);
	assert_int_equal(gate_record(&f->root, UNIT, ID1), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), 1);
	assert_int_equal(gate_passed(&f->root, UNIT, ID2, geteuid()), 0);
	assert_int_equal(gate_passed(&f->root, "slurmd.service", ID1, geteuid()), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), BOOT_ID_LEN + 1);
	close(fd);
	assert_string_equal(buf, ID1 "\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* the next boot's pass replaces it */
	assert_int_equal(gate_record(&f->root, UNIT, ID2), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID2, geteuid()), 1);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), 0);
	free(path);
	free(dir);
}

/* What does not read as a boot ID proves nothing, and says so. */
static void test_record_damaged(void **state)
{
	struct fixture *f = *state;
	static const char *const bad[] = {
		"", "\n", "garbage\n", ID1 "x\n", ID1 " " ID1 "\n", "0D2E7F5C-1111-4A2B-9C3D-123456789ABC\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		put(f, RECORD(UNIT), bad[i]);
		assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EBADMSG);
	}
	put(f, RECORD(UNIT), ID1); /* no newline: still the ID */
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), 1);
}

/* A record others could have written is no proof. */
static void test_record_untrusted(void **state)
{
	struct fixture *f = *state;
	char *path = tree_path(f, RECORD(UNIT));

	put(f, RECORD(UNIT), ID1 "\n");
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EPERM);
	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EPERM);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), 1);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 4242, 4242), 0);
		assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EPERM);
	}
	free(path);
}

/* A symlink, a directory, a FIFO: not a record (and nothing blocks). */
static void test_record_not_a_file(void **state)
{
	struct fixture *f = *state;
	char *path = tree_path(f, RECORD(UNIT));

	put(f, "elsewhere", ID1 "\n");
	put(f, RECORD("x"), "");
	assert_int_equal(symlink("../../../elsewhere", path), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EBADFD);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EBADFD);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -EBADFD);
	free(path);
}

/* The record's directory cannot be made: the write fails, nothing is left behind. */
static void test_record_unwritable(void **state)
{
	struct fixture *f = *state;

	put(f, "run/hostprep/gate", "a file where the directory goes\n");
	assert_true(gate_record(&f->root, UNIT, ID1) < 0);
	assert_int_equal(gate_passed(&f->root, UNIT, ID1, geteuid()), -ENOTDIR);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_valid), cmocka_unit_test(test_boot_id_valid),
		T(test_boot_id_read),		   T(test_record_this_boot),
		T(test_record_damaged),		   T(test_record_untrusted),
		T(test_record_not_a_file),	   T(test_record_unwritable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
