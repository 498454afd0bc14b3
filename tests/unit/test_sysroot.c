// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The root handle: everything below --root is resolved inside it, chroot-like, from its
 * fd or from a directory opened through it; with openat2(2) and with the walk that stands
 * in for it where the kernel has none (each test runs both ways).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/sysroot.h"

struct fixture {
	char dir[64];	   /* the scratch directory: root/ and outside/ */
	char root_dir[96]; /* <dir>/root */
	struct sysroot root;
	bool walk; /* no openat2: the fallback */
};

static void put(const struct fixture *f, const char *rel, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	fp = fopen(path, "we");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void mk(const struct fixture *f, const char *rel)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", f->dir, rel);
	assert_int_equal(system(cmd), 0);
}

/* A link at rel; target as given, "@" at its start standing for the scratch directory. */
static void lnk(const struct fixture *f, const char *target, const char *rel)
{
	char path[256], t[256];

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	if (target[0] == '@')
		snprintf(t, sizeof(t), "%s%s", f->dir, target + 1);
	else
		snprintf(t, sizeof(t), "%s", target);
	assert_int_equal(symlink(t, path), 0);
}

/*
 * root/sys/class/x/attr "inside", and the same name outside the root "outside"; links
 * out of the root, absolute and climbing, from the root and from a sub-directory.
 */
static void build(struct fixture *f)
{
	mk(f, "root/sys/class/x");
	mk(f, "root/sys/devices/d0");
	mk(f, "root/sys/bus/devices");
	mk(f, "root/outside/sys/class/x");
	mk(f, "root/run");
	mk(f, "outside/sys/class/x");
	mk(f, "outside/run");
	put(f, "root/sys/class/x/attr", "inside \n2nd\n");
	put(f, "root/sys/devices/d0/attr", "d0\n");
	put(f, "outside/sys/class/x/attr", "outside\n");
	put(f, "root/outside/sys/class/x/attr", "clamped\n");
	lnk(f, "/sys/class/x", "root/sys/abs");		       /* absolute: inside the root */
	lnk(f, "@/outside/sys/class/x", "root/sys/abs_out");   /* absolute, out: nothing */
	lnk(f, "../../outside/sys/class/x", "root/sys/up");    /* ".." above the root: clamped */
	lnk(f, "../../devices/d0", "root/sys/bus/devices/d0"); /* climbs out of the dir only */
	lnk(f, "../../../../outside/sys/class/x", "root/sys/bus/devices/up");
	lnk(f, "@/outside/sys/class/x", "root/sys/bus/devices/abs_out");
	lnk(f, "loop", "root/sys/loop");
	lnk(f, "@/outside/run", "root/run/hostprep");
	assert_int_equal(mkfifo(strcat(strcpy((char[256]){ 0 }, f->dir), "/root/sys/fifo"), 0644),
			 0);
}

static int setup_with(void **state, bool walk)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/hostprep-sysroot-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->root_dir, sizeof(f->root_dir), "%s/root", f->dir);
	build(f);
	assert_int_equal(sysroot_init(&f->root, f->root_dir), 0);
	f->walk = walk;
	if (walk)
		f->root.no_openat2 = true;
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, false);
}

static int setup_walk(void **state)
{
	return setup_with(state, true);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	sysroot_done(&f->root);
	free(f);
	return 0;
}

static void expect_attr(const struct sysroot *r, const char *rel, int want_r, const char *want)
{
	char *s = NULL;

	assert_int_equal(sysroot_read_attr(r, SYSROOT_SYS, &s, "%s", rel), want_r);
	if (want)
		assert_string_equal(s, want);
	free(s);
}

/* An absolute link resolves inside the root; one out of it finds nothing there. */
static void test_absolute_link(void **state)
{
	struct fixture *f = *state;

	expect_attr(&f->root, "class/x/attr", 0, "inside");
	expect_attr(&f->root, "abs/attr", 0, "inside");
	expect_attr(&f->root, "abs_out/attr", -ENOENT, NULL);
	assert_int_equal(sysroot_exists(&f->root, SYSROOT_SYS, "abs_out"), 0);
	assert_int_equal(sysroot_exists(&f->root, SYSROOT_SYS, "abs"), 1);
}

/* ".." never climbs above the root: what is inside it at that name is read. */
static void test_dotdot_above_root(void **state)
{
	struct fixture *f = *state;
	char *s = NULL;

	expect_attr(&f->root, "up/attr", 0, "clamped");
	expect_attr(&f->root, "../../../outside/sys/class/x/attr", 0, "clamped");
	assert_int_equal(sysroot_read_file(&f->root, SYSROOT_SYS, 64, &s, NULL, "../../x"),
			 -ENOENT);
	expect_attr(&f->root, "loop/attr", -ELOOP, NULL);
}

/*
 * From a sub-directory's fd: a link that climbs out of it but stays in the root is
 * followed (resolved again from the root); one that climbs out of the root is not.
 */
static void test_link_out_of_subdir(void **state)
{
	struct fixture *f = *state;
	char buf[32], *s = NULL;
	int dfd = sysroot_openat(&f->root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "bus/devices");

	assert_true(dfd >= 0);
	assert_int_equal(read_one_line_buf_at(&f->root, dfd, "d0/attr", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d0");
	assert_int_equal(read_one_line_at(&f->root, dfd, "up/attr", &s), 0);
	assert_string_equal(s, "clamped");
	free(s);
	s = NULL;
	assert_int_equal(read_one_line_at(&f->root, dfd, "abs_out/attr", &s), -ENOENT);
	assert_int_equal(read_full_file_at(&f->root, dfd, "../../class/x/attr", 64, &s, NULL), 0);
	assert_string_equal(s, "inside \n2nd\n");
	free(s);
	close(dfd);
}

/* A magic link (/proc/self/fd/N) is never followed: RESOLVE_NO_MAGICLINKS, or the walk. */
static void test_magic_link(void **state)
{
	struct fixture *f = *state;
	struct sysroot proc = {};
	char outside[128], rel[32];
	int out, fd;

	snprintf(outside, sizeof(outside), "%s/outside/sys/class/x/attr", f->dir);
	out = open(outside, O_RDONLY | O_CLOEXEC);
	assert_true(out >= 0);
	assert_int_equal(sysroot_init(&proc, "/proc/self"), 0);
	proc.no_openat2 = f->walk;
	snprintf(rel, sizeof(rel), "fd/%d", out);
	fd = sysroot_open_at(&proc, proc.fd, rel, O_RDONLY);
	assert_true(fd < 0);
	assert_true(fd == -ELOOP || fd == -ENOENT);
	sysroot_done(&proc);
	close(out);
}

/* A FIFO is opened without blocking and refused before any read. */
static void test_fifo(void **state)
{
	struct fixture *f = *state;
	char buf[8];

	expect_attr(&f->root, "fifo", -EBADFD, NULL);
	assert_int_equal(read_one_line_buf_at(&f->root, f->root.fd, "sys/fifo", buf, sizeof(buf)),
			 -EBADFD);
	assert_int_equal(read_one_line_buf_at(&f->root, f->root.fd, "sys", buf, sizeof(buf)),
			 -EISDIR);
}

static void test_stat_readlink_canonical(void **state)
{
	struct fixture *f = *state;
	char buf[256], *s = NULL;
	struct stat st;

	assert_int_equal(sysroot_stat(&f->root, SYSROOT_SYS, AT_SYMLINK_NOFOLLOW, &st, "abs"), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(sysroot_stat(&f->root, SYSROOT_SYS, 0, &st, "abs"), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(sysroot_stat(&f->root, SYSROOT_SYS, 0, &st, "abs_out"), -ENOENT);
	assert_int_equal(sysroot_stat(&f->root, SYSROOT_SYS, AT_SYMLINK_NOFOLLOW, &st,
				      "bus/devices/d0/attr"),
			 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(sysroot_readlink(&f->root, SYSROOT_SYS, buf, sizeof(buf), "abs"), 12);
	assert_string_equal(buf, "/sys/class/x");
	assert_int_equal(sysroot_readlink(&f->root, SYSROOT_SYS, buf, 4, "abs"), -ENAMETOOLONG);
	assert_int_equal(sysroot_readlink(&f->root, SYSROOT_SYS, buf, sizeof(buf), "abs/attr"),
			 -EINVAL);
	assert_int_equal(sysroot_canonical(&f->root, SYSROOT_SYS, &s, "abs"), 0);
	assert_string_equal(s, "/sys/class/x");
	free(s);
	assert_int_equal(sysroot_canonical(&f->root, SYSROOT_SYS, &s, "bus/devices/d0"), 0);
	assert_string_equal(s, "/sys/devices/d0");
	free(s);
	assert_int_equal(sysroot_canonical(&f->root, SYSROOT_SYS, &s, "abs_out"), -ENOENT);
}

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

static void test_dirs(void **state)
{
	struct fixture *f = *state;
	struct dirent **list = NULL;
	DIR *d = NULL;
	struct dirent *de;
	int n;

	assert_int_equal(sysroot_opendir(&f->root, SYSROOT_SYS, &d, "abs_out"), -ENOENT);
	assert_int_equal(sysroot_opendir(&f->root, SYSROOT_SYS, &d, "abs"), 0);
	n = 0;
	while ((de = readdir(d)))
		n += streq(de->d_name, "attr");
	assert_int_equal(n, 1);
	closedir(d);
	n = sysroot_scandir(&f->root, SYSROOT_SYS, &list, not_dot, alphasort, "up");
	assert_int_equal(n, 1);
	assert_string_equal(list[0]->d_name, "attr");
	free(list[0]);
	free(list);
	assert_int_equal(sysroot_scandir(&f->root, SYSROOT_SYS, &list, not_dot, alphasort,
					 "bus/devices/abs_out"),
			 -ENOENT);
}

/*
 * mkdir -p inside the root; the atomic writer in the directory it gives. A level that is
 * a link out of the root is -ENOENT and nothing is made outside.
 */
static void test_writers(void **state)
{
	struct fixture *f = *state;
	char outside[128], *s = NULL;
	struct stat st;
	int dfd;

	dfd = sysroot_mkdirs(&f->root, SYSROOT_VAR_LIB, 0755, "hostprep/files");
	assert_true(dfd >= 0);
	assert_int_equal(write_file_atomic_at(dfd, "a", "1\n", 2, 0600, WRITE_DURABLE), 0);
	assert_int_equal(write_file_atomic_at(dfd, "x/a", "1\n", 2, 0600, WRITE_DURABLE), -EINVAL);
	assert_int_equal(unlink_stale_temps_at(dfd), 0);
	close(dfd);
	assert_int_equal(sysroot_read_attr(&f->root, SYSROOT_VAR_LIB, &s, "hostprep/files/a"), 0);
	assert_string_equal(s, "1");
	free(s);
	assert_int_equal(sysroot_stat(&f->root, SYSROOT_VAR_LIB, 0, &st, "hostprep/files/a"), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(sysroot_mkdirs(&f->root, SYSROOT_RUN, 0755, "hostprep/sub"), -ENOENT);
	snprintf(outside, sizeof(outside), "%s/outside/run/sub", f->dir);
	assert_int_equal(stat(outside, &st), -1);
	assert_int_equal(errno, ENOENT);
}

/* unlink: in the directory resolved inside the root; a link is removed, not its target. */
static void test_unlink(void **state)
{
	struct fixture *f = *state;
	char path[128];
	struct stat st;

	put(f, "outside/run/victim", "x\n");
	assert_int_equal(sysroot_unlink(&f->root, SYSROOT_RUN, "hostprep/victim"), -ENOENT);
	snprintf(path, sizeof(path), "%s/outside/run/victim", f->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(sysroot_unlink(&f->root, SYSROOT_SYS, "abs_out"), 0);
	snprintf(path, sizeof(path), "%s/root/sys/abs_out", f->dir);
	assert_int_equal(lstat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/outside/sys/class/x/attr", f->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(sysroot_unlink(&f->root, SYSROOT_SYS, "class/x/attr"), 0);
	assert_int_equal(sysroot_unlink(&f->root, SYSROOT_SYS, "class/x/attr"), -ENOENT);
	expect_attr(&f->root, "class/x/attr", -ENOENT, NULL);
}

/* path below the root's directory, as sysroot_lib_path() hands it to a library */
static int lib_check(const struct fixture *f, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->root_dir, rel);
	return sysroot_lib_file_check(&f->root, path);
}

static bool conf_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && streq(name + n - 5, ".conf");
}

static int lib_dir_check(const struct fixture *f, const char *rel, char **name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->root_dir, rel);
	return sysroot_lib_dir_check(&f->root, path, conf_name, name);
}

/*
 * What a library's own open(2) of a path below the root reaches: a regular file inside
 * (links on the way that resolve beneath the root are followed as the library would), or
 * a refusal: a FIFO, a link out (absolute: the library would go to this machine's file).
 */
static void test_lib_file_check(void **state)
{
	struct fixture *f = *state;
	char path[256];

	assert_int_equal(lib_check(f, "sys/class/x/attr"), 0);
	assert_int_equal(lib_check(f, "sys/bus/devices/d0/attr"), 0); /* "..", still inside */
	assert_int_equal(lib_check(f, "sys/fifo"), -EBADFD);
	assert_int_equal(lib_check(f, "sys/class/x"), -EISDIR);
	assert_int_equal(lib_check(f, "sys/abs/attr"), -EXDEV); /* to /sys/class/x of the host */
	assert_int_equal(lib_check(f, "sys/abs_out/attr"), -EXDEV);
	assert_int_equal(lib_check(f, "sys/up/attr"), -EXDEV);
	assert_int_equal(lib_check(f, "sys/bus/devices/up/attr"), -EXDEV);
	assert_int_equal(lib_check(f, "sys/nothing"), -ENOENT);
	snprintf(path, sizeof(path), "%s/outside/sys/class/x/attr", f->dir);
	assert_int_equal(sysroot_lib_file_check(&f->root, path), -EXDEV); /* not below it */
}

static void test_lib_dir_check(void **state)
{
	struct fixture *f = *state;
	char *name = (char *)"unset", fifo[256];

	mk(f, "root/conf.d");
	put(f, "root/conf.d/a.conf", "options x y=1\n");
	lnk(f, "../sys/class/x/attr", "root/conf.d/b.conf"); /* inside: the library's to follow */
	lnk(f, "@/outside/sys/class/x/attr", "root/conf.d/notes.txt"); /* a name it never opens */
	snprintf(fifo, sizeof(fifo), "%s/root/conf.d/.hidden.conf", f->dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(lib_dir_check(f, "conf.d", &name), 0);
	assert_null(name);
	assert_int_equal(lib_dir_check(f, "nothing.d", &name), 0);
	assert_null(name);
	lnk(f, "@/outside/sys/class/x/attr", "root/conf.d/out.conf");
	assert_int_equal(lib_dir_check(f, "conf.d", &name), -EXDEV);
	assert_string_equal(name, "out.conf");
	free(name);
	snprintf(fifo, sizeof(fifo), "%s/root/conf.d/out.conf", f->dir);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(lib_dir_check(f, "conf.d", &name), -EBADFD);
	assert_string_equal(name, "out.conf");
	free(name);
}

int main(void)
{
#define BOTH(t)                                              \
	cmocka_unit_test_setup_teardown(t, setup, teardown), \
		cmocka_unit_test_setup_teardown(t, setup_walk, teardown)
	const struct CMUnitTest tests[] = {
		BOTH(test_absolute_link),
		BOTH(test_dotdot_above_root),
		BOTH(test_link_out_of_subdir),
		BOTH(test_magic_link),
		BOTH(test_fifo),
		BOTH(test_stat_readlink_canonical),
		BOTH(test_dirs),
		BOTH(test_writers),
		BOTH(test_unlink),
		BOTH(test_lib_file_check),
		BOTH(test_lib_dir_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
