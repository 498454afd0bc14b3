// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor ROOT [-l]: the raw-read floor of make bench, the least I/O that
 * hostprep's ACS job needs on the tree under ROOT (tests/bench/gen.py).
 *
 * readdir ROOT/sys/bus/pci/devices; per entry one readlink (its target names
 * the bridge above the function: the tree), one 64-byte read of the config
 * header (IDs, class, header type); then, only for bridges (header type 1),
 * the extended capability chain from 0x100 up to ACS, 4 bytes a step, and
 * ACS Capability + Control (4 bytes). Nothing else: no attribute files, no
 * classic capability list, no IOMMU groups.
 *
 * So that it cannot cheat it does the job's selection too, in memory: the
 * ACS ports on the path from every NVIDIA (10de) or Mellanox (15b3) function
 * up to its root port, what tests/bench/bench.conf selects. It prints one
 * summary line, and with -l every candidate port (a bridge on such a path:
 * the rule can select it, so its chain has to be read) with its ACS Control
 * or "no-acs"; make bench compares the ones with ACS with hostprep's JSON
 * report, and allows reads past the header only for the candidates.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR_LEN	    64
#define ECAP_START  0x100
#define ECAP_ACS    0x000d
#define CFG_EXT_END 0x1000

struct fn {
	char bdf[16];
	char parent[16]; /* "" on a root bus */
	uint16_t vendor;
	uint32_t class;
	bool bridge;
	uint16_t acs_off; /* 0: no ACS capability */
	uint16_t acs_cap, acs_ctrl;
	bool candidate; /* a bridge on the path above a selected vendor's function */
	bool selected;	/* ... with ACS */
};

static unsigned long long cfg_bytes;

static uint16_t le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

static ssize_t cfg_read(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n > 0)
		cfg_bytes += n;
	return n;
}

/* A sysfs device directory name is a BDF, "0000:00:01.0"; host bridges are "pci0000:00". */
static bool is_bdf(const char *s, size_t len)
{
	return len == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.';
}

/* The link target's second-to-last component is the parent bridge, if any. */
static void parent_of(const char *target, char *parent)
{
	const char *last = strrchr(target, '/'), *prev;

	parent[0] = '\0';
	if (!last || last == target)
		return;
	for (prev = last - 1; prev > target && *prev != '/'; prev--)
		;
	if (*prev == '/')
		prev++;
	if (is_bdf(prev, last - prev)) {
		memcpy(parent, prev, 12);
		parent[12] = '\0';
	}
}

/* Walk the extended capabilities to ACS; 4 bytes per step, as hardware reads dwords. */
static void find_acs(int fd, struct fn *f)
{
	uint8_t b[4];
	unsigned int off = ECAP_START, steps;

	for (steps = 0; steps < (CFG_EXT_END - ECAP_START) / 4; steps++) {
		uint32_t h;

		if (cfg_read(fd, b, 4, off) != 4)
			return; /* 256-byte config: conventional PCI */
		h = le32(b);
		if (h == 0 || h == 0xffffffff)
			return;
		if ((h & 0xffff) == ECAP_ACS) {
			if (cfg_read(fd, b, 4, off + 4) != 4)
				return;
			f->acs_off = off;
			f->acs_cap = le16(b);
			f->acs_ctrl = le16(b + 2);
			return;
		}
		off = h >> 20;
		if (off < ECAP_START)
			return;
	}
}

static int scan_one(int dirfd, const char *name, struct fn *f)
{
	char target[4096], path[300];
	uint8_t hdr[HDR_LEN];
	ssize_t n;
	int fd;

	memset(f, 0, sizeof(*f));
	snprintf(f->bdf, sizeof(f->bdf), "%s", name);
	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	parent_of(target, f->parent);

	snprintf(path, sizeof(path), "%s/config", name);
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = cfg_read(fd, hdr, HDR_LEN, 0);
	if (n != HDR_LEN) {
		close(fd);
		return n < 0 ? -errno : -EIO;
	}
	f->vendor = le16(hdr);
	f->class = le32(hdr + 8) >> 8;
	f->bridge = (hdr[0x0e] & 0x7f) == 1;
	if (f->bridge)
		find_acs(fd, f);
	close(fd);
	return 0;
}

static int cmp_fn(const void *a, const void *b)
{
	return strcmp(((const struct fn *)a)->bdf, ((const struct fn *)b)->bdf);
}

/* bench.conf: Select=upstream:10de:* upstream:15b3:* */
static void select_ports(struct fn *fns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fn key = { 0 }, *p = &fns[i];

		if (fns[i].vendor != 0x10de && fns[i].vendor != 0x15b3)
			continue;
		while (p && p->parent[0]) {
			memcpy(key.bdf, p->parent, sizeof(key.bdf));
			p = bsearch(&key, fns, n, sizeof(*fns), cmp_fn);
			if (p) {
				p->candidate = true;
				p->selected = p->acs_off != 0;
			}
		}
	}
}

int main(int argc, char **argv)
{
	size_t n = 0, cap = 0, bridges = 0, acs = 0, candidates = 0, selected = 0;
	bool list = argc > 2 && !strcmp(argv[2], "-l");
	struct fn *fns = NULL;
	struct dirent *de;
	int rootfd, dirfd;
	DIR *dir;

	if (argc < 2) {
		fprintf(stderr, "usage: floor ROOT [-l]\n");
		return 2;
	}
	rootfd = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		perror(argv[1]);
		return 1;
	}
	dirfd = openat(rootfd, "sys/bus/pci/devices", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = dirfd < 0 ? NULL : fdopendir(dirfd);
	if (!dir) {
		perror("sys/bus/pci/devices");
		return 1;
	}
	while ((de = readdir(dir))) {
		int r;

		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			fns = realloc(fns, cap * sizeof(*fns));
			if (!fns)
				return 1;
		}
		r = scan_one(dirfd, de->d_name, &fns[n]);
		if (r < 0) {
			fprintf(stderr, "floor: %s: %s\n", de->d_name, strerror(-r));
			return 1;
		}
		n++;
	}
	closedir(dir);
	qsort(fns, n, sizeof(*fns), cmp_fn);
	select_ports(fns, n);
	for (size_t i = 0; i < n; i++) {
		bridges += fns[i].bridge;
		acs += fns[i].acs_off != 0;
		candidates += fns[i].candidate;
		selected += fns[i].selected;
		if (list && fns[i].selected)
			printf("%s acs@%03x cap %04x ctrl %04x\n", fns[i].bdf, fns[i].acs_off,
			       fns[i].acs_cap, fns[i].acs_ctrl);
		else if (list && fns[i].candidate)
			printf("%s no-acs\n", fns[i].bdf);
	}
	printf("floor: functions %zu bridges %zu acs_ports %zu candidates %zu selected %zu "
	       "cfg_bytes %llu\n",
	       n, bridges, acs, candidates, selected, cfg_bytes);
	free(fns);
	return 0;
}
