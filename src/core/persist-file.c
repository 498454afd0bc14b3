// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/persist-file.h"
#include "core/record.h"

#define STORE_SHOWN "/var/lib/hostprep/originals"

/* ---- the file as it is now --------------------------------------------- */

void pfile_now_done(struct pfile_now *f)
{
	free(f->data);
	*f = (struct pfile_now){};
}

int pfile_now_read(const struct pfile_desc *d, const struct sysroot *root, struct pfile_now *ret)
{
	_cleanup_(closep) int fd = -1;
	struct stat st;
	int r;

	*ret = (struct pfile_now){};
	/* O_NOFOLLOW: a symlink there is ELOOP, not the file it points to */
	fd = sysroot_openat(root, d->top, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, "%s",
			    d->rel);
	if (fd == -ENOENT)
		return 0;
	if (fd == -ELOOP)
		return -EINVAL;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	r = read_full_fd(fd, PFILE_MAX, &ret->data, &ret->size);
	if (r < 0)
		return r;
	ret->exists = true;
	ret->mode = st.st_mode & 07777;
	return 0;
}

bool pfile_now_is(const struct pfile_now *f, const void *data, size_t size)
{
	return f->exists && f->size == size && memcmp(f->data, data, size) == 0;
}

static bool file_is(const struct pfile_now *f, size_t size, uint32_t crc)
{
	return f->exists && f->size == size && record_crc32(f->data, f->size) == crc;
}

/* The file's name in its directory below /etc ("hostprep.conf"). */
static const char *file_name(const struct pfile_desc *d)
{
	const char *slash = strrchr(d->rel, '/');

	return slash ? slash + 1 : d->rel;
}

/* Its directory (O_RDONLY: for its fsync), made first when make is set. */
static int open_dir(const struct pfile_desc *d, const struct sysroot *root, bool make)
{
	int n = (int)(file_name(d) - d->rel);

	if (make)
		return sysroot_mkdirs(root, d->top, 0755, "%.*s", n, d->rel);
	return sysroot_openat(root, d->top, O_RDONLY | O_DIRECTORY, "%.*s", n, d->rel);
}

/* The name is ours and nothing reads it, but it must not pile up: remove ours, nothing else. */
void pfile_remove_stale_temps(const struct pfile_desc *d, const struct sysroot *root)
{
	_cleanup_(closedirp) DIR *dir = NULL;
	char prefix[64];
	struct dirent *e;

	snprintf(prefix, sizeof(prefix), "%s.tmp-", file_name(d));
	if (sysroot_opendir(root, d->top, &dir, "%.*s", (int)(file_name(d) - d->rel), d->rel) < 0)
		return;
	while ((e = readdir(dir)))
		if (strneq(e->d_name, prefix, strlen(prefix)) &&
		    strlen(e->d_name) == strlen(prefix) + 6 &&
		    unlinkat(dirfd(dir), e->d_name, 0) < 0)
			log_warning_errno(errno, "Failed to remove %s.tmp-..., ignoring: %m",
					  d->shown);
}

/* ---- the persistent record, as one file sees it ------------------------ */

struct pfile_rec {
	const struct pfile_desc *d;
	struct record rec;
	bool *ours; /* per line: a valid file/wrote line of this file */
	size_t n_bad;
	size_t first_bad;
	bool have_orig, orig_absent;
	size_t orig_size;
	uint32_t orig_crc;
	unsigned orig_mode;
	size_t n_wrote;
	size_t *wrote_size;
	uint32_t *wrote_crc;
};

static void pfile_rec_done(struct pfile_rec *p)
{
	record_done(&p->rec);
	free(p->ours);
	free(p->wrote_size);
	free(p->wrote_crc);
	*p = (struct pfile_rec){};
}

static int format_orig(const struct pfile_desc *d, char *buf, size_t size, bool absent, size_t n,
		       uint32_t crc, unsigned mode)
{
	if (absent)
		return snprintf(buf, size, "file %s absent", d->shown);
	return snprintf(buf, size, "file %s bytes %zu %08" PRIx32 " %04o", d->shown, n, crc, mode);
}

static int format_wrote(const struct pfile_desc *d, char *buf, size_t size, size_t n, uint32_t crc)
{
	return snprintf(buf, size, "wrote %s %zu %08" PRIx32, d->shown, n, crc);
}

/* The fields after "<kind> <our path> ", or NULL when the line names another file. */
static const char *after_path(const struct pfile_desc *d, const char *body, const char *kind)
{
	size_t k = strlen(kind), n = strlen(d->shown);

	if (!strneq(body, kind, k) || body[k] != ' ' || !strneq(body + k + 1, d->shown, n) ||
	    body[k + 1 + n] != ' ')
		return NULL;
	return body + k + 1 + n + 1;
}

/* Parsed by scanning, accepted only when our own formatting gives the same bytes back. */
static bool parse_orig(struct pfile_rec *p, const char *body)
{
	const char *rest = after_path(p->d, body, "file");
	char again[RECORD_LINE_MAX + 1];
	size_t n;
	uint32_t crc;
	unsigned mode;

	format_orig(p->d, again, sizeof(again), true, 0, 0, 0);
	if (streq(body, again)) {
		p->have_orig = p->orig_absent = true;
		return true;
	}
	if (!rest || sscanf(rest, "bytes %zu %8" SCNx32 " %4o", &n, &crc, &mode) != 3)
		return false;
	format_orig(p->d, again, sizeof(again), false, n, crc, mode);
	if (!streq(body, again) || n > PFILE_MAX || (mode & ~07777u))
		return false;
	p->have_orig = true;
	p->orig_size = n;
	p->orig_crc = crc;
	p->orig_mode = mode;
	return true;
}

static int parse_wrote(struct pfile_rec *p, const char *body)
{
	const char *rest = after_path(p->d, body, "wrote");
	char again[RECORD_LINE_MAX + 1];
	size_t n, *sz;
	uint32_t crc, *c;

	if (!rest || sscanf(rest, "%zu %8" SCNx32, &n, &crc) != 2)
		return 0;
	format_wrote(p->d, again, sizeof(again), n, crc);
	if (!streq(body, again))
		return 0;
	sz = reallocarray(p->wrote_size, p->n_wrote + 1, sizeof(*sz));
	if (!sz)
		return -ENOMEM;
	p->wrote_size = sz;
	c = reallocarray(p->wrote_crc, p->n_wrote + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	p->wrote_crc = c;
	sz[p->n_wrote] = n;
	c[p->n_wrote++] = crc;
	return 1;
}

static bool about_file(const struct record_line *l)
{
	return l->body && (record_line_is(l, "file") || record_line_is(l, "wrote"));
}

/* An intact file/wrote line that names another hostprep-owned file: that file's. */
static const char *const file_tops[] = { "/etc/", "/boot/", "/efi/" };

static bool names_a_file(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(file_tops); i++)
		if (strneq(name, file_tops[i], strlen(file_tops[i])))
			return true;
	return false;
}

static bool about_other_file(const struct pfile_desc *d, const struct record_line *l)
{
	char name[RECORD_LINE_MAX + 1];

	if (!about_file(l) || sscanf(l->body, "%*s %1024s", name) != 1)
		return false;
	return names_a_file(name) && !streq(name, d->shown);
}

/* A line that failed the integrity check may be any file's, unless it names another one. */
static bool damaged_may_be_ours(const struct pfile_desc *d, const struct record_line *l)
{
	if (memmem(l->bytes, l->len, d->shown, strlen(d->shown)))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(file_tops); i++)
		if (memmem(l->bytes, l->len, file_tops[i], strlen(file_tops[i])))
			return false;
	return true;
}

static void note_bad(struct pfile_rec *p, size_t i)
{
	if (p->n_bad++ == 0)
		p->first_bad = i;
}

/* Another kind's or file's intact line is its owner's; a damaged or unsigned one may be ours. */
static int classify(struct pfile_rec *p, size_t i)
{
	const struct record_line *l = &p->rec.lines[i];
	int r;

	if (l->state != RECORD_LINE_INTACT) {
		if (damaged_may_be_ours(p->d, l))
			note_bad(p, i);
		return 0;
	}
	if (!about_file(l) || about_other_file(p->d, l))
		return 0;
	if (record_line_is(l, "file") && !p->have_orig && parse_orig(p, l->body)) {
		p->ours[i] = true;
		return 0;
	}
	r = record_line_is(l, "wrote") ? parse_wrote(p, l->body) : 0;
	if (r < 0)
		return r;
	if (r > 0)
		p->ours[i] = true;
	else
		note_bad(p, i); /* a second original or a malformed line: trust neither */
	return 0;
}

static int pfile_rec_load(const struct pfile_desc *d, const struct sysroot *root,
			  struct pfile_rec *p)
{
	int r;

	p->d = d;
	r = record_load_store(root, RECORD_STORE_PERSIST, &p->rec);
	if (r < 0)
		return r;
	if (p->rec.too_large)
		return -EFBIG;
	p->ours = calloc(p->rec.n + 1, sizeof(bool));
	if (!p->ours)
		return -ENOMEM;
	for (size_t i = 0; i < p->rec.n; i++) {
		r = classify(p, i);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool is_original(const struct pfile_rec *p, const struct pfile_now *f)
{
	if (!p->have_orig)
		return false;
	return p->orig_absent ? !f->exists : file_is(f, p->orig_size, p->orig_crc);
}

static bool is_ours(const struct pfile_rec *p, const struct pfile_now *f)
{
	for (size_t i = 0; i < p->n_wrote; i++)
		if (file_is(f, p->wrote_size[i], p->wrote_crc[i]))
			return true;
	return false;
}

static char *bad_line_text(const struct pfile_rec *p, size_t i)
{
	const struct record_line *l = &p->rec.lines[i];
	_cleanup_(freep) char *text = record_line_escape(l, 120);
	char *s = NULL;

	if (!text)
		return NULL;
	if (l->why)
		return asprintf(&s, "line %u of " STORE_SHOWN " (%s): '%s'", l->no, l->why, text) <
				       0
			       ? NULL
			       : s;
	return asprintf(&s, "line %u of " STORE_SHOWN " (not a valid line about %s): '%s'", l->no,
			p->d->shown, text) < 0
		       ? NULL
		       : s;
}

/* ---- write ------------------------------------------------------------- */

static const char *const cut_remedy =
	"look at " STORE_SHOWN ": put back by hand the files hostprep wrote whose lines are "
	"lost, then remove it";

static int write_fail(const struct pfile_desc *d, struct results *rs, const char *expected,
		      const char *remedy, const char *fmt, const char *arg)
{
	_cleanup_(freep) char *actual = NULL;

	if (asprintf(&actual, fmt, arg) < 0)
		return -ENOMEM;
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_FAIL,
				       .check = d->check,
				       .object = d->shown,
				       .expected = expected,
				       .actual = actual,
				       .remedy = remedy,
				       .action = ACTION_INSPECT,
			       });
}

static int record_original(struct pfile_rec *p, const struct sysroot *root,
			   const struct pfile_now *now)
{
	char body[RECORD_LINE_MAX];
	uint32_t crc = 0;
	int r;

	if (now->exists) {
		r = record_backup_save(root, now->data, now->size, &crc);
		if (r < 0)
			return r;
	}
	format_orig(p->d, body, sizeof(body), !now->exists, now->size, crc, now->mode);
	return record_append(&p->rec, body);
}

/* Older "wrote" lines no longer describe the file: drop them (a failure only leaves more). */
static void drop_old_wrote(struct pfile_rec *p, size_t keep)
{
	_cleanup_(freep) bool *drop = calloc(p->rec.n + 1, sizeof(bool));
	int r;

	if (!drop)
		return;
	for (size_t i = 0; i < p->rec.n; i++)
		drop[i] = i != keep && p->ours[i] && record_line_is(&p->rec.lines[i], "wrote");
	r = record_rewrite(&p->rec, drop);
	if (r < 0)
		log_warning_errno(r, "Failed to drop old lines from " STORE_SHOWN ", ignoring: %m");
}

static int write_and_read_back(const struct pfile_desc *d, const struct sysroot *root,
			       const void *want, size_t size, mode_t mode)
{
	_cleanup_(pfile_now_done) struct pfile_now back = {};
	_cleanup_(closep) int dfd = open_dir(d, root, true);
	int r = dfd;

	if (r >= 0)
		r = write_file_atomic_at(dfd, file_name(d), want, size, mode, WRITE_DURABLE);
	if (r >= 0)
		r = pfile_now_read(d, root, &back);
	if (r >= 0 && !pfile_now_is(&back, want, size))
		r = -EIO;
	return r;
}

/* One more line, p->ours kept as long as the record (the new line is not a file line). */
static int rec_append(struct pfile_rec *p, const char *body)
{
	bool *ours = reallocarray(p->ours, p->rec.n + 2, sizeof(bool));

	if (!ours)
		return -ENOMEM;
	p->ours = ours;
	ours[p->rec.n] = ours[p->rec.n + 1] = false;
	return record_append(&p->rec, body);
}

/* Folder n of d's path (the first n bytes of d->rel) ends there: it is one of its folders. */
static bool dir_end(const struct pfile_desc *d, int n)
{
	return n > 0 && n < (int)(file_name(d) - d->rel) && d->rel[n] == '/';
}

/* "dir /etc/kernel made": the first n bytes of d->rel, a folder hostprep made for d. */
static void format_dir(const struct pfile_desc *d, char *buf, size_t size, int n)
{
	int top = (int)(strlen(d->shown) - strlen(d->rel));

	snprintf(buf, size, "dir %.*s%.*s made", top, d->shown, n, d->rel);
}

static bool rec_has(const struct pfile_rec *p, const char *body)
{
	for (size_t i = 0; i < p->rec.n; i++)
		if (p->rec.lines[i].state == RECORD_LINE_INTACT &&
		    streq(p->rec.lines[i].body, body))
			return true;
	return false;
}

/*
 * Each folder of the file's path that is missing, recorded before the write makes it, so
 * that revert removes what hostprep made, once empty, and never a folder that was there.
 */
static int record_made_dirs(struct pfile_rec *p, const struct sysroot *root)
{
	const struct pfile_desc *d = p->d;
	char body[RECORD_LINE_MAX];
	struct stat st;

	for (int n = 1; n < (int)(file_name(d) - d->rel); n++) {
		int r;

		if (!dir_end(d, n))
			continue;
		r = sysroot_stat(root, d->top, 0, &st, "%.*s", n, d->rel);
		if (r != -ENOENT)
			continue;
		format_dir(d, body, sizeof(body), n);
		if (rec_has(p, body))
			continue;
		r = rec_append(p, body);
		if (r < 0)
			return r;
	}
	return 0;
}

static int do_write(struct pfile_rec *p, const struct sysroot *root, const struct pfile_now *now,
		    const void *want, size_t size, const char *expected, struct results *rs)
{
	char body[RECORD_LINE_MAX];
	size_t keep;
	int r;

	if (!p->have_orig) {
		r = record_original(p, root, now);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return write_fail(p->d, rs, expected, NULL,
					  "not written: cannot record the original: %s",
					  r == -EFBIG ? "record full (past the size revert reads)"
						      : strerror(-r));
	}
	r = record_made_dirs(p, root);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return write_fail(p->d, rs, expected, NULL,
				  "not written: cannot record the folders it needs: %s",
				  strerror(-r));
	format_wrote(p->d, body, sizeof(body), size, record_crc32(want, size));
	keep = p->rec.n;
	r = rec_append(p, body);
	if (r >= 0)
		r = write_and_read_back(p->d, root, want, size,
					now->exists && p->d->keep_mode ? now->mode : 0644);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return write_fail(p->d, rs, expected,
				  "see the error above; the original is recorded: hostprep revert",
				  "write failed: %s",
				  r == -EIO ? "read back differs" : strerror(-r));
	drop_old_wrote(p, keep);
	return 1;
}

static int decide(struct pfile_rec *p, const struct sysroot *root, const struct pfile_now *now,
		  const void *want, size_t size, const char *expected, struct results *rs)
{
	const struct pfile_desc *d = p->d;
	_cleanup_(freep) char *bad = NULL, *remedy = NULL;

	if (p->rec.whole == RECORD_CUT)
		return write_fail(d, rs, expected, cut_remedy,
				  "not written: the originals record is cut (%s): a lost line may "
				  "hold the original",
				  p->rec.cut_why);
	if (p->n_bad) {
		bad = bad_line_text(p, p->first_bad);
		if (!bad)
			return -ENOMEM;
		return write_fail(d, rs, expected,
				  "look at " STORE_SHOWN ": restore by hand what the line names, "
				  "then delete the line (and line 1, the header that counts the "
				  "lines)",
				  "not written: the originals record may hold the original in a "
				  "damaged line: %s",
				  bad);
	}
	if (p->n_wrote && !p->have_orig) {
		if (asprintf(&remedy,
			     "delete the wrote lines of " STORE_SHOWN " (and line 1, the header "
			     "that counts the lines) once %s is as it was, then hostprep apply",
			     d->shown) < 0)
			return -ENOMEM;
		return write_fail(d, rs, expected, remedy,
				  "not written: %s names what hostprep wrote but not the original",
				  STORE_SHOWN);
	}
	if (p->have_orig && !is_original(p, now) && !is_ours(p, now))
		return write_fail(d, rs, expected, d->changed_remedy, "not written: %s",
				  "changed since hostprep wrote it");
	return do_write(p, root, now, want, size, expected, rs);
}

int pfile_write(const struct pfile_desc *d, const struct sysroot *root, const struct pfile_now *now,
		const void *want, size_t size, const char *expected, struct results *rs)
{
	_cleanup_(pfile_rec_done) struct pfile_rec p = {};
	int r;

	r = pfile_rec_load(d, root, &p);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return write_fail(d, rs, expected, NULL,
				  "not written: cannot read the originals record: %s",
				  strerror(-r));
	return decide(&p, root, now, want, size, expected, rs);
}

/* ---- revert ------------------------------------------------------------ */

static int revert_fail(const struct pfile_desc *d, struct results *rs, const char *object,
		       const char *remedy, const char *fmt, const char *arg)
{
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = d->revert_check,
				    .object = object,
				    .expected = "as before hostprep",
				    .remedy = remedy,
				    .action = ACTION_INSPECT,
			    },
			    fmt, arg);
}

static int restore_bytes(const struct pfile_rec *p, const struct sysroot *root, struct results *rs)
{
	const struct pfile_desc *d = p->d;
	_cleanup_(freep) char *data = NULL;
	_cleanup_(pfile_now_done) struct pfile_now back = {};
	_cleanup_(closep) int dfd = -1;
	char name[64];
	int r;

	record_backup_name(p->orig_crc, name);
	r = record_backup_load(root, p->orig_crc, p->orig_size, &data);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(
			d, rs, d->shown,
			"put the original back by hand if you have it, then delete the "
			"file lines of " STORE_SHOWN " (and line 1, the header that counts the "
			"lines)",
			"not restored: the backup %s is damaged or missing (size or crc32 "
			"differ from the record); hostprep's file left in place",
			name);
	r = dfd = open_dir(d, root, false);
	if (r >= 0)
		r = write_file_atomic_at(dfd, file_name(d), data, p->orig_size, p->orig_mode,
					 WRITE_DURABLE);
	if (r >= 0)
		r = pfile_now_read(d, root, &back);
	if (r >= 0 && !file_is(&back, p->orig_size, p->orig_crc))
		r = -EIO;
	if (r < 0)
		return r == -ENOMEM ? r
				    : revert_fail(d, rs, d->shown, NULL,
						  "not restored: write failed: %s", strerror(-r));
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = d->revert_check,
				    .object = d->shown,
				    .expected = "as before hostprep",
			    },
			    "restored the original %zu bytes, read back", p->orig_size);
}

static int remove_file(const struct pfile_desc *d, const struct sysroot *root, struct results *rs)
{
	_cleanup_(closep) int dfd = open_dir(d, root, false);
	int r = dfd;

	if (r >= 0 && unlinkat(dfd, file_name(d), 0) < 0)
		r = -errno;
	else if (r >= 0 && fsync(dfd) < 0)
		r = -errno;
	if (r < 0)
		return revert_fail(d, rs, d->shown, NULL, "not removed: %s", strerror(-r));
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_PASS,
				       .check = d->revert_check,
				       .object = d->shown,
				       .expected = "as before hostprep",
				       .actual = "removed (there was no such file before hostprep)",
			       });
}

/* Returns 1 when the file is as before hostprep (its record lines can go). */
static int revert_file(const struct pfile_rec *p, const struct sysroot *root, struct results *rs)
{
	const struct pfile_desc *d = p->d;
	_cleanup_(pfile_now_done) struct pfile_now now = {};
	size_t before = rs->n;
	int r;

	r = pfile_now_read(d, root, &now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(d, rs, d->shown, NULL, "not restored: cannot read it: %s",
				   strerror(-r));
	if (!now.exists && !p->orig_absent)
		/*
		 * A file hostprep only edited, removed since by someone else (a boot entry
		 * goes with its kernel): putting it back would undo that removal, and revert
		 * never overwrites what others did. Nothing of hostprep's is left in it.
		 */
		r = results_add(rs,
				&(const struct result_spec){
					.verdict = VERDICT_PASS,
					.check = d->revert_check,
					.object = d->shown,
					.expected = "as before hostprep",
					.actual = "gone: removed since hostprep edited it; "
						  "nothing to restore, the original not put back",
				});
	else if (is_original(p, &now))
		r = results_add(rs, &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = d->revert_check,
					    .object = d->shown,
					    .expected = "as before hostprep",
					    .actual = p->orig_absent ? "absent already"
								     : "the original already",
				    });
	else if (!is_ours(p, &now))
		r = revert_fail(d, rs, d->shown, d->changed_remedy, "not restored: %s",
				"changed since hostprep wrote it; left as it is");
	else
		r = p->orig_absent ? remove_file(d, root, rs) : restore_bytes(p, root, rs);
	if (r < 0)
		return r;
	return rs->n > before && rs->items[rs->n - 1].verdict == VERDICT_PASS;
}

static int revert_report_bad(const struct pfile_rec *p, struct results *rs)
{
	for (size_t i = 0; i < p->rec.n; i++) {
		_cleanup_(freep) char *text = NULL;
		const struct record_line *l = &p->rec.lines[i];
		int r;

		if (p->ours[i])
			continue;
		if (l->state == RECORD_LINE_INTACT ? !about_file(l) || about_other_file(p->d, l)
						   : !damaged_may_be_ours(p->d, l))
			continue;
		text = bad_line_text(p, i);
		if (!text)
			return -ENOMEM;
		r = revert_fail(p->d, rs, "record",
				"restore by hand what the line names, then delete the line (and "
				"line 1, the header that counts the lines)",
				"%s; kept byte-exact, never used", text);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Another file's line may name the same backup (same bytes): keep it for that one. */
static bool backup_still_named(const struct pfile_rec *p, const bool *drop)
{
	char crc[16];

	snprintf(crc, sizeof(crc), " %08" PRIx32 " ", p->orig_crc);
	for (size_t i = 0; i < p->rec.n; i++)
		if (!drop[i] &&
		    memmem(p->rec.lines[i].bytes, p->rec.lines[i].len, crc, strlen(crc)))
			return true;
	return false;
}

/* A "dir PATH made" line of a folder on d's path: the length of PATH below top, else 0. */
static int made_dir_of(const struct pfile_desc *d, const struct record_line *l)
{
	char want[RECORD_LINE_MAX];

	if (l->state != RECORD_LINE_INTACT || !record_line_is(l, "dir"))
		return 0;
	for (int n = 1; n < (int)(file_name(d) - d->rel); n++) {
		if (!dir_end(d, n))
			continue;
		format_dir(d, want, sizeof(want), n);
		if (streq(l->body, want))
			return n;
	}
	return 0;
}

/*
 * The folder hostprep made for the file, now the file is gone: removed when empty. One
 * that holds something else is the admin's now: kept, and its line goes all the same.
 */
static void remove_made_dir(const struct pfile_desc *d, const struct sysroot *root, int n)
{
	const char *slash = memrchr(d->rel, '/', n);
	int k = slash ? (int)(slash - d->rel) : 0;
	_cleanup_(freep) char *name = strndup(slash ? slash + 1 : d->rel, n - (slash ? k + 1 : 0));
	_cleanup_(closep) int dfd = -1;

	if (!name)
		return;
	dfd = sysroot_openat(root, d->top, O_RDONLY | O_DIRECTORY, "%.*s", k ? k : 1,
			     k ? d->rel : ".");
	if (dfd < 0)
		return;
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && errno != ENOTEMPTY &&
	    errno != EEXIST)
		log_warning_errno(errno, "Failed to remove the folder made for %s, ignoring: %m",
				  d->shown);
}

/* Deepest first: the lines were appended from the top down. */
static void revert_made_dirs(struct pfile_rec *p, const struct sysroot *root, bool *drop)
{
	for (size_t i = p->rec.n; i-- > 0;) {
		int n = made_dir_of(p->d, &p->rec.lines[i]);

		if (n == 0)
			continue;
		remove_made_dir(p->d, root, n);
		drop[i] = true;
	}
}

static int revert_done(struct pfile_rec *p, const struct sysroot *root)
{
	_cleanup_(freep) bool *drop = calloc(p->rec.n + 1, sizeof(bool));
	bool keep_backup;
	int r;

	if (!drop)
		return -ENOMEM;
	for (size_t i = 0; i < p->rec.n; i++)
		drop[i] = p->ours[i];
	if (p->orig_absent)
		revert_made_dirs(p, root, drop);
	keep_backup = backup_still_named(p, drop);
	r = record_rewrite(&p->rec, drop);
	if (r < 0)
		return log_error_errno(r, "Failed to update " STORE_SHOWN ": %m");
	if (p->have_orig && !p->orig_absent && !keep_backup)
		(void)record_backup_remove(root, p->orig_crc);
	return 0;
}

int pfile_revert(const struct pfile_desc *d, const struct sysroot *root, struct results *rs)
{
	_cleanup_(pfile_rec_done) struct pfile_rec p = {};
	int r;

	pfile_remove_stale_temps(d, root);
	r = pfile_rec_load(d, root, &p);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return revert_fail(d, rs, "record", NULL,
				   "cannot read " STORE_SHOWN ": %s; nothing restored",
				   strerror(-r));
	r = revert_report_bad(&p, rs);
	if (r >= 0 && p.rec.whole == RECORD_CUT)
		r = revert_fail(d, rs, "record", cut_remedy,
				"the record is cut (%s): what lost lines held is unknown; the "
				"file kept as it is",
				p.rec.cut_why);
	if (r < 0)
		return r;
	if (!p.have_orig) {
		if (p.n_wrote)
			return revert_fail(d, rs, d->shown, NULL,
					   "not restored: %s names what hostprep wrote but not "
					   "the original",
					   STORE_SHOWN);
		/* nothing recorded about the file: what a killed run may have left goes */
		r = record_remove_if_empty(&p.rec);
		if (r >= 0)
			r = record_backups_prune(root, &p.rec);
		if (r < 0)
			log_warning_errno(r, "Failed to clean up " STORE_SHOWN ", ignoring: %m");
		return 0;
	}
	r = revert_file(&p, root, rs);
	if (r <= 0 || p.rec.whole == RECORD_CUT)
		return r < 0 ? r : 0;
	return revert_done(&p, root);
}

/* An intact "file PATH ..." line below dir: PATH. */
static int recorded_name(const struct record_line *l, const char *dir, char **ret)
{
	char name[RECORD_LINE_MAX + 1];

	*ret = NULL;
	if (l->state != RECORD_LINE_INTACT || !l->body || !record_line_is(l, "file") ||
	    sscanf(l->body, "file %1024s", name) != 1 || !strneq(name, dir, strlen(dir)))
		return 0;
	*ret = strdup(name);
	return *ret ? 1 : -ENOMEM;
}

int pfile_recorded_under(const struct sysroot *root, const char *dir, char ***ret)
{
	_cleanup_(record_done) struct record rec = {};
	char **v;
	size_t n = 0;
	int r = record_load_store(root, RECORD_STORE_PERSIST, &rec);

	if (r < 0)
		return r;
	v = calloc(rec.n + 1, sizeof(char *));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rec.n && r >= 0; i++) {
		r = recorded_name(&rec.lines[i], dir, &v[n]);
		n += r > 0;
	}
	if (r < 0) {
		strv_free(v);
		return r;
	}
	*ret = v;
	return 0;
}
