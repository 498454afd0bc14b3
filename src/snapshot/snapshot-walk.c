// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The capture (snapshot.h): queued root-relative paths resolved below the root, walked
 * under the rules below, written to the tar. A queued path is opened relative to the
 * root's fd with O_NOFOLLOW on the last component, the components before it checked one
 * by one not to be symlinks (a directory already captured is known not to be one); inside
 * a walk each entry is one name relative to its directory's fd (listed from that fd, never
 * a symlink followed): nothing here resolves a symlink but resolve(). Each directory is
 * walked once as deep as asked, each file read once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/log.h"
#include "pci/selector.h"
#include "snapshot/snapshot.h"

#define LINK_HOPS      40
#define ENTRIES_MAX    500000	       /* members of one snapshot */
#define BYTES_MAX      (2048ULL << 20) /* file data of one snapshot */
#define FILE_MAX       (256U << 20)    /* a module file (nvidia.ko is large) */
#define PSEUDO_MAX     (1U << 20)      /* a /proc or sysfs file (st_size says nothing) */
#define CONFIG_MAX     4096	       /* PCI config space: what a read returns */
#define DEPTH_DEFAULT  8
#define DEPTH_FOLLOWED 8
_Static_assert(DEPTH_DEFAULT <= SNAPSHOT_DEPTH_MAX && DEPTH_FOLLOWED <= SNAPSHOT_DEPTH_MAX,
	       "snapshot.h: walked[]");

/*
 * sysfs files never read, and why (the manifest counts them): a read of resourceN (and
 * resourceN_wc) maps a BAR or does port I/O on an I/O BAR, rom needs enabling, vpd can
 * stall for seconds, the rest are write-only triggers or large directories no check reads.
 */
static const struct {
	const char *name;
	const char *why;
	const char *shown; /* the name in the manifest, when not name */
} sys_never[] = {
	{ "resource[0-9]*", "a read maps PCI BAR memory or does port I/O",
	  "resourceN and resourceN_wc" },
	{ "rom", "a read enables the PCI expansion ROM", NULL },
	{ "vpd", "a read of PCI VPD can stall for seconds", NULL },
	{ "reset", "a trigger (write-only)", NULL },
	{ "remove", "a trigger (write-only)", NULL },
	{ "rescan", "a trigger (write-only)", NULL },
	{ "bind", "a trigger (write-only)", NULL },
	{ "unbind", "a trigger (write-only)", NULL },
	{ "new_id", "a trigger (write-only)", NULL },
	{ "remove_id", "a trigger (write-only)", NULL },
	{ "driver_override", "no check reads it", NULL },
	{ "sections", "no check reads it (large)", NULL },
	{ "notes", "no check reads it (large)", NULL },
	{ "power", "no check reads it (large)", NULL },
	{ "queues", "no check reads it (large)", NULL },
	{ "msi_irqs", "no check reads it (large)", NULL },
};
_Static_assert(ARRAY_SIZE(sys_never) < SNAPSHOT_LEFT_OUT_MAX, "snapshot.h: left_out[]");
#define LEFT_OUT_WRITE_ONLY ARRAY_SIZE(sys_never) /* the last counter: other write-only files */

/*
 * Below a PCI function (or host bridge) directory, the subdirectories hostprep reads: the
 * functions (a domain of four or more digits), and the root bus an Intel VMD function
 * hosts (".../0000:00:0e.0/pci10000:00/10000:00:02.0").
 */
static const char *const pci_subdirs[] = {
	"[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7]",
	"pci[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*:[0-9a-f][0-9a-f]",
	"net",
	"infiniband",
	"infiniband_verbs",
	"infiniband_mad",
	"virtio[0-9]*",
};

/* Links found in a walk that lead where hostprep reads on (device, group, module dirs). */
static const char *const follow_into[] = {
	"sys/devices/*",
	"sys/kernel/iommu_groups/*",
	"sys/module/*",
};
static const char *const follow_never[] = {
	"subsystem",  "firmware_node", "of_node", "physical_node*",
	"consumer:*", "supplier:*",    "driver",
};

/* Never, whatever records them: processes, secrets (and what is below them). */
static const char *const never[] = {
	"proc/[0-9]*",	"proc/self", "proc/thread-self",
	"proc/kcore",	"proc/kmsg", "etc/shadow*",
	"etc/gshadow*", "etc/ssh",   "etc/ssl",
	"etc/sudoers*", "var/log",   "run/log",
	"dev/*",	"home",	     "root",
	"run/user",	"var/home",
};
/* Never as a whole: a walk of all /proc or /dev. */
static const char *const never_whole[] = { "proc", "dev", "sys", "." };
/* dev/: only the RDMA device nodes, as nodes. */
static const char *const dev_allowed[] = { "dev/infiniband", "dev/infiniband/*" };

static bool match_any(const char *const *pats, size_t n, const char *s, int flags)
{
	for (size_t i = 0; i < n; i++)
		if (snapshot_fnmatch(pats[i], s, flags))
			return true;
	return false;
}

#define MATCH(pats, s, flags) match_any(pats, ARRAY_SIZE(pats), s, flags)

/* rel or what is below it is never captured (a prefix of an allowed path may be passed) */
static bool refused_below(const char *rel)
{
	if (MATCH(dev_allowed, rel, FNM_PATHNAME))
		return false;
	return MATCH(never, rel, FNM_PATHNAME | FNM_LEADING_DIR);
}

bool snapshot_refused(const char *rel)
{
	return MATCH(never_whole, rel, 0) || refused_below(rel);
}

static const char *base(const char *rel)
{
	const char *p = strrchr(rel, '/');

	return p ? p + 1 : rel;
}

/* The sys_never rule a sysfs path falls under, counted once a path; -1 for none. */
static int sys_never_at(struct snapshot *s, const char *rel)
{
	if (!strneq(rel, "sys/", 4))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(sys_never); i++)
		if (snapshot_fnmatch(sys_never[i].name, base(rel), 0)) {
			if (strset_add(&s->skipped_paths, rel) > 0)
				s->left_out[i]++;
			return (int)i;
		}
	return -1;
}

void snapshot_left_out(const struct snapshot *s, FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(sys_never); i++)
		if (s->left_out[i])
			fprintf(f, "left out %zu sysfs %s: %s\n", s->left_out[i],
				sys_never[i].shown ? sys_never[i].shown : sys_never[i].name,
				sys_never[i].why);
	if (s->left_out[LEFT_OUT_WRITE_ONLY])
		fprintf(f, "left out %zu write-only files: triggers, nothing to read\n",
			s->left_out[LEFT_OUT_WRITE_ONLY]);
	if (s->names_only)
		fprintf(f,
			"stored empty %zu files whose names the check counts (unified kernel "
			"images): not read\n",
			s->names_only);
}

/* A PCI function, host bridge or virtio device directory: only pci_subdirs below it. */
static bool is_pci_dir(const char *rel)
{
	const char *b = base(rel);

	if (!strneq(rel, "sys/devices/pci", 15))
		return false;
	if (snapshot_fnmatch("virtio[0-9]*", b, 0) || pci_address_is_kernel(b))
		return true;
	return strneq(b, "pci", 3); /* a root bus: pci0000:00, VMD's pci10000:00 */
}

/* Whether a walk of dir goes into its subdirectory rel. */
static bool descend(struct snapshot *s, const char *dir, const char *rel)
{
	if (is_pci_dir(dir))
		return MATCH(pci_subdirs, base(rel), 0);
	return sys_never_at(s, rel) < 0;
}

void snapshot_skip(struct snapshot *s, const char *rel, const char *why)
{
	if (strset_add(&s->skipped_paths, rel) == 0)
		return; /* walked twice (a function below its parent, and by its own link) */
	s->skipped++;
	if (!s->notes)
		return;
	fputs("skipped ", s->notes);
	snapshot_escape(s->notes, rel);
	fprintf(s->notes, ": %s\n", why);
}

/* dir/name, not taken: a manifest line */
static void walk_skip(struct snapshot *s, const char *dir, const char *name, const char *why)
{
	_cleanup_(freep) char *rel = NULL;

	if (asprintf(&rel, "%s/%s", dir, name) >= 0)
		snapshot_skip(s, rel, why);
}

static int skip_errno(struct snapshot *s, const char *rel, int err)
{
	snapshot_skip(s, rel, strerror(-err));
	return 0;
}

int snapshot_want(struct snapshot *s, const char *rel)
{
	while (*rel == '/')
		rel++;
	return strset_add(&s->todo, *rel ? rel : ".") < 0 ? -ENOMEM : 0;
}

void snapshot_record(const char *rel, void *userdata)
{
	if (snapshot_want(userdata, rel) < 0)
		log_oom();
}

/* "a/./b//../c" -> "a/c"; ".." above the top: -EXDEV, or with clamp the top itself. */
static int normalize(char *path, bool clamp)
{
	char *out = path, *p = path;

	while (*p) {
		size_t n = strcspn(p, "/");

		if ((n == 1 && p[0] == '.') || n == 0) {
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (out == path && !clamp)
				return -EXDEV;
			while (out > path && *--out != '/')
				;
		} else {
			if (out > path)
				*out++ = '/';
			memmove(out, p, n);
			out += n;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	*out = '\0';
	return 0;
}

int snapshot_normalize(char *path)
{
	return normalize(path, false);
}

int snapshot_link_target(const char *rel, const char *text, char **ret)
{
	const char *slash = strrchr(rel, '/');
	char *t;

	if (text[0] == '/')
		t = strdup(text);
	else if (asprintf(&t, "%.*s/%s", slash ? (int)(slash - rel) : 0, rel, text) < 0)
		t = NULL;
	if (!t)
		return -ENOMEM;
	(void)normalize(t, true);
	*ret = t;
	return 0;
}

/*
 * Where an entry is opened: by its name in a directory being walked (that directory's
 * fd), or by its path from the root (the root's fd).
 */
struct at {
	int dfd;
	const char *name;
};

static struct at at_root(const struct snapshot *s, const char *rel)
{
	return (struct at){ s->rootfd, rel };
}

static int member_parents(struct snapshot *s, const char *rel);

static int member_dir(struct snapshot *s, const char *rel, const struct stat *st)
{
	int r = strset_add(&s->members, rel);

	if (r <= 0)
		return r;
	if (strset_add(&s->dir_members, rel) < 0)
		return -ENOMEM;
	r = member_parents(s, rel);
	return r < 0 ? r : snapshot_tar_dir(s, rel, st->st_mode, st->st_mtime);
}

/* The directories above rel, each once, before rel (their modes kept). */
static int member_parents(struct snapshot *s, const char *rel)
{
	_cleanup_(freep) char *dir = strdup(rel);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	struct stat st;
	int r;

	if (!dir)
		return -ENOMEM;
	if (!slash)
		return 0;
	*slash = '\0';
	if (strset_has(&s->members, dir))
		return 0;
	r = sysroot_stat_at(s->root, s->rootfd, dir, AT_SYMLINK_NOFOLLOW, &st);
	if (r < 0)
		return r;
	return member_dir(s, dir, &st);
}

static int budget(struct snapshot *s, const char *rel, size_t more)
{
	if (s->members.n >= ENTRIES_MAX || s->bytes + more > BYTES_MAX) {
		snapshot_skip(s, rel, "the snapshot's size bound is reached");
		return -EFBIG;
	}
	return 0;
}

/* A symlink, stored as it is; *ret where it leads below the root. */
static int member_link(struct snapshot *s, struct at at, const char *rel, const struct stat *st,
		       char **ret)
{
	char text[4096];
	int r = sysroot_readlink_at(s->root, at.dfd, at.name, text, sizeof(text));

	*ret = NULL;
	if (r < 0)
		return skip_errno(s, rel, r);
	r = snapshot_link_target(rel, text, ret);
	if (r < 0 || strset_add(&s->members, rel) <= 0)
		return r;
	r = member_parents(s, rel);
	return r < 0 ? r : snapshot_tar_link(s, rel, text, st->st_mtime);
}

static size_t file_max(const char *rel, const struct stat *st)
{
	if (streq(base(rel), "config") && strneq(rel, "sys/", 4))
		return CONFIG_MAX;
	if (strneq(rel, "sys/", 4) || strneq(rel, "proc/", 5))
		return PSEUDO_MAX;
	return (size_t)st->st_size <= FILE_MAX ? (size_t)st->st_size : FILE_MAX + 1;
}

/*
 * A sysfs attribute whose read fails because it has no value now (an empty GID slot's
 * ndev: EINVAL; phys_port_name: EOPNOTSUPP): counted, not named one by one (a RoCE port
 * has hundreds).
 */
static bool no_value(const char *rel, int r)
{
	return strneq(rel, "sys/", 4) &&
	       (r == -EINVAL || r == -ENODATA || r == -EOPNOTSUPP || r == -EIO || r == -ENXIO);
}

/*
 * The name rel was read by: s->via in place of s->via_path, the path it resolved to
 * (etc/modprobe.d -> srv/site/modprobe: srv/site/modprobe/a.conf is etc/modprobe.d/a.conf);
 * *ret NULL when rel is not below it.
 */
static int reached_name(const struct snapshot *s, const char *rel, char **ret)
{
	size_t len = s->via_path ? strlen(s->via_path) : 0;

	*ret = NULL;
	if (!s->via || !s->via_path || !strneq(rel, s->via_path, len) ||
	    (rel[len] && rel[len] != '/'))
		return 0;
	if (asprintf(ret, "%s%s", s->via, rel + len) < 0) {
		*ret = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * A kept file's secrets cut out (snapshot-redact.c), by its name, the name it was read by
 * and the name it has below that (a file in a linked modprobe.d is a modprobe.d file).
 */
static int redact(struct snapshot *s, const char *rel, char **data, size_t *size)
{
	_cleanup_(freep) char *name = NULL;
	unsigned readers;
	char *out;
	size_t n;
	int r;

	r = reached_name(s, rel, &name);
	if (r < 0)
		return r;
	readers = snapshot_redactors(rel) | (s->via ? snapshot_redactors(s->via) : 0) |
		  (name ? snapshot_redactors(name) : 0);
	if (!readers)
		return 0;
	r = snapshot_redact(readers, rel, *data, *size, &out, &n, s->notes);
	if (r <= 0)
		return r;
	s->redacted += (size_t)r;
	free(*data);
	*data = out;
	*size = n;
	return 0;
}

/*
 * A regular file: opened without blocking, checked again on the fd, read bounded, once.
 * fd: rel opened already by open_regular_at() (st its fstat()), or -EBADF; closed here.
 */
static int file_take(struct snapshot *s, struct at at, int fd_in, const char *rel,
		     const struct stat *st)
{
	_cleanup_(closep) int fd = fd_in;
	_cleanup_(freep) char *data = NULL;
	size_t max = file_max(rel, st), size;
	uint64_t h = strset_hash(rel);
	struct stat again;
	int r;

	if (strset_has_hashed(&s->members, rel, h) || strset_has_hashed(&s->no_value_paths, rel, h))
		return 0; /* read already: by another link to its directory, or walked again */
	if (!(st->st_mode & 0444)) {
		s->left_out[LEFT_OUT_WRITE_ONLY] +=
			strset_add_hashed(&s->skipped_paths, rel, h) > 0;
		return 0; /* write-only: a trigger (uevent of a driver, drivers_probe), no state */
	}
	if (max > FILE_MAX) {
		snapshot_skip(s, rel, "larger than the bound of one file");
		return 0;
	}
	r = budget(s, rel, max);
	if (r < 0)
		return r;
	if (fd < 0)
		fd = open_regular_at(s->root, at.dfd, at.name, &again);
	if (fd < 0)
		return skip_errno(s, rel, fd);
	r = read_full_regular_fd(fd, max, (size_t)st->st_size, &data, &size);
	if (r == -ENOMEM)
		return r;
	if (r < 0 && no_value(rel, r)) {
		r = strset_add_hashed(&s->no_value_paths, rel, h);
		s->no_value += r > 0;
		return r < 0 ? r : 0;
	}
	if (r < 0 || strset_add_hashed(&s->members, rel, h) <= 0)
		return r < 0 ? skip_errno(s, rel, r) : 0;
	r = redact(s, rel, &data, &size);
	if (r >= 0)
		r = member_parents(s, rel);
	return r < 0 ? r : snapshot_tar_file(s, rel, st->st_mode, st->st_mtime, data, size);
}

static int member_file(struct snapshot *s, struct at at, const char *rel, const struct stat *st)
{
	return file_take(s, at, -EBADF, rel, st);
}

/*
 * A device node (of /dev only), or a FIFO anywhere: never opened, stored as what it is,
 * so the replay refuses what the host refused (a FIFO where a drop-in should be).
 */
static int member_node(struct snapshot *s, const char *rel, const struct stat *st)
{
	int r;

	if (!S_ISFIFO(st->st_mode) && !strneq(rel, "dev/", 4)) {
		snapshot_skip(s, rel, "a device node outside /dev");
		return 0;
	}
	if (strset_add(&s->members, rel) <= 0)
		return 0;
	r = member_parents(s, rel);
	return r < 0 ? r : snapshot_tar_node(s, rel, st);
}

/*
 * How a directory is walked. sysfs, /proc and /dev: all of it, under the rules above.
 * Anywhere else a directory is not walked: its reader opens the files it wants by name and
 * those are recorded one by one (hostprep's configuration and drop-ins as parsed, the last
 * report, the grub.d files the shell sources), so nothing else there (a configuration
 * repository's .git, a site.env) is taken; but the directories another reader lists
 * (libkmod, dracut) are taken with the names it takes, and the rest is named.
 */
struct listing {
	const char *dir;
	const char *reader;   /* why the other names are not taken; NULL: not named */
	const char *names[3]; /* what the reader takes; none: the directory alone */
	bool names_only;      /* the reader counts the names: each stored empty */
};

static const struct listing listings[] = {
	{ .dir = "*modprobe.d",
	  .reader = "not read (libkmod reads *.conf and *.alias)",
	  .names = { "*.conf", "*.alias" } },
	{ .dir = "etc/dracut.conf.d",
	  .reader = "not read (dracut reads *.conf)",
	  .names = { "*.conf" } },
	/*
	 * The ACS boot check counts the unified kernel images (acs-boot.c: uki_count()) and
	 * reads none: their names, stored empty (an image is tens of MB, and its .cmdline
	 * section may hold what the redaction cuts elsewhere).
	 */
	{ .dir = "*EFI/Linux",
	  .reader = "not read (the ACS boot check counts *.efi)",
	  .names = { "*.efi" },
	  .names_only = true },
	/* the module index; the module files libkmod opens are recorded one by one */
	{ .dir = "lib/modules/*", .names = { "modules.*" } },
	{ .dir = "usr/lib/modules/*", .names = { "modules.*" } },
};
static const struct listing alone = { .dir = "" };

static bool pseudo(const char *rel)
{
	return strneq(rel, "sys/", 4) || strneq(rel, "proc/", 5) || strneq(rel, "dev/", 4) ||
	       MATCH(never_whole, rel, 0);
}

/* NULL: the whole directory */
static const struct listing *listing_of(const char *rel)
{
	if (pseudo(rel))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(listings); i++)
		if (snapshot_fnmatch(listings[i].dir, rel, 0))
			return &listings[i];
	return &alone;
}

/* A recorded directory by the name it was read by (rel) and where it is (path). */
static const struct listing *listing_for(const char *rel, const char *path)
{
	const struct listing *l = listing_of(path);

	if (l != &alone)
		return l;
	l = listing_of(rel);
	return l ? l : &alone;
}

static bool listing_takes(const struct listing *l, const char *name)
{
	if (!l)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(l->names) && l->names[i]; i++)
		if (snapshot_fnmatch(l->names[i], name, FNM_PERIOD))
			return true;
	return false;
}

static int walk(struct snapshot *s, struct at at, const char *rel, const struct stat *st, int depth,
		const struct listing *l);
static int entry(struct snapshot *s, const char *rel, int depth, const struct listing *l);
static int resolve_named(struct snapshot *s, const char *rel, const char *name, char **ret);

/*
 * A link found outside sysfs (modprobe.d/nvidia.conf -> /etc/alternatives/...): whoever
 * lists the directory reads through it, so what it leads to is taken (through every link
 * on the way, LINK_HOPS at most), as a file: a directory there is not walked.
 */
static int follow_link(struct snapshot *s, const char *rel, const char *target)
{
	_cleanup_(freep) char *path = NULL, *name = NULL;
	const char *via = s->via, *via_path = s->via_path;
	int r;

	if (snapshot_refused(target)) {
		snapshot_skip(s, target, "never captured (the target of a symlink)");
		return 0;
	}
	r = resolve_named(s, target, rel, &path);
	if (r < 0 || !path) {
		if (r == 0)
			snapshot_skip(s, rel,
				      "a symlink to nothing (or to what is never captured)");
		return r;
	}
	r = reached_name(s, rel, &name); /* a link in a linked directory: read by both names */
	if (r < 0)
		return r;
	s->via = name ?: rel;
	s->via_path = path;
	r = entry(s, path, -1, &alone);
	s->via = via;
	s->via_path = via_path;
	return r;
}

/* A link found in a walk: stored, and what it leads to taken when hostprep reads there. */
static int entry_link(struct snapshot *s, struct at at, const char *rel, const struct stat *st)
{
	_cleanup_(freep) char *target = NULL;
	int r = member_link(s, at, rel, st, &target);

	if (r < 0 || !target)
		return r;
	if (!strneq(rel, "sys/", 4))
		return follow_link(s, rel, target);
	if (MATCH(follow_never, base(rel), 0) || !MATCH(follow_into, target, 0))
		return 0;
	return snapshot_want(s, target);
}

/* rel, opened at at, st its lstat(); a directory is walked depth levels down with listing l */
static int entry_st(struct snapshot *s, struct at at, const char *rel, const struct stat *st,
		    int depth, const struct listing *l)
{
	if (S_ISLNK(st->st_mode))
		return entry_link(s, at, rel, st);
	if (S_ISREG(st->st_mode))
		return member_file(s, at, rel, st);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) || S_ISFIFO(st->st_mode))
		return member_node(s, rel, st);
	if (!S_ISDIR(st->st_mode)) {
		snapshot_skip(s, rel, "a socket");
		return 0;
	}
	return depth < 0 ? 0 : walk(s, at, rel, st, depth, l);
}

/* rel (a resolved path from the root) as entry_st() takes it */
static int entry(struct snapshot *s, const char *rel, int depth, const struct listing *l)
{
	struct stat st;
	int r;

	if (snapshot_refused(rel) || sys_never_at(s, rel) >= 0)
		return 0;
	r = sysroot_stat_at(s->root, s->rootfd, rel, AT_SYMLINK_NOFOLLOW, &st);
	if (r < 0)
		return skip_errno(s, rel, r);
	return entry_st(s, at_root(s, rel), rel, &st, depth, l);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dir_entry *)a)->name, ((const struct dir_entry *)b)->name);
}

/* The entries of the directory open at fd, sorted (the tar's order does not depend on it). */
static int list_dir(int fd, struct dir_entries *ret)
{
	int r = read_dir_fd(fd, ret);

	if (r >= 0 && ret->n > 1) /* an empty directory has no array: qsort(NULL, 0) */
		qsort(ret->v, ret->n, sizeof(*ret->v), entry_cmp);
	return r;
}

/*
 * A regular file of sysfs or procfs, as its directory's listing says (d_type): opened
 * first, its fstat() standing in for the lstat() (one system call of five). Neither has
 * device nodes to open by mistake; anything else found at the name (replaced since the
 * listing, or a name the open refuses) goes the lstat() way, which says why. 1: taken.
 */
static int listed_file(struct snapshot *s, struct at at, const char *rel, int *ret)
{
	struct stat st;
	int fd;

	if (!strneq(rel, "sys/", 4) && !strneq(rel, "proc/", 5))
		return 0;
	fd = open_regular_at(s->root, at.dfd, at.name, &st);
	if (fd == -ENOMEM)
		return *ret = fd, 1;
	if (fd < 0)
		return 0;
	*ret = file_take(s, at, fd, rel, &st);
	return 1;
}

/* name in directory dfd (dir below the root), depth levels left */
static int walk_entry(struct snapshot *s, int dfd, const char *dir, const struct dir_entry *e,
		      int depth)
{
	_cleanup_(freep) char *rel = NULL;
	const char *name = e->name;
	struct stat st;
	uint64_t h;
	int r;

	if (asprintf(&rel, "%s%s%s", streq(dir, ".") ? "" : dir, streq(dir, ".") ? "" : "/", name) <
	    0)
		return -ENOMEM;
	/* taken (or left) in an earlier walk of dir; a directory may go deeper now */
	h = strset_hash(rel);
	if ((strset_has_hashed(&s->members, rel, h) &&
	     !strset_has_hashed(&s->dir_members, rel, h)) ||
	    strset_has_hashed(&s->no_value_paths, rel, h) ||
	    strset_has_hashed(&s->skipped_paths, rel, h))
		return 0;
	if (e->type == DT_REG) { /* the order below: never read, then how it is read */
		if (snapshot_refused(rel) || sys_never_at(s, rel) >= 0)
			return 0;
		if (listed_file(s, (struct at){ dfd, name }, rel, &r))
			return r;
	}
	r = sysroot_stat_at(s->root, dfd, name, AT_SYMLINK_NOFOLLOW, &st);
	if (r == 0 && S_ISDIR(st.st_mode) && (depth <= 0 || !descend(s, dir, rel)))
		return 0;
	if (snapshot_refused(rel) || sys_never_at(s, rel) >= 0)
		return 0;
	if (r < 0)
		return skip_errno(s, rel, r);
	return entry_st(s, (struct at){ dfd, name }, rel, &st, depth - 1, listing_of(rel));
}

/* A regular file whose name is all its reader takes: stored empty, its mode and time kept. */
static int walk_name(struct snapshot *s, int dfd, const char *dir, const struct dir_entry *e,
		     int depth)
{
	_cleanup_(freep) char *rel = NULL;
	struct stat st;
	int r;

	if (asprintf(&rel, "%s/%s", dir, e->name) < 0)
		return -ENOMEM;
	r = sysroot_stat_at(s->root, dfd, e->name, AT_SYMLINK_NOFOLLOW, &st);
	if (r < 0 || !S_ISREG(st.st_mode)) /* a link or anything else: as any entry */
		return walk_entry(s, dfd, dir, e, depth);
	if (strset_add(&s->members, rel) <= 0)
		return 0;
	r = member_parents(s, rel);
	if (r < 0)
		return r;
	s->names_only++;
	return snapshot_tar_file(s, rel, st.st_mode, st.st_mtime, "", 0);
}

/* The directory at at, never through a symlink (one put there since its lstat()). */
static int open_dir(struct snapshot *s, struct at at)
{
	return sysroot_open_at(s->root, at.dfd, at.name,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
}

/* A whole walk of rel at least this deep was done (or is under way): not again. */
static int walked(struct snapshot *s, const char *rel, int depth, const struct listing *l)
{
	uint64_t h;

	if (l || depth < 0 || depth > SNAPSHOT_DEPTH_MAX)
		return 0;
	h = strset_hash(rel);
	for (int d = depth; d <= SNAPSHOT_DEPTH_MAX; d++)
		if (strset_has_hashed(&s->walked[d], rel, h))
			return 1;
	return strset_add_hashed(&s->walked[depth], rel, h) < 0 ? -ENOMEM : 0;
}

/*
 * A directory (opened at at, st its lstat()) and what is in it, depth levels down; l:
 * only the names it takes. Its entries are opened by name from its fd.
 */
static int walk(struct snapshot *s, struct at at, const char *rel, const struct stat *st, int depth,
		const struct listing *l)
{
	_cleanup_(dir_entries_done) struct dir_entries names = {};
	_cleanup_(closep) int fd = -EBADF;
	int r;

	r = streq(rel, ".") ? 0 : member_dir(s, rel, st);
	if (r < 0 || (l && !l->names[0]))
		return r;
	r = walked(s, rel, depth, l);
	if (r != 0)
		return r < 0 ? r : 0;
	fd = r = open_dir(s, at);
	if (r >= 0)
		r = list_dir(fd, &names);
	if (r < 0 && r != -ENOMEM)
		return skip_errno(s, rel, r);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		if (l && l->names_only && listing_takes(l, names.v[i].name))
			r = walk_name(s, fd, rel, &names.v[i], depth);
		else if (listing_takes(l, names.v[i].name))
			r = walk_entry(s, fd, rel, &names.v[i], depth);
		else if (l->reader)
			walk_skip(s, rel, names.v[i].name, l->reader);
	}
	return r;
}

/* A resolved directory path walked (a recorded pattern's directory). */
static int walk_path(struct snapshot *s, const char *rel, int depth, const struct listing *l)
{
	struct stat st;
	int r = sysroot_stat_at(s->root, s->rootfd, rel, AT_SYMLINK_NOFOLLOW, &st);

	if (r < 0)
		return skip_errno(s, rel, r);
	if (!S_ISDIR(st.st_mode))
		return skip_errno(s, rel, -ENOTDIR);
	return walk(s, at_root(s, rel), rel, &st, depth, l);
}

/* *cur with its first component that is a symlink replaced by the link's target. */
static int splice_link(struct snapshot *s, char **cur, size_t end, const struct stat *st)
{
	_cleanup_(freep) char *target = NULL;
	char *p = *cur, *next = NULL;
	bool more = p[end] != '\0';
	int r;

	p[end] = '\0';
	r = member_link(s, at_root(s, p), p, st, &target);
	if (r < 0 || !target)
		return r < 0 ? r : -EXDEV;
	if (asprintf(&next, "%s%s%s", target, more ? "/" : "", more ? p + end + 1 : "") < 0)
		return -ENOMEM;
	free(*cur);
	*cur = next;
	return snapshot_normalize(next) < 0 ? -EXDEV : 1;
}

/*
 * /proc/net is a link to self/net: the reading process's view of its network namespace,
 * where /proc/self is never captured. It is stored as the directory it shows, which is
 * what a replay reads as /proc/net (net/bonding, net/route). 1: p is that link, now a
 * captured directory.
 */
static int self_link_dir(struct snapshot *s, const char *p, const struct stat *lst)
{
	struct stat st;
	int r;

	if (!S_ISLNK(lst->st_mode) || !streq(p, "proc/net"))
		return 0;
	r = sysroot_stat_at(s->root, s->rootfd, p, 0, &st);
	if (r < 0 || !S_ISDIR(st.st_mode))
		return 0; /* a link as any other */
	r = member_dir(s, p, &st);
	return r < 0 ? r : 1;
}

/* 1: a symlink in *cur was followed; 0: *cur has none; <0: it is not there to capture. */
static int resolve_step(struct snapshot *s, char **cur)
{
	char *p = *cur;
	size_t end = 0;

	for (;;) {
		struct stat st;
		bool known;
		char save;
		int r;

		end += strcspn(p + end, "/");
		save = p[end];
		p[end] = '\0';
		known = save && strset_has(&s->dir_members, p); /* a captured directory: no link */
		r = refused_below(p) || (!known && sysroot_stat_at(s->root, s->rootfd, p,
								   AT_SYMLINK_NOFOLLOW, &st) < 0)
			    ? -ENOENT
			    : 0;
		if (r == 0 && !known) {
			r = self_link_dir(s, p, &st);
			known = r > 0;
			r = r < 0 ? r : 0;
		}
		p[end] = save;
		if (r < 0)
			return r;
		if (!known && S_ISLNK(st.st_mode))
			return splice_link(s, cur, end, &st);
		if (!save)
			return 0;
		end++;
	}
}

/*
 * rel with every symlink on the way stored and followed inside the root: *ret the
 * physical path, NULL when it is not there or is refused; -ELOOP after LINK_HOPS links.
 */
static int resolve(struct snapshot *s, const char *rel, char **ret)
{
	_cleanup_(freep) char *cur = strdup(rel);

	*ret = NULL;
	if (!cur)
		return -ENOMEM;
	if (snapshot_normalize(cur) < 0 || !*cur)
		return 0;
	for (int hops = 0; hops < LINK_HOPS; hops++) {
		int r = resolve_step(s, &cur);

		if (r < 0)
			return r == -ENOMEM ? r : 0;
		if (r == 0) {
			*ret = TAKE_PTR(cur);
			return 0;
		}
	}
	return -ELOOP;
}

/* resolve() for a caller that names what it could not take */
static int resolve_named(struct snapshot *s, const char *rel, const char *name, char **ret)
{
	int r = resolve(s, rel, ret);

	if (r != -ELOOP)
		return r;
	snapshot_skip(s, name, "too many levels of symlinks");
	return 0;
}

/* How deep a recorded directory is walked (outside sysfs, /proc and /dev: listings). */
static int depth_of(const char *rel)
{
	if (streq(rel, "sys/bus/pci"))
		return 2;
	if (snapshot_fnmatch("sys/class/*", rel, FNM_PATHNAME))
		return 1;
	if (!pseudo(rel))
		return 0;
	return strneq(rel, "sys/devices/", 12) ? DEPTH_FOLLOWED : DEPTH_DEFAULT;
}

/* A recorded path whose last component is a pattern ("boot/loader/entries/\*.conf"). */
static int capture_pattern(struct snapshot *s, const char *rel, const char *slash)
{
	_cleanup_(freep) char *dir = strndup(rel, (size_t)(slash - rel)), *path = NULL;
	struct listing l = { .dir = "", .names = { slash + 1 } };
	int r;

	if (!dir)
		return -ENOMEM;
	r = resolve_named(s, dir, dir, &path);
	if (r < 0 || !path)
		return r;
	s->via = dir;
	s->via_path = path;
	r = walk_path(s, path, 0, &l);
	s->via = s->via_path = NULL;
	return r;
}

static int capture_one(struct snapshot *s, const char *rel)
{
	_cleanup_(freep) char *path = NULL;
	const char *slash = strrchr(rel, '/');
	int r;

	if (snapshot_refused(rel))
		return 0;
	if (slash && strpbrk(slash, "*?["))
		return capture_pattern(s, rel, slash);
	r = resolve_named(s, rel, rel, &path);
	if (r < 0 || !path)
		return r;
	s->via = rel;
	s->via_path = path;
	r = entry(s, path, depth_of(path), listing_for(rel, path));
	s->via = s->via_path = NULL;
	return r;
}

int snapshot_capture(struct snapshot *s)
{
	/* s->todo grows while links are followed: by index, not by pointer */
	for (size_t i = 0; i < s->todo.n; i++) {
		_cleanup_(freep) char *rel = strdup(s->todo.order[i]);
		int r = rel ? capture_one(s, rel) : -ENOMEM;

		if (r < 0)
			return r == -EFBIG ? 0 : r;
	}
	return 0;
}

int snapshot_init(struct snapshot *s, const struct sysroot *root)
{
	*s = (struct snapshot){ .root = root, .rootfd = root->fd };
	s->notes = open_memstream(&s->notes_buf, &s->notes_size);
	return s->notes ? 0 : -ENOMEM;
}

void snapshot_record_data(const char *rel, const char *data, size_t size, void *userdata)
{
	struct snapshot *s = userdata;
	struct snapshot_data *grown, d = { strdup(rel), malloc(size ? size : 1), size };

	if (!d.rel || !d.data)
		goto oom;
	memcpy(d.data, data, size);
	for (size_t i = 0; i < s->n_data; i++)
		if (streq(s->data[i].rel, rel)) {
			free(s->data[i].rel);
			free(s->data[i].data);
			s->data[i] = d;
			return;
		}
	grown = reallocarray(s->data, s->n_data + 1, sizeof(*grown));
	if (!grown)
		goto oom;
	s->data = grown;
	s->data[s->n_data++] = d;
	return;
oom:
	free(d.rel);
	free(d.data);
	log_oom();
}

void snapshot_done(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_data; i++) {
		free(s->data[i].rel);
		free(s->data[i].data);
	}
	free(s->data);
	if (s->a)
		(void)snapshot_tar_close(s);
	if (s->notes)
		fclose(s->notes);
	free(s->notes_buf);
	strset_done(&s->todo);
	strset_done(&s->members);
	strset_done(&s->skipped_paths);
	strset_done(&s->dir_members);
	strset_done(&s->no_value_paths);
	for (size_t i = 0; i < ARRAY_SIZE(s->walked); i++)
		strset_done(&s->walked[i]);
}
