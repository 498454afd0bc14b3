/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"
#include "core/sysroot.h"

/*
 * The originals records: what hostprep must put back. Two stores with the
 * same format and the same run lock:
 *
 *	<root>/run/hostprep/acs-originals	hardware state (ACS), which a reboot
 *						resets: the record goes with it
 *	<root>/var/lib/hostprep/originals	files (the modprobe.d file), which
 *						survive a reboot: so does their record
 *
 * A header, then one line per original, each sealed:
 *
 *	hostprep-record 2 lines <N> crc32:<8 lowercase hex digits>
 *	<kind> <fields...> crc32:<8 lowercase hex digits>
 *
 * the checksum (zlib crc32) covering every byte before " crc32:". The seal of a
 * line proves its bytes; the header's count proves that no line is missing: a
 * file cut at a line boundary is a valid shorter record but for the count. So
 * every change rewrites the whole file (temp, fsync, rename, fsync of the
 * directory): a kill at any point leaves the old record or the new one, never
 * a count that does not match (an in-place append could not update the count
 * in the same step). A file without a header is an earlier hostprep's record:
 * read as before (its end cannot be checked), rewritten with a header by the
 * next change.
 *
 * This module owns the file: the run lock, loading (by length: a NUL is just a
 * byte), the integrity checks, durable rewrites. Each kind's owner parses and
 * validates its own fields ("acs": apply.c). A line that fails the integrity
 * check is never used and never dropped: every rewrite keeps it byte-exact. A
 * record that is not whole (cut) is never rewritten: its intact lines may be
 * used, nothing is added or removed.
 */
#define RECORD_MAX_SIZE (1024 * 1024) /* larger: not read, not touched */
#define RECORD_LINE_MAX 1024

enum record_state {
	RECORD_LINE_INTACT,   /* allowed bytes and a matching checksum */
	RECORD_LINE_UNSIGNED, /* allowed bytes, no checksum: hostprep 0.1.0 or by hand */
	RECORD_LINE_BAD,      /* a byte not allowed, a wrong checksum, too long, torn */
};

/* Why a last line without its '\n' is bad: hostprep always writes whole lines. */
#define RECORD_TORN "torn (cut mid-line, e.g. a crash or a full disk)"

struct record_line {
	char *bytes;  /* as read, without the '\n'; NUL-terminated, but may hold NULs */
	size_t len;   /* bytes in the line */
	bool newline; /* ended with '\n' (false only for a torn last line) */
	unsigned no;  /* 1-based line number in the file */
	enum record_state state;
	char *body;	 /* intact: the line before " crc32:"; unsigned: the line; bad: NULL */
	const char *why; /* bad: what is wrong */
};

enum record_whole {
	RECORD_WHOLE, /* the header's count matches the lines (or no file) */
	RECORD_OLD,   /* no header: an earlier hostprep's record, its end not checkable */
	RECORD_CUT,   /* lines are missing or the last is torn: never rewritten */
};

enum record_store {
	RECORD_STORE_RUN,     /* /run/hostprep/acs-originals */
	RECORD_STORE_PERSIST, /* /var/lib/hostprep/originals */
};

struct record {
	char *path; /* for messages */
	const struct sysroot *root;
	enum record_store store;
	struct record_line *lines; /* the lines after the header */
	size_t n;
	uint64_t size;	/* bytes in the file when loaded */
	bool too_large; /* size > RECORD_MAX_SIZE: not read; must be left untouched */
	bool header;	/* the file starts with an intact header */
	enum record_whole whole;
	char cut_why[96]; /* RECORD_CUT: what shows it ("its header counts 12 lines, 9 are there")
			   */
};

/*
 * The run lock (<root>/run/hostprep/lock): every run that writes takes it
 * before it reads what it decides on and holds it to the end (its publish
 * included), so two runs never interleave. Blocks until it is free. Taking it
 * raises the lock's generation, a counter in the file.
 */
int record_lock(const struct sysroot *root, int *ret_fd);
/*
 * The same lock shared, without waiting (a run that only reads and publishes its
 * verdict): -EWOULDBLOCK, not logged, while a run that writes holds it. *ret_gen:
 * the generation now; another value later means a run that writes took the lock.
 */
int record_lock_shared(const struct sysroot *root, int *ret_fd, uint64_t *ret_gen);
/* The generation in the lock file open at fd (0 for an empty or damaged file). */
int record_lock_generation(int fd, uint64_t *ret);

/* Load a record (missing: empty). Needs the run lock. -ENOMEM, or -errno of a read. */
int record_load_store(const struct sysroot *root, enum record_store store, struct record *ret);
/*
 * The lines of a record's bytes into rec (path and size are the caller's), as loading
 * does; for callers that hold the bytes already (tests/fuzz). -ENOMEM.
 */
int record_parse(const char *data, size_t size, struct record *rec);
/* The run store (ACS). */
int record_load(const struct sysroot *root, struct record *ret);
void record_done(struct record *rec);

/* Is the line's body of this kind ("acs" for "acs 0000:15:01.0 ...")? */
bool record_line_is(const struct record_line *l, const char *kind);

/* "<body> crc32:xxxxxxxx" (malloc'd), NULL on ENOMEM. */
char *record_seal(const char *body);

/*
 * Add one sealed line and make it durable (the whole file rewritten with the new
 * count, atomically) before the change it protects. Also added to rec. -EFBIG when
 * the record was too large to read or would be with this line (past RECORD_MAX_SIZE,
 * where revert no longer reads it), -EUCLEAN for a record that is not whole.
 */
int record_append(struct record *rec, const char *body);
/* The bytes of the file once a line with this body is added. */
uint64_t record_size_with(const struct record *rec, size_t body_len);

/*
 * Rewrite the record without the lines where drop[i] is set; every other
 * line is written back byte for byte. Removes the file when nothing is left.
 * -EFBIG for a record that was too large to read, -EUCLEAN for one that is not
 * whole: neither is ever rewritten.
 */
int record_rewrite(struct record *rec, const bool *drop);

/*
 * A record without a single line (a run died, or the disk was full, between creating
 * the file and writing its first line) holds nothing: remove the file, so that a
 * complete revert leaves no record behind. Needs the run lock.
 */
int record_remove_if_empty(struct record *rec);

/* zlib crc32 of a buffer: the seal's checksum, and the name and check of a backup. */
uint32_t record_crc32(const void *data, size_t size);

/*
 * The bytes of a file hostprep replaces, kept in the persistent store as
 * <root>/var/lib/hostprep/files/<crc32 as 8 hex digits>.orig (atomic, durable before
 * return). A sealed line elsewhere names the crc32 and the size, so that a damaged or
 * missing backup is detected and never restored.
 */
int record_backup_save(const struct sysroot *root, const void *data, size_t size,
		       uint32_t *ret_crc);
/* The backup's bytes; -EBADMSG when its size or crc32 is not the recorded one. */
int record_backup_load(const struct sysroot *root, uint32_t crc, size_t size, char **ret);
/* Remove a backup once nothing refers to it (missing is fine). */
int record_backup_remove(const struct sysroot *root, uint32_t crc);
/* "/var/lib/hostprep/files/<crc>.orig" without the root, for messages (static buffer size 64). */
void record_backup_name(uint32_t crc, char buf[static 64]);

/*
 * With the persistent record empty (no line at all), no backup is referred to: remove
 * them. A run killed between saving a backup and recording its line, or between removing
 * the record's lines and the backup, leaves one. Needs the run lock; rec is the
 * persistent store as loaded under it.
 */
int record_backups_prune(const struct sysroot *root, const struct record *rec);

/* A line's bytes for a message: printable ASCII as is, others as \xNN; max bytes shown. */
char *record_line_escape(const struct record_line *l, size_t max);
