// SPDX-License-Identifier: GPL-2.0-or-later
/* pci_dev_dir(): the run's device directories, each opened once, and the fd budget. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "pci/pci.h"
#include "scratch.h"

static char tree[] = "/tmp/hp-pcidir-XXXXXX";

static void link_dev(const char *addr)
{
	char dir[256], link[256], target[256];

	snprintf(dir, sizeof(dir), "%s/sys/devices/pci0000:00/%s", tree, addr);
	scratch_mkdir_p(dir);
	snprintf(link, sizeof(link), "%s/sys/bus/pci/devices/%s", tree, addr);
	snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", addr);
	assert_int_equal(symlink(target, link), 0);
}

static int setup(void **state)
{
	char path[256];

	assert_non_null(mkdtemp(tree));
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices", tree);
	scratch_mkdir_p(path);
	link_dev("0000:00:01.0");
	link_dev("0000:01:00.0");
	link_dev("0000:02:00.0");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

#define N_DEVS 4
static struct pci_dev_info devs[N_DEVS] = {
	{ .addr = "0000:00:01.0", .parent = -1 },
	{ .addr = "0000:01:00.0", .parent = 0 },
	{ .addr = "0000:02:00.0", .parent = -1 },
	{ .addr = "0000:03:00.0", .parent = -1 }, /* listed by nobody: no directory */
};

static void test_kept(void **state)
{
	struct pci_inventory inv = { .devs = devs, .n = N_DEVS };
	struct pci_dir a, b, gone;
	struct sysroot root;
	int fd;

	assert_int_equal(sysroot_init(&root, tree), 0);
	assert_int_equal(pci_dir_cache_new(&inv), 0);
	fd = pci_dev_dir(&root, &inv, 1, &a);
	assert_true(fd >= 0);
	assert_int_equal(a.fd, fd);
	assert_false(a.owned);
	/* the second reader gets the same directory, not a second walk */
	assert_int_equal(pci_dev_dir(&root, &inv, 1, &b), fd);
	assert_false(b.owned);
	pci_dir_release(&a);
	pci_dir_release(&b);
	assert_true(fd_open(fd)); /* the inventory's, not the reader's */
	assert_int_equal(a.fd, -EBADF);
	/* the right directory: its name, relative to the fd */
	assert_int_equal(faccessat(fd, "..", F_OK, 0), 0);
	/* no directory: -ENOENT, nothing to release; and again (an error is not kept) */
	assert_int_equal(pci_dev_dir(&root, &inv, 3, &gone), -ENOENT);
	assert_int_equal(gone.fd, -ENOENT);
	assert_false(gone.owned);
	assert_int_equal(pci_dev_dir(&root, &inv, 3, &gone), -ENOENT);
	pci_dir_release(&gone);
	/* past the inventory */
	assert_int_equal(pci_dev_dir(&root, &inv, N_DEVS, &gone), -ENOENT);
	/* every kept directory closed with the inventory (one close_range per run of fds) */
	assert_true(pci_dev_dir(&root, &inv, 0, &a) >= 0);
	assert_true(pci_dev_dir(&root, &inv, 2, &b) >= 0);
	pci_dir_cache_free(inv.dirs);
	assert_false(fd_open(fd));
	assert_false(fd_open(a.fd));
	assert_false(fd_open(b.fd));
	sysroot_done(&root);
}

/* An inventory built by hand (a unit test, a view) keeps nothing: the reader owns the fd. */
static void test_uncached(void **state)
{
	struct pci_inventory inv = { .devs = devs, .n = N_DEVS };
	struct sysroot root;
	struct pci_dir d;
	int fd;

	assert_int_equal(sysroot_init(&root, tree), 0);
	fd = pci_dev_dir(&root, &inv, 0, &d);
	assert_true(fd >= 0);
	assert_true(d.owned);
	pci_dir_release(&d);
	assert_false(fd_open(fd));
	sysroot_done(&root);
}

static void driver_link(const char *addr, const char *driver)
{
	char link[256], target[256];

	snprintf(link, sizeof(link), "%s/sys/devices/pci0000:00/%s/driver", tree, addr);
	(void)unlink(link);
	if (!driver)
		return;
	snprintf(target, sizeof(target), "../../../bus/pci/drivers/%s", driver);
	assert_int_equal(symlink(target, link), 0);
}

/*
 * pci_dev_driver(): the link's last component, read once per inventory (a changed link is
 * not seen by the same inventory: the run reads it again after a write); "none bound" is
 * kept, a failure is not; a name that does not fit is -ENAMETOOLONG, every time.
 */
static void test_driver(void **state)
{
	struct pci_inventory inv = { .devs = devs, .n = N_DEVS };
	struct sysroot root;
	char buf[32];

	assert_int_equal(sysroot_init(&root, tree), 0);
	driver_link("0000:00:01.0", "pcieport");
	driver_link("0000:01:00.0", "mlx5_core");
	driver_link("0000:02:00.0", NULL);
	assert_int_equal(pci_dir_cache_new(&inv), 0);
	assert_int_equal(pci_dev_driver(&root, &inv, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mlx5_core");
	assert_int_equal(pci_dev_driver(&root, &inv, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "pcieport");
	assert_int_equal(pci_dev_driver(&root, &inv, 2, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(pci_dev_driver(&root, &inv, 3, buf, sizeof(buf)), -ENOENT); /* no dir */
	/* the same inventory answers from what it read */
	driver_link("0000:01:00.0", "vfio-pci");
	driver_link("0000:02:00.0", "nvidia");
	assert_int_equal(pci_dev_driver(&root, &inv, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mlx5_core");
	assert_int_equal(pci_dev_driver(&root, &inv, 2, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(pci_dev_driver(&root, &inv, 1, buf, 9), -ENAMETOOLONG); /* 9 bytes */
	assert_int_equal(pci_dev_driver(&root, &inv, 1, buf, 10), 0);
	assert_string_equal(buf, "mlx5_core");
	/* a directory that appears later is read then: a failure was not kept */
	link_dev("0000:03:00.0");
	driver_link("0000:03:00.0", "nvidia");
	assert_int_equal(pci_dev_driver(&root, &inv, 3, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "nvidia");
	pci_dir_cache_free(inv.dirs);
	/* a new inventory (the run's next read) sees the links as they are now */
	assert_int_equal(pci_dir_cache_new(&inv), 0);
	assert_int_equal(pci_dev_driver(&root, &inv, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vfio-pci");
	assert_int_equal(pci_dev_driver(&root, &inv, 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "nvidia");
	pci_dir_cache_free(inv.dirs);
	/* without a cache (an inventory built by hand): read every time */
	inv.dirs = NULL;
	driver_link("0000:02:00.0", NULL);
	assert_int_equal(pci_dev_driver(&root, &inv, 2, buf, sizeof(buf)), -ENOENT);
	sysroot_done(&root);
}

/*
 * The budget: the soft RLIMIT_NOFILE raised to what the inventory needs (its functions and
 * 256 for the rest), never above the hard one; past it, the reader owns each fd. Last: it
 * lowers this process's hard limit.
 */
static void test_budget(void **state)
{
	struct pci_inventory inv = { .devs = devs, .n = N_DEVS };
	struct rlimit rl = { .rlim_cur = 256, .rlim_max = 258 };
	struct pci_dir a, b, c;
	struct sysroot root;

	assert_int_equal(sysroot_init(&root, tree), 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(pci_dir_cache_new(&inv), 0);
	assert_true(pci_dev_dir(&root, &inv, 0, &a) >= 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(rl.rlim_cur, 258); /* raised to the hard limit, not to 256 + 4 */
	assert_false(a.owned);		    /* 258 - 256: two kept */
	assert_true(pci_dev_dir(&root, &inv, 1, &b) >= 0);
	assert_false(b.owned);
	assert_true(pci_dev_dir(&root, &inv, 2, &c) >= 0);
	assert_true(c.owned); /* the third is the reader's */
	pci_dir_release(&c);
	assert_false(fd_open(c.fd));
	/* a kept one stays kept */
	assert_int_equal(pci_dev_dir(&root, &inv, 0, &c), a.fd);
	assert_false(c.owned);
	pci_dir_cache_free(inv.dirs);
	assert_false(fd_open(a.fd));
	sysroot_done(&root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_uncached),
		cmocka_unit_test(test_driver),
		cmocka_unit_test(test_budget),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
