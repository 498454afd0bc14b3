// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What grub-mkconfig will make of the GRUB drop-in. Debian's and Ubuntu's grub-mkconfig
 * source <etc>/default/grub, then every <etc>/default/grub.d/\*.cfg in glob order, in one
 * shell, and put GRUB_CMDLINE_LINUX and GRUB_CMDLINE_LINUX_DEFAULT on the linux lines: a
 * later file that assigns them without keeping the old value drops the ACS argument. A
 * parser of shell would guess; a real sh sourcing the same files in the same order says.
 * The files are opened here, inside the root (sysroot.h), and handed to the shell as open
 * fds that it sources through /proc/self/fd: a link out of the root is not followed by it.
 * It runs sandboxed: a clean environment, cwd /, no input, its own output discarded,
 * as nobody without new privileges and in its own network namespace when we are root,
 * no file writes (RLIMIT_FSIZE 0), CPU, memory, file and process limits, killed with
 * its process group after CHAIN_TIMEOUT_MS. After each file it prints the two
 * variables on fd 3, so the file where the argument disappeared can be named.
 */
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "acs/acs-grub.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/record.h"

#define CHAIN_SH	 "/bin/sh"
#define CHAIN_FILES_MAX	 48  /* below the child's RLIMIT_NOFILE, with its fds 0-3 */
#define CHAIN_FD_FIRST	 4   /* the child's fd of the first file */
#define CHAIN_FD_PARKED	 100 /* the parent's fds for them, clear of 0-51 */
#define CHAIN_TIMEOUT_MS 5000
#define CHAIN_OUT_MAX	 (256 * 1024)
#define CHAIN_NOBODY	 65534
#define BOOT_FILE_MAX	 (8 * 1024 * 1024)
#define EXPECTED_CHAIN	 "grub-mkconfig keeps the ACS argument, grub.cfg carries it"

/*
 * $1 the directory that reopens an fd; then the files' names in grub-mkconfig's order,
 * the first on fd CHAIN_FD_FIRST and so on; "" for one that is no regular file, where
 * sourcing fails and grub-mkconfig's shell stops. Our variables carry a prefix no admin
 * uses.
 */
static const char chain_script[] =
	"__hp_d=$1; shift; __hp_n=4\n"
	"__hp_r() { printf 'F%s\\0%s\\0%s\\0' \"$1\" \"${GRUB_CMDLINE_LINUX-}\" "
	"\"${GRUB_CMDLINE_LINUX_DEFAULT-}\" >&3; }\n"
	"__hp_r ''\n"
	"for __hp_x in \"$@\"; do\n"
	"  test -n \"$__hp_x\" || exit 1\n"
	"  . \"$__hp_d/$__hp_n\"; __hp_r \"$__hp_x\"; __hp_n=$((__hp_n + 1))\n"
	"done\n"
	"printf E >&3\n";

/*
 * The files grub-mkconfig sources, opened inside the root: <etc>/default/grub when it is a
 * regular file, then <etc>/default/grub.d/\*.cfg in glob order (C locale) that exist.
 */
struct chain_files {
	int fd[CHAIN_FILES_MAX]; /* -1: exists, not a regular file */
	char *name[CHAIN_FILES_MAX];
	size_t n;
};

static void chain_files_done(struct chain_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		if (f->fd[i] >= 0)
			close(f->fd[i]);
		free(f->name[i]);
	}
	f->n = 0;
}

struct chain_step {
	const char *file; /* "" before any file */
	const char *linux_args, *default_args;
};

struct chain {
	char *out; /* the child's fd 3, NUL-separated */
	size_t size;
	struct chain_step *steps;
	size_t n;
	bool complete; /* the script reached its end */
	int status;    /* the child's wait status; -1 when killed at the deadline */
};

static void chain_done(struct chain *c)
{
	free(c->out);
	free(c->steps);
}

static void set_limit(int what, rlim_t v)
{
	struct rlimit rl = { v, v };

	(void)setrlimit(what, &rl);
}

/* In the child: only async-signal-safe calls until exec. */
static _Noreturn void chain_child(int in_fd, int out_fd, const struct chain_files *f,
				  char *const argv[], bool privileged)
{
	static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };

	(void)setpgid(0, 0);
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* fd 0 reads EOF (its writer is closed); 1 and 2 are its read-only end: writes fail. */
	if (dup2(in_fd, 0) < 0 || dup2(in_fd, 1) < 0 || dup2(in_fd, 2) < 0 || dup2(out_fd, 3) < 0)
		_exit(127);
	for (size_t i = 0; i < f->n; i++) /* parked above: no dup2 here clobbers another */
		if (f->fd[i] >= 0 && dup2(f->fd[i], CHAIN_FD_FIRST + (int)i) < 0)
			_exit(127);
	if (chdir("/") < 0)
		_exit(127);
	if (privileged) {
		(void)unshare(CLONE_NEWNET);
		if (setgroups(0, NULL) < 0 || setgid(CHAIN_NOBODY) < 0 || setuid(CHAIN_NOBODY) < 0)
			_exit(127);
		/* setuid cleared it: /proc/self/fd would be root's, and the files not reopened */
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	}
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	set_limit(RLIMIT_CPU, CHAIN_TIMEOUT_MS / 1000);
	set_limit(RLIMIT_FSIZE, 0);
	set_limit(RLIMIT_AS, 256 << 20);
	set_limit(RLIMIT_NOFILE, 64);
	set_limit(RLIMIT_NPROC, 64);
	set_limit(RLIMIT_CORE, 0);
	execve(CHAIN_SH, argv, envp);
	_exit(127);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Everything the child writes on fd 3, until EOF, the size cap or the deadline. */
static int chain_drain(int fd, struct chain *c)
{
	int64_t deadline = now_ms() + CHAIN_TIMEOUT_MS;

	c->out = malloc(CHAIN_OUT_MAX + 1);
	if (!c->out)
		return -ENOMEM;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;
		int k;

		if (left <= 0)
			return -ETIMEDOUT;
		k = poll(&p, 1, (int)left);
		if (k < 0 && errno != EINTR)
			return -errno;
		if (k <= 0)
			continue; /* the deadline is checked above */
		if (c->size == CHAIN_OUT_MAX)
			return -EFBIG;
		n = read(fd, c->out + c->size, CHAIN_OUT_MAX - c->size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		c->size += n;
	}
}

/* *.cfg as sh's glob matches it: not a dot file. */
static int cfg_filter(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 4 && streq(de->d_name + n - 4, ".cfg");
}

/* In the C locale, glob(3) sorts by bytes. */
static int cmp_bytes(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * One file: its fd parked at CHAIN_FD_PARKED or above; not there (or a link out of the
 * root): not added, as "[ -e ]" and "test -f" skip it.
 */
static int chain_add(const struct sysroot *root, struct chain_files *f, bool regular_only,
		     const char *shown, const char *rel)
{
	_cleanup_(closep) int fd = -1;
	struct stat st;

	fd = sysroot_openat(root, SYSROOT_ETC, O_RDONLY | O_NONBLOCK | O_NOCTTY, "%s", rel);
	if (fd == -ENOMEM)
		return fd;
	if (fd < 0 || fstat(fd, &st) < 0 || (regular_only && !S_ISREG(st.st_mode)))
		return 0;
	if (f->n == CHAIN_FILES_MAX)
		return -E2BIG;
	f->name[f->n] = strdup(S_ISREG(st.st_mode) ? shown : "");
	if (!f->name[f->n])
		return -ENOMEM;
	f->fd[f->n] = S_ISREG(st.st_mode) ? fcntl(fd, F_DUPFD_CLOEXEC, CHAIN_FD_PARKED) : -1;
	if (S_ISREG(st.st_mode) && f->fd[f->n] < 0) {
		free(f->name[f->n]);
		return -errno;
	}
	f->n++;
	return 0;
}

static int chain_open_files(const struct sysroot *root, struct chain_files *f)
{
	struct dirent **list = NULL;
	int n, r;

	r = chain_add(root, f, true, "/etc/default/grub", "default/grub");
	n = r < 0 ? r
		  : sysroot_scandir(root, SYSROOT_ETC, &list, cfg_filter, cmp_bytes,
				    "default/grub.d");
	for (int i = 0; i < n; i++) {
		_cleanup_(freep) char *shown = NULL, *rel = NULL;

		if (r >= 0 && (asprintf(&shown, "/etc/default/grub.d/%s", list[i]->d_name) < 0 ||
			       asprintf(&rel, "default/grub.d/%s", list[i]->d_name) < 0))
			r = -ENOMEM;
		if (r >= 0)
			r = chain_add(root, f, false, shown, rel);
		free(list[i]);
	}
	free(list);
	return r < 0 ? r : n == -ENOMEM ? n : 0;
}

/* sh -c SCRIPT sh FD_DIR NAME...: malloc'd array, the strings borrowed. */
static char **chain_argv(const struct chain_files *f)
{
	char **argv = calloc(f->n + 6, sizeof(char *));

	if (!argv)
		return NULL;
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)chain_script;
	argv[3] = "sh";
	argv[4] = (char *)sysroot_self_fd_dir();
	for (size_t i = 0; i < f->n; i++)
		argv[5 + i] = f->name[i];
	return argv;
}

static int chain_spawn(const struct chain_files *f, bool privileged, struct chain *c)
{
	_cleanup_(freep) char **argv = chain_argv(f);
	int in[2], out[2], r;
	pid_t pid;

	if (!argv)
		return -ENOMEM;
	if (pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(out, O_CLOEXEC) < 0) {
		r = -errno;
		close(in[0]);
		close(in[1]);
		return r;
	}
	close(in[1]);
	pid = fork();
	if (pid == 0)
		chain_child(in[0], out[1], f, argv, privileged);
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(out[0]);
		return -errno;
	}
	r = chain_drain(out[0], c);
	close(out[0]);
	if (r < 0)
		(void)kill(-pid, SIGKILL), (void)kill(pid, SIGKILL);
	while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR)
		;
	return r;
}

static int chain_run(const struct sysroot *root, bool privileged, struct chain *c)
{
	struct chain_files f = {};
	int r = chain_open_files(root, &f);

	if (r >= 0)
		r = chain_spawn(&f, privileged, c);
	chain_files_done(&f);
	return r;
}

/* "F<file>\0<linux>\0<default>\0" per step, "E" at the end. */
static int chain_parse(struct chain *c)
{
	size_t i = 0;

	c->out[c->size] = '\0';
	while (i < c->size && c->out[i] == 'F') {
		struct chain_step s, *v;
		const char **f[] = { &s.file, &s.linux_args, &s.default_args };

		i++;
		for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
			size_t len = strnlen(c->out + i, c->size - i);

			if (i + len >= c->size)
				return 0; /* torn: the child died mid-step */
			*f[k] = c->out + i;
			i += len + 1;
		}
		v = reallocarray(c->steps, c->n + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->steps = v;
		c->steps[c->n++] = s;
	}
	c->complete = i + 1 == c->size && c->out[i] == 'E';
	return 0;
}

static bool carries(const struct chain_step *s, const char *arg)
{
	return strstr(s->linux_args, arg) || strstr(s->default_args, arg);
}

static const struct chain_step *find_step(const struct chain *c, const char *file)
{
	for (size_t i = 0; i < c->n; i++)
		if (streq(c->steps[i].file, file))
			return &c->steps[i];
	return NULL;
}

/*
 * The argument our drop-in appended: its GRUB_CMDLINE_LINUX minus the value before it
 * ("$GRUB_CMDLINE_LINUX <arg>").
 */
static const char *dropin_arg(const struct chain *c, const struct chain_step *ours)
{
	const char *before = ours[-1].linux_args, *after = ours->linux_args;
	size_t n = strlen(before);

	if (strneq(after, before, n) && after[n] == ' ')
		return after + n + 1;
	return after[0] == ' ' ? after + 1 : after;
}

struct boot_lines {
	size_t n, with;
	const char *where;
	char *bad;    /* "FILE:LINE" of the first line where another value wins over hostprep's */
	char *winner; /* what the kernel keeps there */
};

static void boot_lines_done(struct boot_lines *b)
{
	free(b->bad);
	free(b->winner);
}

/* One kernel line: the words before its arguments are skipped (linux IMAGE, options). */
static int judge_line(const char *l, size_t len, size_t skip, const char *arg, const char *shown,
		      unsigned no, struct boot_lines *b)
{
	_cleanup_(freep) char *line = strndup(l, len);
	struct grub_judgement j;
	int r;

	if (!line)
		return -ENOMEM;
	r = grub_line_judge(line, skip, arg, &j);
	if (r == -ENOMEM)
		return r;
	b->n++;
	if (r < 0)
		return 0; /* no verdict on this line: it does not carry the argument */
	b->with += j.state == GRUB_LINE_CARRIES;
	if (j.state == GRUB_LINE_SHADOWED && !b->bad) {
		if (asprintf(&b->bad, "%s:%u", shown, no) < 0) {
			grub_judgement_done(&j);
			return -ENOMEM;
		}
		b->winner = TAKE_PTR(j.winner);
	}
	grub_judgement_done(&j);
	return 0;
}

/* The lines of a boot file whose first word is one of words (comments are no such line). */
static int judge_lines(const char *data, const char *shown, const char *const *words, size_t skip,
		       const char *arg, struct boot_lines *b)
{
	unsigned no = 1;

	for (const char *l = data; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL, no++) {
		const char *end = strchrnul(l, '\n');
		size_t at = strspn(l, " \t");

		for (const char *const *w = words; *w; w++) {
			size_t k = strlen(*w);
			int r;

			if (!strneq(l + at, *w, k) || !strchr(" \t", l[at + k]) ||
			    l + at + k >= end)
				continue;
			r = judge_line(l + at, end - l - at, skip, arg, shown, no, b);
			if (r < 0)
				return r;
			break;
		}
	}
	return 0;
}

static int boot_grub_cfg(const struct sysroot *root, const char *arg, struct boot_lines *b)
{
	static const char *const words[] = { "linux", "linuxefi", NULL };
	_cleanup_(freep) char *data = NULL;
	size_t size;

	if (sysroot_read_file(root, SYSROOT_BOOT, BOOT_FILE_MAX, &data, &size, "grub/grub.cfg") < 0)
		return 0;
	b->where = "/boot/grub/grub.cfg";
	return judge_lines(data, b->where, words, 2, arg, b);
}

/* loader/entries/\*.conf as glob(3) matches it: not a dot file. */
static int conf_filter(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n >= 5 && streq(de->d_name + n - 5, ".conf");
}

static int boot_bls_entry(const struct sysroot *root, const char *name, const char *arg,
			  struct boot_lines *b)
{
	static const char *const words[] = { "options", NULL };
	_cleanup_(freep) char *data = NULL, *shown = NULL;
	size_t size;

	if (sysroot_read_file(root, SYSROOT_BOOT, BOOT_FILE_MAX, &data, &size, "loader/entries/%s",
			      name) < 0)
		return 0;
	if (asprintf(&shown, "/boot/loader/entries/%s", name) < 0)
		return -ENOMEM;
	b->where =
		b->where ? "/boot/grub/grub.cfg and /boot/loader/entries" : "/boot/loader/entries";
	return judge_lines(data, shown, words, 1, arg, b);
}

static int boot_bls(const struct sysroot *root, const char *arg, struct boot_lines *b)
{
	struct dirent **list = NULL;
	int n = sysroot_scandir(root, SYSROOT_BOOT, &list, conf_filter, alphasort,
				"loader/entries");
	int r = 0;

	for (int i = 0; i < n; i++) {
		if (r >= 0)
			r = boot_bls_entry(root, list[i]->d_name, arg, b);
		free(list[i]);
	}
	free(list);
	return r;
}

static int verdict_lines(const struct boot_lines *b, struct results *rs)
{
	if (b->bad)
		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "acs.grub",
				.object = ACS_GRUB_FILE,
				.expected = EXPECTED_CHAIN,
				.remedy =
					"remove the older argument from where grub-mkconfig takes "
					"it (GRUB_CMDLINE_LINUX_DEFAULT or GRUB_CMDLINE_LINUX in "
					"/etc/default/grub or /etc/default/grub.d), or from the "
					"BLS entry; then update-grub",
				.action = ACTION_CONFIG,
			},
			"%s: %s comes after hostprep's argument on this kernel line and the kernel "
			"keeps the last",
			b->bad, strempty(b->winner));
	if (b->n == 0)
		return results_add(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_WARN,
				.check = "acs.grub",
				.object = ACS_GRUB_FILE,
				.expected = EXPECTED_CHAIN,
				.actual = "grub-mkconfig keeps the argument, but no "
					  "/boot/grub/grub.cfg linux line or /boot/loader/entries "
					  "options line shows it was generated",
				.remedy = "update-grub (Debian, Ubuntu), then reboot",
				.action = ACTION_CONFIG,
			});
	if (b->with < b->n)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_WARN,
					    .check = "acs.grub",
					    .object = ACS_GRUB_FILE,
					    .expected = EXPECTED_CHAIN,
					    .remedy = "update-grub (Debian, Ubuntu), then reboot",
					    .action = ACTION_CONFIG,
				    },
				    "installed but update-grub not run: %zu of %zu kernel lines in "
				    "%s lack the argument",
				    b->n - b->with, b->n, b->where);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = "acs.grub",
				    .object = ACS_GRUB_FILE,
				    .expected = EXPECTED_CHAIN,
			    },
			    "grub-mkconfig keeps it; all %zu kernel lines in %s carry it", b->n,
			    b->where);
}

/* Every kernel line of grub.cfg and the BLS entries, judged as the kernel will read it. */
static int verdict_boot(const struct sysroot *root, const char *arg, struct results *rs)
{
	struct boot_lines b = {};
	int r = boot_grub_cfg(root, arg, &b);

	if (r >= 0)
		r = boot_bls(root, arg, &b);
	if (r >= 0)
		r = verdict_lines(&b, rs);
	boot_lines_done(&b);
	return r;
}

/*
 * What the kernel keeps from the line grub-mkconfig writes for a normal entry after step s:
 * "${GRUB_CMDLINE_LINUX} ${GRUB_CMDLINE_LINUX_DEFAULT}" (10_linux), GRUB script text.
 */
static int step_judge(const struct chain_step *s, const char *arg, struct grub_judgement *j)
{
	_cleanup_(freep) char *text = NULL;

	if (asprintf(&text, "%s %s", s->linux_args, s->default_args) < 0)
		return -ENOMEM;
	return grub_line_judge(text, 0, arg, j);
}

/* The step from which on every step's line has the final step's winner. */
static int winner_from(const struct chain *c, const char *arg, const char *winner, const char **ret)
{
	*ret = c->steps[c->n - 1].file;
	for (size_t i = c->n; i-- > 0;) {
		struct grub_judgement j;
		bool same;
		int r = step_judge(&c->steps[i], arg, &j);

		if (r < 0)
			return r == -ENOMEM ? r : 0;
		same = streq(strempty(j.winner), winner);
		grub_judgement_done(&j);
		if (!same)
			return 0;
		*ret = c->steps[i].file;
	}
	return 0;
}

/*
 * The line grub-mkconfig will write from the whole chain, judged as the kernel reads it:
 * an older argument in GRUB_CMDLINE_LINUX_DEFAULT (written after GRUB_CMDLINE_LINUX), or
 * a later file's, wins over hostprep's. 1: a fail was added, naming the file from which on
 * it wins; 0: hostprep's argument wins (or the line cannot be judged).
 */
static int verdict_winner(const struct chain *c, const char *arg, struct results *rs)
{
	_cleanup_(grub_judgement_done) struct grub_judgement last = {};
	const char *from;
	int r = step_judge(&c->steps[c->n - 1], arg, &last);

	if (r < 0 || last.state == GRUB_LINE_CARRIES)
		return r == -ENOMEM ? r : 0;
	r = winner_from(c, arg, strempty(last.winner), &from);
	if (r < 0)
		return r;
	r = results_addf(rs,
			 &(const struct result_spec){
				 .verdict = VERDICT_FAIL,
				 .check = "acs.grub",
				 .object = ACS_GRUB_FILE,
				 .expected = EXPECTED_CHAIN,
				 .remedy = "remove the older argument there (hostprep's is the one "
					   "to keep), then update-grub",
				 .action = ACTION_CONFIG,
			 },
			 "%s: on the kernel line grub-mkconfig writes (GRUB_CMDLINE_LINUX, then "
			 "GRUB_CMDLINE_LINUX_DEFAULT) the kernel keeps %s, not hostprep's argument",
			 from[0] ? from : "the start", last.winner ? last.winner : "none");
	return r < 0 ? r : 1;
}

static int verdict_chain(const struct sysroot *root, const struct chain *c, struct results *rs)
{
	const struct chain_step *ours = find_step(c, ACS_GRUB_FILE), *last;
	const char *arg;
	int r;

	if (!ours || ours == c->steps) {
		const char *stop = c->n > 1 ? c->steps[c->n - 1].file : "the start";

		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_UNKNOWN,
				.check = "acs.grub",
				.object = ACS_GRUB_FILE,
				.expected = EXPECTED_CHAIN,
				.remedy = "read the files with 'sh -x' as grub-mkconfig would: a "
					  "file that fails or exits stops it",
				.action = ACTION_INSPECT,
			},
			"sourcing the GRUB defaults as grub-mkconfig does stopped after %s, before "
			"the drop-in",
			stop[0] ? stop : "the start");
	}
	arg = dropin_arg(c, ours);
	for (const struct chain_step *s = ours + 1; s < c->steps + c->n; s++)
		if (!carries(s, arg))
			return results_addf(
				rs,
				&(const struct result_spec){
					.verdict = VERDICT_FAIL,
					.check = "acs.grub",
					.object = ACS_GRUB_FILE,
					.expected = EXPECTED_CHAIN,
					.remedy = "keep the old value where it assigns them "
						  "(GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX "
						  "...\"), or give it a name that sorts before "
						  "50-hostprep-acs.cfg; then update-grub",
					.action = ACTION_CONFIG,
				},
				"shadowed: %s, sourced after the drop-in, assigns "
				"GRUB_CMDLINE_LINUX/GRUB_CMDLINE_LINUX_DEFAULT without keeping the "
				"old value: grub-mkconfig drops %s",
				s->file, arg);
	last = &c->steps[c->n - 1];
	if (!c->complete)
		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_UNKNOWN,
				.check = "acs.grub",
				.object = ACS_GRUB_FILE,
				.expected = EXPECTED_CHAIN,
				.remedy = "read the files with 'sh -x' as grub-mkconfig would",
				.action = ACTION_INSPECT,
			},
			"sourcing the GRUB defaults as grub-mkconfig does stopped after %s",
			last->file);
	r = verdict_winner(c, arg, rs);
	if (r != 0)
		return r < 0 ? r : 0;
	return verdict_boot(root, arg, rs);
}

int acs_grub_chain_verify(const struct sysroot *root, bool privileged, struct results *rs)
{
	struct chain c = {};
	int r = chain_run(root, privileged, &c);

	if (r >= 0)
		r = chain_parse(&c);
	if (r == -ENOMEM) {
		chain_done(&c);
		return r;
	}
	if (r < 0)
		r = results_addf(rs,
				 &(const struct result_spec){
					 .verdict = VERDICT_UNKNOWN,
					 .check = "acs.grub",
					 .object = ACS_GRUB_FILE,
					 .expected = EXPECTED_CHAIN,
					 .action = ACTION_INSPECT,
				 },
				 "cannot source the GRUB defaults as grub-mkconfig does: %s",
				 r == -ETIMEDOUT ? "no end within 5 s" : strerror(-r));
	else
		r = verdict_chain(root, &c, rs);
	chain_done(&c);
	return r;
}

/* An intact or unsigned "wrote" line of the drop-in in the persistent record. */
int acs_grub_recorded(const struct sysroot *root)
{
	_cleanup_(record_done) struct record rec = {};
	const char *prefix = "wrote " ACS_GRUB_FILE " ";
	int r = record_load_store(root, RECORD_STORE_PERSIST, &rec);

	if (r < 0)
		return r;
	for (size_t i = 0; i < rec.n; i++)
		if (rec.lines[i].body && strneq(rec.lines[i].body, prefix, strlen(prefix)))
			return 1;
	return 0;
}
