/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/sysroot.h"

/*
 * hostprep snapshot: what hostprep reads on this host, in one tar that the manifest's
 * replay line (`hostprep --root DIR [--config DIR/config/N-NAME...] check`) replays.
 *
 * Two steps. Record: a read-only check pass runs with a recorder on src/core/sysroot, so
 * every path a module builds below the root (and each module file libkmod opens) is
 * named by the module that reads it, whatever the configuration asks; a short list of
 * what the pass does not read (the last report, the PCI bus) is added. Capture: each
 * recorded path is resolved below the root one component at a time, each symlink on the
 * way stored as it is and followed as hostprep reads below a root (chroot-like: an
 * absolute target is below the root, ".." stops at its top). A directory of sysfs, /proc
 * or /dev is walked under the rules of snapshot-walk.c (which subtrees, how deep, which
 * sysfs files are never read), and the links found there that lead to device, IOMMU group
 * or module directories are captured too; any other directory is not walked (its files
 * come recorded one by one: the configuration as parsed), but for the ones a library lists
 * (modprobe.d), taken with the names it reads and through every link. Nothing but regular
 * files is read (opened O_NONBLOCK, checked with fstat()), every read is bounded, the
 * secrets of the files kept are cut (snapshot-redact.c), and whatever is not captured is
 * named in the manifest member, hostprep-snapshot.txt.
 */

#define SNAPSHOT_MANIFEST "hostprep-snapshot.txt"

/* A slot of a struct strset: str NULL when free. */
struct strset_slot {
	char *str;
	/*
	 * str's strset_hash(), compared before its text: paths share long prefixes
	 * ("sys/devices/pci0000:d1/..."), so a probe past another path costs a strcmp() of
	 * most of both without it (a twentieth of a snapshot's CPU at 4096 functions); beside
	 * it, one cache line per probe.
	 */
	uint64_t hash;
};

struct strset {
	struct strset_slot *v; /* open addressing */
	size_t cap, n;
	char **order; /* insertion order (the same strings) */
};

int strset_add(struct strset *s, const char *str); /* 1 added, 0 present, -ENOMEM */
bool strset_has(const struct strset *s, const char *str);
/* The same with str's strset_hash() given: one path asked of several sets hashed once. */
uint64_t strset_hash(const char *str);
int strset_add_hashed(struct strset *s, const char *str, uint64_t h);
bool strset_has_hashed(const struct strset *s, const char *str, uint64_t h);
void strset_done(struct strset *s);
/*
 * fnmatch(pat, s, flags) == 0, without fnmatch() where the pattern's literal head (up to
 * its first * ? [ or \\) is not s's, or the literal run after a leading * is nowhere in s:
 * every path of a walk is asked of every rule (a fifth of a snapshot's CPU in fnmatch()).
 */
bool snapshot_fnmatch(const char *pat, const char *s, int flags);

struct archive;

#define SNAPSHOT_LEFT_OUT_MAX 24

#define SNAPSHOT_DEPTH_MAX 8 /* snapshot-walk.c: the deepest a walk starts */

struct snapshot {
	const struct sysroot *root;
	int rootfd; /* the root's O_PATH fd (struct sysroot's): every path is relative to it */
	struct archive *a;
	locale_t utf8;	       /* C.UTF-8, under which libarchive takes names as UTF-8 (or 0) */
	struct strset todo;    /* recorded and discovered paths, captured in this order */
	struct strset members; /* what is in the tar */
	struct strset skipped_paths;
	struct strset dir_members;    /* the members that are directories (no symlink on the way) */
	struct strset no_value_paths; /* counted in no_value, not read again */
	/* a directory walked whole (no listing), by how deep: not walked again as deep */
	struct strset walked[SNAPSHOT_DEPTH_MAX + 1];
	FILE *notes; /* the manifest's "skipped" and "redacted" lines */
	char *notes_buf;
	size_t notes_size;
	const char *via; /* the name what is captured now was read by (a link, a recorded path) */
	const char *via_path; /* what via resolved to: a file below it was read as via/... */
	size_t bytes, files, links, dirs, nodes, skipped, redacted;
	size_t names_only; /* files stored empty: their names are what the check reads */
	size_t no_value;   /* sysfs attributes whose read failed: no value now */
	size_t left_out[SNAPSHOT_LEFT_OUT_MAX]; /* sysfs files never read, by rule */
	size_t binary_names;			/* members whose name is not UTF-8 */
	/* what the check pass judged from a library, not a file (sysroot_note_data()) */
	struct snapshot_data {
		char *rel;
		char *data;
		size_t size;
	} * data;
	size_t n_data;
};

int snapshot_init(struct snapshot *s, const struct sysroot *root);
void snapshot_done(struct snapshot *s);
/* Queue a root-relative path ("sys/bus/pci", may end in a "*" pattern) to capture. */
int snapshot_want(struct snapshot *s, const char *rel);
/* The recorder for sysroot_set_recorder(): snapshot_want() of each path. */
void snapshot_record(const char *rel, void *userdata);
/* The data recorder (sysroot_set_data_recorder()): kept for the tar, the last one per rel. */
void snapshot_record_data(const char *rel, const char *data, size_t size, void *userdata);
/* Capture every queued path (and what they lead to) into s->a. */
int snapshot_capture(struct snapshot *s);
/* "a/./b//../c" -> "a/c" in place; -EXDEV when ".." climbs above the root. */
int snapshot_normalize(char *path);
/*
 * The root-relative, normalized path the symlink at rel (text: what it says) points to,
 * malloc'd. As hostprep reads below a root (chroot-like, RESOLVE_IN_ROOT): an absolute
 * target is below the root, and ".." at the root stays there.
 */
int snapshot_link_target(const char *rel, const char *text, char **ret);
/* Never captured, whatever records it: /proc as a whole and its processes, secrets, logs. */
bool snapshot_refused(const char *rel);
/* A manifest line: "skipped PATH: why". */
void snapshot_skip(struct snapshot *s, const char *rel, const char *why);
/* The manifest's "left out" lines: the sysfs files never read, counted by rule. */
void snapshot_left_out(const struct snapshot *s, FILE *f);

/* snapshot-set.c: names, which may hold any byte but '/' and NUL */
bool snapshot_utf8(const char *s);
/* s, with "\\" for a backslash, \xNN for a control byte and for a byte that is not UTF-8 */
void snapshot_escape(FILE *f, const char *s);

/* snapshot-redact.c: the secrets of a kept file cut out (see there for the forms) */
enum {
	SNAPSHOT_REDACT_CMDLINE = 1 << 0, /* kernel parameters */
	SNAPSHOT_REDACT_GRUB = 1 << 1,	  /* GRUB script */
	SNAPSHOT_REDACT_VALUE = 1 << 2,	  /* all of it: a module parameter that is a secret */
	SNAPSHOT_REDACT_SHELL = 1 << 3,	  /* kernel parameters in a shell script's strings */
};
/* Which readers the file rel (root-relative) goes through; 0: none. */
unsigned snapshot_redactors(const char *rel);
/*
 * in (n bytes) with its secrets replaced by REDACTED: *ret (malloc'd, *ret_size bytes) and
 * the number of secrets (> 0), or 0 when there is none (*ret NULL), or -ENOMEM. Each one is
 * a line "redacted REL:LINE: what" on notes (NULL: none).
 */
int snapshot_redact(unsigned readers, const char *rel, const char *in, size_t n, char **ret,
		    size_t *ret_size, FILE *notes);
/* A kernel parameter (or shell variable) whose value is a password, by its name. */
bool snapshot_secret_key(const char *key);

/* snapshot-out.c: where -o PATH writes (see there) */
enum snapshot_out {
	SNAPSHOT_OUT_REPLACE, /* a regular file or a new name: a temporary file renamed over it */
	SNAPSHOT_OUT_STREAM,  /* a FIFO or character device: written into */
};
/* What PATH is; -EINVAL (logged) for what is refused. */
int snapshot_out_kind(const char *path, enum snapshot_out *ret);
/* PATH opened for a stream: the fd, or negative errno (logged). */
int snapshot_out_stream(const char *path);
/* "PATH.tmp-XXXXXX" created: the fd and its name, or negative errno (logged). */
int snapshot_out_temp(const char *path, char **ret_tmp);
/* The temporary file made whole and renamed over path when r >= 0, else removed. */
int snapshot_out_finish(const char *path, const char *tmp, int fd, int r);

/* snapshot-tar.c: the members, written with libarchive (pax, zstd or else gzip). */
/* libarchive loaded (dlopen(), archive-dlopen.h), before any other call: 0 or -EOPNOTSUPP */
int snapshot_tar_load(void);
bool snapshot_tar_has_zstd(void);
int snapshot_tar_open(struct snapshot *s, int fd, bool zstd);
int snapshot_tar_close(struct snapshot *s);
int snapshot_tar_dir(struct snapshot *s, const char *rel, mode_t mode, time_t mtime);
int snapshot_tar_link(struct snapshot *s, const char *rel, const char *target, time_t mtime);
int snapshot_tar_file(struct snapshot *s, const char *rel, mode_t mode, time_t mtime,
		      const void *data, size_t size);
int snapshot_tar_node(struct snapshot *s, const char *rel, const struct stat *st);
