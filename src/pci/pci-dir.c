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
	free(c);
}
