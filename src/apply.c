// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "apply.h"
#include "fileio.h"
#include "log.h"

#define STATE_DIR	   "hostprep"
#define RECORD_NAME	   "hostprep/acs-originals"
#define LOCK_NAME	   "hostprep/lock"
#define RECORD_MAX_ENTRIES 4096

#define DEVPATH_MAX 512

struct original {
	char addr[PCI_ADDR_LEN];
	unsigned off;
	uint16_t ctrl;
	char devpath[DEVPATH_MAX]; /* the device's sysfs directory; "" in older records */
};

struct record {
	struct original *v;
	size_t n;
	char **bad; /* lines we cannot parse: kept verbatim, never dropped */
	size_t n_bad;
};

static void record_done(struct record *r)
{
	free(r->v);
	for (size_t i = 0; i < r->n_bad; i++)
		free(r->bad[i]);
	free(r->bad);
	*r = (struct record){};
}

static int record_push(struct record *rec, const struct original *o)
{
	struct original *v = reallocarray(rec->v, rec->n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	rec->v = v;
	rec->v[rec->n++] = *o;
	return 0;
}

static int record_keep_bad(struct record *rec, const char *path, const char *line)
{
	char **v = reallocarray(rec->bad, rec->n_bad + 1, sizeof(char *));

	if (!v)
		return -ENOMEM;
	rec->bad = v;
	rec->bad[rec->n_bad] = strdup(line);
	if (!rec->bad[rec->n_bad])
		return -ENOMEM;
	rec->n_bad++;
	log_warning("%s: cannot parse '%s', keeping it for the operator", path, line);
	return 0;
}

static int record_parse_line(const char *line, struct original *o)
{
	char addr[PCI_ADDR_LEN];
	unsigned off, ctrl;
	uint32_t dom;
	uint8_t b, d, f;

	int end = 0;

	if (sscanf(line, "acs %15s 0x%x 0x%x%n", addr, &off, &ctrl, &end) != 3 ||
	    pci_address_parse(addr, &dom, &b, &d, &f) < 0 || off < 0x100 || off > 0xffc ||
	    ctrl > 0xffff)
		return -EBADMSG;
	memcpy(o->addr, addr, sizeof(o->addr));
	o->off = off;
	o->ctrl = (uint16_t)ctrl;
	o->devpath[0] = '\0';
	if (line[end] == '\0')
		return 0;
	if (line[end] != ' ' || line[end + 1] != '/' || strlen(line + end + 1) >= DEVPATH_MAX ||
	    strchr(line + end + 1, ' '))
		return -EBADMSG;
	strcpy(o->devpath, line + end + 1);
	return 0;
}

/*
 * The device's sysfs directory as the kernel names it (sys/devices/pci0000:15/
 * 0000:15:01.0 below the root), shown without the root prefix. The address alone is not an
 * identity: after a hotplug another device can sit at the same address.
 */
static void device_path(const struct sysroot *root, const char *addr, char buf[static DEVPATH_MAX])
{
	_cleanup_(freep) char *link = sysroot_path(root, SYSROOT_SYS, "bus/pci/devices/%s", addr);
	_cleanup_(freep) char *real = link ? realpath(link, NULL) : NULL;
	const char *shown = real ? sysroot_strip(root, real) : "";

	buf[0] = '\0';
	if (strlen(shown) < DEVPATH_MAX && !strchr(shown, ' '))
		strcpy(buf, shown);
}

static int format_original(const struct original *o, char *buf, size_t size)
{
	return snprintf(buf, size, "acs %s 0x%03x 0x%04x%s%s\n", o->addr, o->off, o->ctrl,
			o->devpath[0] ? " " : "", o->devpath);
}

static int record_load(const struct sysroot *root, struct record *ret)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, RECORD_NAME);
	_cleanup_(freep) char *data = NULL;
	struct record rec = {};
	char *line, *save = NULL;
	int r;

	if (!path)
		return -ENOMEM;
	r = read_full_file(path, 1024 * 1024, &data, NULL);
	if (r == -ENOENT) {
		*ret = rec;
		return 0;
	}
	if (r < 0)
		return log_error_errno(r, "Failed to read %s: %m", path);
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct original o;

		if (rec.n < RECORD_MAX_ENTRIES && record_parse_line(line, &o) == 0)
			r = record_push(&rec, &o);
		else /* an original we cannot read is still an original: never drop it */
			r = record_keep_bad(&rec, path, line);
		if (r < 0) {
			record_done(&rec);
			return r;
		}
	}
	*ret = rec;
	return 0;
}

static bool record_has(const struct record *rec, const char *addr, unsigned off)
{
	for (size_t i = 0; i < rec->n; i++)
		if (streq(rec->v[i].addr, addr) && rec->v[i].off == off)
			return true;
	return false;
}

static bool torn_tail(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char c;

	return size > 0 && pread(fd, &c, 1, size - 1) == 1 && c != '\n';
}

/* Append one original and make it durable before the write it protects. */
static int record_append(const struct sysroot *root, const struct original *o)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, RECORD_NAME);
	_cleanup_(closep) int fd = -1;
	bool created;
	char line[DEVPATH_MAX + 64];
	int n;

	if (!path)
		return -ENOMEM;
	created = access(path, F_OK) < 0;
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	/* After a crash mid-append the last line is torn: start ours on a line of its own. */
	n = torn_tail(fd) ? snprintf(line, sizeof(line), "\n") : 0;
	n += format_original(o, line + n, sizeof(line) - n);
	if (write(fd, line, n) != n)
		return errno ? -errno : -EIO;
	if (fsync(fd) < 0)
		return -errno;
	return created ? fsync_parent_dir(path) : 0;
}

/* Serialise with a concurrent run (the boot unit and an admin's manual apply). */
static int lock_state(const struct sysroot *root, int *ret_fd)
{
	_cleanup_(freep) char *dir = sysroot_path(root, SYSROOT_RUN, STATE_DIR);
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, LOCK_NAME);
	int fd, r;

	if (!dir || !path)
		return -ENOMEM;
	r = mkdir_parents(dir, 0755);
	if (r < 0)
		return log_error_errno(r, "Failed to create %s: %m", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return log_error_errno(errno, "Failed to open %s: %m", path);
	if (flock(fd, LOCK_EX) < 0) {
		r = -errno;
		close(fd);
		return log_error_errno(r, "Failed to lock %s: %m", path);
	}
	*ret_fd = fd;
	return 0;
}

/* Writers hold the lock for the whole run, so the record cannot change under them. */
static int lock_and_load(const struct sysroot *root, int *lock, struct record *rec)
{
	int r = lock_state(root, lock);

	return r < 0 ? r : record_load(root, rec);
}

static const char *write_hint(const struct apply_env *env, int err)
{
	if (err != -EPERM)
		return "";
	if (env->lockdown && !streq(env->lockdown, "none"))
		return " (kernel lockdown refuses config-space writes)";
	return " (kernel lockdown or missing CAP_SYS_ADMIN?)";
}

static const char *lockdown_remedy(const struct apply_env *env)
{
	if (kernel_has_config_acs(env->osrelease))
		return "config space cannot be written at runtime here: put the policy on the "
		       "kernel command line (hostprep acs cmdline), or boot without lockdown";
	return "config space cannot be written at runtime here: boot without kernel lockdown "
	       "(it follows Secure Boot), or a 6.11+ kernel with pci=config_acs=";
}

/* Write one word and read it back; a result either way. */
static int write_checked(const struct apply_env *env, const char *check, const char *addr,
			 unsigned off, uint16_t old, uint16_t val, struct results *rs)
{
	char expected[16];
	uint16_t back;
	int r;

	snprintf(expected, sizeof(expected), "0x%04x", val);
	r = pcib_write16(env->pci, addr, off, val);
	if (r < 0)
		return results_addf(rs, VERDICT_FAIL, check, addr, expected, lockdown_remedy(env),
				    "write of 0x%04x at 0x%03x failed: %s%s; still 0x%04x", val,
				    off, strerror(-r), write_hint(env, r), old);
	r = pcib_read16(env->pci, addr, off, &back);
	if (r < 0)
		return results_addf(rs, VERDICT_FAIL, check, addr, expected, NULL,
				    "read-back after writing 0x%04x failed: %s", val, strerror(-r));
	if (back != val)
		return results_addf(rs, VERDICT_FAIL, check, addr, expected, lockdown_remedy(env),
				    "wrote 0x%04x, read back 0x%04x", val, back);
	return results_addf(rs, VERDICT_PASS, check, addr, expected, NULL,
			    "0x%04x -> 0x%04x, read back", old, back);
}

static int apply_one(const struct apply_env *env, const struct acs_action *a, struct record *rec,
		     struct results *rs)
{
	unsigned ctl = a->off + 6;
	uint16_t cur, want;
	int r;

	/* Re-read: the plan may be seconds old and the kernel may have moved. */
	r = pcib_read16(env->pci, a->addr, ctl, &cur);
	if (r < 0)
		return results_addf(rs, VERDICT_FAIL, "acs.write", a->addr, "readable", NULL,
				    "cannot read ACS Control: %s", strerror(-r));
	want = acs_ctrl_target(cur, a->cap, &a->target->mask);
	if (want == cur)
		return 0;
	if (!record_has(rec, a->addr, a->off)) {
		struct original o = { .off = a->off, .ctrl = cur };

		snprintf(o.addr, sizeof(o.addr), "%s", a->addr);
		device_path(env->root, a->addr, o.devpath);
		r = record_append(env->root, &o);
		if (r < 0)
			return results_addf(
				rs, VERDICT_FAIL, "acs.write", a->addr, "original recorded", NULL,
				"not written: cannot record the original: %s", strerror(-r));
	}
	return write_checked(env, "acs.write", a->addr, ctl, cur, want, rs);
}

int apply_acs(const struct apply_env *env, const struct plan *p, struct results *rs)
{
	_cleanup_(record_done) struct record rec = {};
	_cleanup_(closep) int lock = -1;
	int r;

	if (p->n_actions == 0)
		return 0;
	r = lock_and_load(env->root, &lock, &rec);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->n_actions; i++) {
		r = apply_one(env, &p->actions[i], &rec, rs);
		if (r < 0)
			return r;
	}
	return 0;
}

static int revert_one(const struct apply_env *env, const struct original *o, struct results *rs)
{
	char expected[16];
	uint16_t id, cur;
	int r;

	snprintf(expected, sizeof(expected), "0x%04x", o->ctrl);
	/* The address may now be another device (hotplug): only write to the one we wrote. */
	if (o->devpath[0]) {
		char now[DEVPATH_MAX];

		device_path(env->root, o->addr, now);
		if (!streq(now, o->devpath))
			return results_addf(rs, VERDICT_FAIL, "acs.revert", o->addr, expected, NULL,
					    "not restored: recorded device %s, now %s", o->devpath,
					    now[0] ? now : "none");
	}
	r = pcib_ext_cap_id_at(env->pci, o->addr, o->off, &id);
	if (r < 0 || id != PCI_EXT_CAP_ACS)
		return results_addf(rs, VERDICT_FAIL, "acs.revert", o->addr, expected, NULL,
				    "not restored: no ACS capability at 0x%03x any more (%s)",
				    o->off, r < 0 ? strerror(-r) : "other capability");
	r = pcib_read16(env->pci, o->addr, o->off + 6, &cur);
	if (r < 0)
		return results_addf(rs, VERDICT_FAIL, "acs.revert", o->addr, expected, NULL,
				    "cannot read ACS Control: %s", strerror(-r));
	if (cur == o->ctrl)
		return results_addf(rs, VERDICT_PASS, "acs.revert", o->addr, expected, NULL,
				    "0x%04x already", cur);
	return write_checked(env, "acs.revert", o->addr, o->off + 6, cur, o->ctrl, rs);
}

/* Keep only the entries whose revert failed, so a later revert can retry them. */
static int record_rewrite(const struct sysroot *root, const struct record *rec, const bool *done)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, RECORD_NAME);
	_cleanup_(freep) char *buf = NULL;
	size_t size = 0, n = 0;
	FILE *f;

	if (!path)
		return -ENOMEM;
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < rec->n; i++) {
		char line[DEVPATH_MAX + 64];

		if (done[i])
			continue;
		format_original(&rec->v[i], line, sizeof(line));
		fputs(line, f);
		n++;
	}
	for (size_t i = 0; i < rec->n_bad; i++, n++)
		fprintf(f, "%s\n", rec->bad[i]);
	if (fclose(f) != 0)
		return -ENOMEM;
	if (n == 0)
		return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
	return write_file_atomic(path, buf, size, 0600);
}

int revert_acs(const struct apply_env *env, struct results *rs)
{
	_cleanup_(record_done) struct record rec = {};
	_cleanup_(closep) int lock = -1;
	_cleanup_(freep) bool *done = NULL;
	int r;

	r = lock_and_load(env->root, &lock, &rec);
	if (r < 0)
		return r;
	done = calloc(rec.n + 1, sizeof(bool));
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < rec.n; i++) {
		size_t before = rs->n;

		r = revert_one(env, &rec.v[i], rs);
		if (r < 0)
			return r;
		done[i] = rs->n > before && rs->items[rs->n - 1].verdict == VERDICT_PASS;
	}
	for (size_t i = 0; i < rec.n_bad; i++) {
		r = results_addf(rs, VERDICT_FAIL, "acs.revert", "record", "acs ADDR 0xOFF 0xCTRL",
				 "restore it by hand (setpci) or delete the line",
				 "unreadable line kept in the originals record: '%s'", rec.bad[i]);
		if (r < 0)
			return r;
	}
	r = record_rewrite(env->root, &rec, done);
	if (r < 0)
		return log_error_errno(r, "Failed to update the originals record: %m");
	return 0;
}
