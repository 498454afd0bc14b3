// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep snapshot [-o FILE|-]`: what hostprep reads on this host (or below --root), in
 * one tar for a bug report, replayed by `hostprep --root DIR check` (snapshot.h).
 */
#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "core/fileio.h"
#include "core/log.h"
#include "run/run.h"
#include "report/report-header.h"
#include "snapshot/snapshot.h"

/*
 * Read by hostprep but not by a check pass (the last report: status; the module
 * configuration: libkmod, only when a [Module] rule asks) or read before any module
 * asks (the kernel's identity). Root-relative. Not the configuration: the files the
 * loader parsed are recorded one by one, and nothing else of /etc/hostprep is taken.
 * The entry systemd-boot booted (LoaderEntrySelected) is read only where acs.cmdline
 * judges the command line; a report of a host about to install has it too.
 */
static const char *const always[] = {
	"proc/cmdline",
	"proc/sys/kernel/osrelease",
	"proc/sys/kernel/hostname",
	"sys/bus/pci",
	"run/hostprep/report.json",
	"etc/modprobe.d",
	"run/modprobe.d",
	"usr/lib/modprobe.d",
	"usr/local/lib/modprobe.d",
	"lib/modprobe.d",
	"sys/firmware/efi/efivars/LoaderEntrySelected-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f",
};

/*
 * The check pass, recorded: every path its modules build below the root is queued.
 * Nothing is published. A configuration that does not load is no reason not to
 * capture the host: the files are captured all the same, and noted.
 */
static int record_check(const struct options *o, const struct sysroot *root, struct snapshot *s)
{
	_cleanup_(config_done) struct config cfg = {};
	struct run run;
	int r;

	sysroot_set_recorder(snapshot_record, s);
	sysroot_set_data_recorder(snapshot_record_data, s);
	r = load_config(o, root, 0, &cfg);
	if (r >= 0) {
		run_init(&run, o->modules, root, &cfg, RUN_CHECK, o->privileged);
		r = run_execute(&run);
		run_done(&run);
	}
	sysroot_set_recorder(NULL, NULL);
	sysroot_set_data_recorder(NULL, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		fprintf(s->notes, "check pass: %s (what it would read next is not recorded)\n",
			r == -EINVAL ? "the configuration is not valid" : strerror(-r));
	return 0;
}

static int want_always(const struct sysroot *root, struct snapshot *s)
{
	_cleanup_(freep) char *kver = NULL;
	_cleanup_(freep) char *mods = NULL;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(always); i++)
		r = snapshot_want(s, always[i]);
	if (r < 0)
		return r;
	if (sysroot_read_attr(root, SYSROOT_PROC, &kver, "sys/kernel/osrelease") < 0)
		return 0;
	if (asprintf(&mods, "lib/modules/%s", kver) < 0)
		return -ENOMEM;
	return snapshot_want(s, mods);
}

/* config/N-NAME for the --config file path: NAME kept to what a shell takes unquoted */
static int config_member(const char *path, size_t i, char **ret)
{
	const char *name = strrchr(path, '/');
	char *rel;

	name = name ? name + 1 : path;
	if (asprintf(&rel, "config/%zu-%s", i, *name ? name : "config") < 0)
		return -ENOMEM;
	for (char *p = rel + strlen("config/"); *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
			*p = '_';
	*ret = rel;
	return 0;
}

/*
 * A --config file (outside the root, as the run read it): config/N-NAME in the tar, and
 * " --config DIR/config/N-NAME" on the manifest's replay line, in the run's order.
 */
static int add_config_file(struct snapshot *s, const char *path, size_t i, FILE *replay)
{
	_cleanup_(closep) int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	_cleanup_(freep) char *data = NULL, *rel = NULL;
	size_t size;
	int r;

	if (fd < 0)
		return snapshot_skip(s, path, strerror(errno)), 0;
	r = read_full_fd(fd, 1U << 20, &data, &size);
	if (r < 0)
		return r == -ENOMEM ? r : (snapshot_skip(s, path, strerror(-r)), 0);
	if (config_member(path, i, &rel) < 0)
		return -ENOMEM;
	if (!strset_has(&s->members, "config")) {
		r = strset_add(&s->members, "config");
		if (r < 0 || (r = snapshot_tar_dir(s, "config", 0755, time(NULL))) < 0)
			return r;
	}
	fprintf(replay, " --config DIR/%s", rel);
	return snapshot_tar_file(s, rel, 0644, time(NULL), data, size);
}

/*
 * hostprep-snapshot.txt: when, where, what is in it, how to replay it (with the --config
 * files of the run), what was left out and redacted. Names are escaped (snapshot_escape()).
 */
static void manifest_text(const struct sysroot *root, const struct snapshot *s, const char *replay,
			  FILE *f)
{
	time_t now = (time_t)report_time();
	char when[64];
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	fprintf(f, "hostprep snapshot\nversion %s\ntime %s\nroot ", HOSTPREP_VERSION, when);
	snapshot_escape(f, sysroot_is_host(root) ? "/" : root->dir);
	fprintf(f,
		"\ncaptured %zu files (%zu bytes), %zu symlinks, %zu directories, %zu device "
		"nodes\nnot taken: %zu sysfs attributes without a value now (the read failed "
		"with EINVAL, ENODATA, EOPNOTSUPP, EIO or ENXIO; a replay finds them absent)\n"
		"redacted %zu secrets (each named below by file and line, never by its value)\n"
		"replay: tar -xf THIS -C DIR; hostprep --root DIR%s check\n",
		s->files, s->bytes, s->links, s->dirs, s->nodes, s->no_value, s->redacted, replay);
	snapshot_left_out(s, f);
	fputs(strempty(s->notes_buf), f);
}

static int write_manifest(const struct sysroot *root, struct snapshot *s, const char *replay)
{
	_cleanup_(freep) char *text = NULL;
	size_t size = 0;
	FILE *f;

	if (fflush(s->notes) != 0)
		return -ENOMEM;
	f = open_memstream(&text, &size);
	if (!f)
		return -ENOMEM;
	manifest_text(root, s, replay, f);
	if (fclose(f) != 0)
		return -ENOMEM;
	return snapshot_tar_file(s, SNAPSHOT_MANIFEST, 0644, (time_t)report_time(), text, size);
}

/*
 * What the check judged from a library (NVML on the live host): stored where a replay
 * under --root reads it instead, a "recorded" line each in the manifest. A path the
 * capture already holds (a root that is itself a replay) keeps the captured file.
 */
static int write_data(struct snapshot *s)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < s->n_data; i++) {
		const struct snapshot_data *d = &s->data[i];

		if (strset_has(&s->members, d->rel))
			continue;
		fprintf(s->notes, "recorded %s: what a library answered (a replay reads it)\n",
			d->rel);
		r = snapshot_tar_file(s, d->rel, 0644, time(NULL), d->data, d->size);
	}
	return r;
}

static int write_tar(const struct options *o, const struct sysroot *root, struct snapshot *s,
		     int fd)
{
	_cleanup_(freep) char *replay = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&replay, &size);
	int r = f ? snapshot_tar_open(s, fd, snapshot_tar_has_zstd()) : -ENOMEM;

	for (size_t i = 0; r >= 0 && i < o->n_configs; i++)
		r = add_config_file(s, o->configs[i], i, f);
	if (f && fclose(f) != 0 && r >= 0)
		r = -ENOMEM;
	if (r >= 0)
		r = snapshot_capture(s);
	if (r >= 0)
		r = write_data(s);
	if (r >= 0)
		r = write_manifest(root, s, replay);
	if (r >= 0)
		r = snapshot_tar_close(s);
	return r;
}

/* -o - */
static int snapshot_stdout(const struct options *o, const struct sysroot *root, struct snapshot *s)
{
	if (isatty(STDOUT_FILENO)) {
		log_error("Not writing a tar to a terminal: -o FILE, or redirect stdout.");
		return -EINVAL;
	}
	return write_tar(o, root, s, STDOUT_FILENO);
}

/* -o PATH, whatever PATH is (snapshot-out.c) */
static int snapshot_to(const struct options *o, const struct sysroot *root, struct snapshot *s,
		       const char *path)
{
	_cleanup_(freep) char *tmp = NULL;
	enum snapshot_out kind;
	int fd, r;

	r = snapshot_out_kind(path, &kind);
	if (r < 0)
		return r;
	fd = kind == SNAPSHOT_OUT_STREAM ? snapshot_out_stream(path)
					 : snapshot_out_temp(path, &tmp);
	if (fd < 0)
		return fd;
	r = write_tar(o, root, s, fd);
	if (kind == SNAPSHOT_OUT_STREAM)
		close(fd);
	else
		r = snapshot_out_finish(path, tmp, fd, r);
	if (r >= 0)
		log_notice("Wrote %s: %zu files, %zu symlinks, %zu skipped, %zu redacted (see %s).",
			   path, s->files, s->links, s->skipped, s->redacted, SNAPSHOT_MANIFEST);
	return r;
}

/* Without -o: hostprep-snapshot-HOST.tar.zst (or .tar.gz) in the current directory. */
static int default_output(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *host = root_hostname(root);

	if (!host)
		return -ENOMEM;
	for (char *p = host; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	return asprintf(ret, "hostprep-snapshot-%s.tar.%s", host,
			snapshot_tar_has_zstd() ? "zst" : "gz") < 0
		       ? -ENOMEM
		       : 0;
}

static int cmd_snapshot(const struct options *o)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(snapshot_done) struct snapshot s = {};
	_cleanup_(freep) char *path = NULL;
	int r;

	r = snapshot_tar_load();
	if (r >= 0)
		r = open_root(o, &root);
	if (r < 0)
		return r;
	r = snapshot_init(&s, &root);
	if (r >= 0)
		r = record_check(o, &root, &s);
	if (r >= 0)
		r = want_always(&root, &s);
	if (r >= 0 && !o->output)
		r = default_output(&root, &path);
	if (r < 0)
		return r == -ENOMEM ? log_oom() : r;
	/* a reader that goes away is a write error (exit 3), not a silent death */
	signal(SIGPIPE, SIG_IGN);
	if (o->output && streq(o->output, "-"))
		return snapshot_stdout(o, &root, &s);
	return snapshot_to(o, &root, &s, o->output ? o->output : path);
}

static int set_output(struct options *o, char *arg)
{
	o->output = arg;
	return 0;
}

static const struct command_option snapshot_options[] = {
	{ "output", 'o', "FILE", "write the tar to FILE (- for stdout)", set_output },
	{},
};

const struct command snapshot_command = {
	.name = "snapshot",
	.run = cmd_snapshot,
	.help = "snapshot [-o FILE]  what hostprep reads here, in one tar (for a bug report)",
	.options = snapshot_options,
};
