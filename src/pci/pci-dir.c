// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device directories of one inventory, opened once per run (pci_dev_dir()). Each is
 * an O_PATH fd: no read, no lock, nothing the kernel keeps alive but the dentry. At 4096
 * functions that is 4096 fds, above the usual soft RLIMIT_NOFILE (1024): the soft limit
 * is raised towards the hard one (systemd's default for services is 1024:524288, and it
 * asks programs that need more to raise their own), and what stays above the budget is
 * opened per use as before. The GRUB chain child sets its own limit (acs-grub-chain.c).
 */
#include <fcntl.h>
#include <sys/resource.h>

#include "pci/pci.h"

/* fds left to everything else: libraries (libkmod, libibverbs, NVML), sinks, pipes. */
#define PCI_DIR_RESERVE 256

struct pci_dir_cache {
	int *fd; /* per function: -1 not kept */
	size_t n, kept, budget;
	bool sized;
	/* per function (allocated on first use): 0 not read, k > 0 names[k - 1], -ENOENT none */
	int *driver;
	char **names; /* the distinct driver names seen: a handful per host */
	size_t n_names;
};

int pci_dir_cache_new(struct pci_inventory *inv)
{
	struct pci_dir_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->fd = malloc((inv->n ? inv->n : 1) * sizeof(*c->fd));
	if (!c->fd) {
		free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < inv->n; i++)
		c->fd[i] = -1;
	c->n = inv->n;
	inv->dirs = c;
	return 0;
}

/* How many fds the cache may keep, the soft limit raised (at most to the hard one) first. */
static void cache_size(struct pci_dir_cache *c)
{
	rlim_t want = (rlim_t)c->n + PCI_DIR_RESERVE;
	struct rlimit rl;

	c->sized = true;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return; /* budget 0: every directory opened per use */
	if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max) {
		struct rlimit up = { .rlim_cur = want < rl.rlim_max ? want : rl.rlim_max,
				     .rlim_max = rl.rlim_max };

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl.rlim_cur = up.rlim_cur;
	}
	if (rl.rlim_cur > PCI_DIR_RESERVE)
		c->budget =
			rl.rlim_cur - PCI_DIR_RESERVE < c->n ? rl.rlim_cur - PCI_DIR_RESERVE : c->n;
}

int pci_dev_dir(const struct sysroot *root, const struct pci_inventory *inv, size_t i,
		struct pci_dir *ret)
{
	struct pci_dir_cache *c = inv->dirs && inv->dirs->n == inv->n ? inv->dirs : NULL;
	int fd;

	*ret = (struct pci_dir){ .fd = -EBADF };
	if (i >= inv->n)
		return -ENOENT;
	if (c && c->fd[i] >= 0)
		return ret->fd = c->fd[i];
	fd = sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "bus/pci/devices/%s",
			    inv->devs[i].addr);
	if (fd < 0) /* not kept: an error is met again by the next reader, as before */
		return ret->fd = fd;
	if (c && !c->sized)
		cache_size(c);
	if (c && c->kept < c->budget) {
		c->fd[i] = fd;
		c->kept++;
	} else {
		ret->owned = true;
	}
	return ret->fd = fd;
}

void pci_dir_release(struct pci_dir *d)
{
	if (d->owned && d->fd >= 0)
		close(d->fd);
	*d = (struct pci_dir){ .fd = -EBADF };
}

/* The index + 1 of name among c's driver names, added if new; -ENOMEM. */
static int driver_intern(struct pci_dir_cache *c, const char *name)
{
	char **grown;

	for (size_t k = 0; k < c->n_names; k++)
		if (streq(c->names[k], name))
			return (int)k + 1;
	grown = reallocarray(c->names, c->n_names + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	c->names = grown;
	c->names[c->n_names] = strdup(name);
	if (!c->names[c->n_names])
		return -ENOMEM;
	return (int)++c->n_names;
}

/* The name a cache entry k > 0 stands for, copied as sysroot_link_name_at() would. */
static int driver_copy(const struct pci_dir_cache *c, int k, char *buf, size_t size)
{
	const char *name = c->names[k - 1];

	if (strlen(name) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, name, strlen(name) + 1);
	return 0;
}

int pci_dev_driver(const struct sysroot *root, const struct pci_inventory *inv, size_t i, char *buf,
		   size_t size)
{
	struct pci_dir_cache *c = inv->dirs && inv->dirs->n == inv->n ? inv->dirs : NULL;
	_cleanup_(pci_dir_release) struct pci_dir dir = { .fd = -EBADF };
	char name[PATH_MAX];
	int dfd, r, k;

	if (c && i < c->n && !c->driver)
		c->driver = calloc(c->n, sizeof(*c->driver));
	if (c && i < c->n && c->driver && c->driver[i])
		return c->driver[i] > 0 ? driver_copy(c, c->driver[i], buf, size) : -ENOENT;
	dfd = pci_dev_dir(root, inv, i, &dir);
	if (dfd < 0) /* no directory is not "no driver": not kept */
		return dfd;
	if (!c || i >= c->n || !c->driver)
		return sysroot_link_name_at(root, dfd, "driver", buf, size);
	r = sysroot_link_name_at(root, dfd, "driver", name, sizeof(name));
	if (r == -ENOENT) /* no link: none bound */
		c->driver[i] = -ENOENT;
	if (r < 0)
		return r;
	k = driver_intern(c, name);
	if (k < 0)
		return k;
	c->driver[i] = k;
	return driver_copy(c, k, buf, size);
}

static int cmp_fd(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Closes the kept fds, one close_range() per run of consecutive numbers (they mostly are). */
void pci_dir_cache_free(struct pci_dir_cache *c)
{
	size_t k = 0;

	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->fd[i] >= 0)
			c->fd[k++] = c->fd[i];
	qsort(c->fd, k, sizeof(*c->fd), cmp_fd);
	for (size_t i = 0, j; i < k; i = j) {
		for (j = i + 1; j < k && c->fd[j] == c->fd[j - 1] + 1;)
			j++;
		if (close_range((unsigned)c->fd[i], (unsigned)c->fd[j - 1], 0) < 0)
			for (size_t m = i; m < j; m++)
				close(c->fd[m]);
	}
	free(c->fd);
	free(c->driver);
	for (size_t i = 0; i < c->n_names; i++)
		free(c->names[i]);
	free(c->names);
	free(c);
}
