// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `acs cmdline --install` on BLS and kernel-install hosts (acs-boot.h): which boot path
 * the host uses, each file edited as grubby or kernel-install would and recorded first,
 * then every entry the next boot may use read back and judged as the kernel reads it.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "acs/acs-boot.h"
#include "acs/acs-grub.h"
#include "core/fileio.h"
#include "core/log.h"

#define BOOT_FILE_MAX (256 * 1024)
/* systemd's Boot Loader Interface: the vendor GUID of its EFI variables */
#define LOADER_GUID    "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define EXPECTED_WRITE "the boot-time ACS argument on the entry's kernel command line"
#define EXPECTED_BOOT  "every entry the next boot may use gives the kernel hostprep's argument"
#define CHANGED_REMEDY                                                                       \
	"hostprep recorded this file before its edit and someone changed it since: look at " \
	"it, then hostprep acs cmdline --install again (or --uninstall)"

/* A folder of BLS entries: where, and how its options reach the kernel. */
struct entry_dir {
	enum sysroot_top top;
	const char *rel;   /* "loader/entries" below top */
	const char *shown; /* "/boot/loader/entries" */
	bool grub;	   /* read by GRUB's blscfg (script text), else by systemd-boot (as is) */
};

static const struct entry_dir bls_grub_dir = { SYSROOT_BOOT, "loader/entries",
					       "/boot/loader/entries", true };
static const struct entry_dir sdboot_dirs[] = {
	{ SYSROOT_EFI, "loader/entries", "/efi/loader/entries", false },
	{ SYSROOT_BOOT, "efi/loader/entries", "/boot/efi/loader/entries", false },
	{ SYSROOT_BOOT, "loader/entries", "/boot/loader/entries", false },
};

static bool is_dir(const struct sysroot *root, enum sysroot_top top, const char *rel)
{
	struct stat st;

	return sysroot_stat(root, top, 0, &st, "%s", rel) >= 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const struct sysroot *root, enum sysroot_top top, const char *rel)
{
	struct stat st;

	return sysroot_stat(root, top, 0, &st, "%s", rel) >= 0 && S_ISREG(st.st_mode);
}

/* *.conf as glob(3) matches it, not a dot file; *.efi for UKIs. */
static int conf_filter(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 5 && streq(de->d_name + n - 5, ".conf");
}

static int efi_filter(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 4 && strcasecmp(de->d_name + n - 4, ".efi") == 0;
}

static int count_in(const struct sysroot *root, enum sysroot_top top, const char *rel,
		    int (*filter)(const struct dirent *))
{
	struct dirent **list = NULL;
	int n = sysroot_scandir(root, top, &list, filter, alphasort, "%s", rel);

	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return n == -ENOMEM ? n : n < 0 ? 0 : n;
}

static bool has_grub2(const struct sysroot *root)
{
	return is_dir(root, SYSROOT_BOOT, "grub2");
}

/* systemd-boot or kernel-install set up with the ESP (or XBOOTLDR) at /boot. */
static bool sdboot_at_boot(const struct sysroot *root)
{
	return !has_grub2(root) && (is_file(root, SYSROOT_BOOT, "loader/loader.conf") ||
				    is_dir(root, SYSROOT_BOOT, "EFI/systemd") ||
				    is_file(root, SYSROOT_ETC, "kernel/install.conf") ||
				    is_file(root, SYSROOT_ETC, "kernel/cmdline"));
}

/*
 * systemd-boot's entries. /boot/loader/entries is GRUB's where /boot/grub2 is (blscfg),
 * and nobody's known on a host without a sign of systemd-boot or kernel-install there.
 */
static bool sdboot_dir_used(const struct sysroot *root, const struct entry_dir *d)
{
	if (d->top == SYSROOT_BOOT && streq(d->rel, "loader/entries") && !sdboot_at_boot(root))
		return false;
	return count_in(root, d->top, d->rel, conf_filter) > 0;
}

/* Unified kernel images in the ESP's EFI/Linux: they carry their own command line. */
static const struct entry_dir uki_dirs[] = {
	{ SYSROOT_EFI, "EFI/Linux", "/efi/EFI/Linux", false },
	{ SYSROOT_BOOT, "efi/EFI/Linux", "/boot/efi/EFI/Linux", false },
	{ SYSROOT_BOOT, "EFI/Linux", "/boot/EFI/Linux", false },
};

static int uki_count(const struct sysroot *root)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(uki_dirs); i++)
		n += count_in(root, uki_dirs[i].top, uki_dirs[i].rel, efi_filter);
	return n;
}

static bool kernel_install_used(const struct sysroot *root)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdboot_dirs); i++)
		if (sdboot_dir_used(root, &sdboot_dirs[i]))
			return true;
	return uki_count(root) > 0 ||
	       (!has_grub2(root) && is_file(root, SYSROOT_ETC, "kernel/cmdline"));
}

int boot_paths_detect(const struct sysroot *root)
{
	int mask = 0;

	if (has_grub2(root) && count_in(root, SYSROOT_BOOT, "loader/entries", conf_filter) > 0)
		mask |= BOOT_GRUB_BLS;
	/* grub2-mkconfig (RHEL, Fedora) does not read /etc/default/grub.d */
	if (!has_grub2(root) && is_file(root, SYSROOT_ETC, "default/grub"))
		mask |= BOOT_GRUB_DEBIAN;
	if (kernel_install_used(root))
		mask |= BOOT_KERNEL_INSTALL;
	return mask;
}

/* ---- one file, edited and recorded -------------------------------------- */

struct boot_file {
	struct pfile_desc d;
	char *shown, *rel;
};

static void boot_file_done(struct boot_file *f)
{
	free(f->shown);
	free(f->rel);
}

static const char *top_shown(enum sysroot_top top)
{
	return top == SYSROOT_EFI ? "/efi" : top == SYSROOT_BOOT ? "/boot" : "/etc";
}

static int boot_file_init(struct boot_file *f, enum sysroot_top top, const char *rel)
{
	*f = (struct boot_file){};
	if (asprintf(&f->shown, "%s/%s", top_shown(top), rel) < 0)
		return -ENOMEM;
	f->rel = strdup(rel);
	if (!f->rel)
		return -ENOMEM;
	f->d = (struct pfile_desc){
		.top = top,
		.shown = f->shown,
		.rel = f->rel,
		.check = "acs.boot",
		.revert_check = "acs.revert",
		.changed_remedy = CHANGED_REMEDY,
		.keep_mode = true,
	};
	return 0;
}

/* What the file becomes, from what it is: -EINVAL / -E2BIG / -ENOENT refuse the edit. */
typedef int (*boot_edit_fn)(const struct pfile_now *now, void *ctx, char **want, size_t *size);

static const char *edit_refused(int r)
{
	switch (r) {
	case -E2BIG:
		return "no room left in its 1024-byte block";
	case -ENOENT:
		return "it is missing, yet the entries say $kernelopts";
	default:
		return "its text is not what hostprep edits (an assignment only a shell can read, "
		       "an escape, more than one line): add the argument by hand";
	}
}

static int write_result(const struct pfile_desc *d, struct results *rs, enum verdict v,
			const char *actual, const char *why)
{
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = v,
				    .check = "acs.boot",
				    .object = d->shown,
				    .expected = EXPECTED_WRITE,
				    .action = v == VERDICT_PASS ? ACTION_NONE : ACTION_CONFIG,
			    },
			    "%s%s%s", actual, why ? ": " : "", strempty(why));
}

static int boot_edit(const struct sysroot *root, const struct pfile_desc *d, boot_edit_fn fn,
		     void *ctx, struct results *rs)
{
	_cleanup_(pfile_now_done) struct pfile_now now = {};
	_cleanup_(freep) char *want = NULL;
	size_t size = 0;
	int r;

	pfile_remove_stale_temps(d, root);
	r = pfile_now_read(d, root, &now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return write_result(d, rs, VERDICT_FAIL, "not written: cannot read it",
				    strerror(-r));
	r = fn(&now, ctx, &want, &size);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return write_result(d, rs, VERDICT_FAIL, "not written", edit_refused(r));
	if (pfile_now_is(&now, want, size))
		return write_result(d, rs, VERDICT_PASS, "already up to date", NULL);
	r = pfile_write(d, root, &now, want, size, EXPECTED_WRITE, rs);
	if (r <= 0)
		return r;
	return write_result(d, rs, VERDICT_PASS, "written, read back", NULL);
}

static int boot_edit_at(const struct sysroot *root, enum sysroot_top top, const char *rel,
			boot_edit_fn fn, void *ctx, struct results *rs)
{
	_cleanup_(boot_file_done) struct boot_file f = {};
	int r = boot_file_init(&f, top, rel);

	return r < 0 ? r : boot_edit(root, &f.d, fn, ctx, rs);
}

/* ---- the editors ------------------------------------------------------- */

struct edit_ctx {
	const char *arg;
	bool kernelopts; /* an entry said $kernelopts */
	char *fallback;	 /* /etc/kernel/cmdline when absent: what kernel-install takes then */
};

static int edit_entry(const struct pfile_now *now, void *ctx, char **want, size_t *size)
{
	struct edit_ctx *c = ctx;
	bool ko = false;
	int r = bls_entry_edit(now->data, now->size, c->arg, want, size, &ko);

	c->kernelopts |= ko;
	return r;
}

static int edit_grubenv(const struct pfile_now *now, void *ctx, char **want, size_t *size)
{
	const struct edit_ctx *c = ctx;

	if (!now->exists)
		return -ENOENT;
	*size = now->size;
	return grubenv_edit(now->data, now->size, c->arg, want);
}

static int edit_default_grub(const struct pfile_now *now, void *ctx, char **want, size_t *size)
{
	const struct edit_ctx *c = ctx;

	return default_grub_edit(now->data, now->size, c->arg, want, size);
}

/* /etc/kernel/cmdline: one line; absent, what kernel-install would take (c->fallback). */
static int edit_kernel_cmdline(const struct pfile_now *now, void *ctx, char **want, size_t *size)
{
	const struct edit_ctx *c = ctx;
	const char *text = now->exists ? now->data : strempty(c->fallback);
	size_t n = now->exists ? now->size : strlen(text);
	_cleanup_(freep) char *line = NULL;
	int r;

	if (n && text[n - 1] == '\n')
		n--;
	if (memchr(text, '\n', n) || memchr(text, '\0', n))
		return -EINVAL;
	r = bootopts_edit(text, n, c->arg, &line);
	if (r < 0)
		return r;
	if (asprintf(want, "%s\n", line) < 0)
		return -ENOMEM;
	*size = strlen(*want);
	return 0;
}

/* ---- the paths ---------------------------------------------------------- */

static int install_dir(const struct sysroot *root, const struct entry_dir *dir, struct edit_ctx *c,
		       struct results *rs)
{
	struct dirent **list = NULL;
	int n = sysroot_scandir(root, dir->top, &list, conf_filter, alphasort, "%s", dir->rel);
	int r = n == -ENOMEM ? n : 0;

	for (int i = 0; i < n; i++) {
		_cleanup_(freep) char *rel = NULL;

		if (r >= 0 && asprintf(&rel, "%s/%s", dir->rel, list[i]->d_name) < 0)
			r = -ENOMEM;
		if (r >= 0)
			r = boot_edit_at(root, dir->top, rel, edit_entry, c, rs);
		free(list[i]);
	}
	free(list);
	return r;
}

static int install_grub_bls(const struct sysroot *root, int mask, const char *arg,
			    struct results *rs)
{
	struct edit_ctx c = { .arg = arg };
	int r = install_dir(root, &bls_grub_dir, &c, rs);

	if (r >= 0 && c.kernelopts)
		r = boot_edit_at(root, SYSROOT_BOOT, "grub2/grubenv", edit_grubenv, &c, rs);
	/* what grubby --update-kernel=ALL and grub2-mkconfig give the kernels to come */
	if (r >= 0 && is_file(root, SYSROOT_ETC, "default/grub"))
		r = boot_edit_at(root, SYSROOT_ETC, "default/grub", edit_default_grub, &c, rs);
	/* with systemd-boot as well, kernel-install's unquoted form is the one written there */
	if (r >= 0 && !(mask & BOOT_KERNEL_INSTALL) && is_file(root, SYSROOT_ETC, "kernel/cmdline"))
		r = boot_edit_at(root, SYSROOT_ETC, "kernel/cmdline", edit_kernel_cmdline, &c, rs);
	return r;
}

/* kernel-install's 90-loaderentry without /etc/kernel/cmdline: /proc/cmdline less these. */
static int kernel_install_fallback(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t size = 0, n = 0;
	FILE *f;
	int r = sysroot_read_file(root, SYSROOT_PROC, 64 * 1024, &data, &size, "cmdline");

	if (r < 0)
		return r == -ENOMEM ? r : 0; /* nothing to start from: the argument alone */
	f = open_memstream(ret, &n);
	if (!f)
		return -ENOMEM;
	for (char *save = NULL, *w = strtok_r(data, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save))
		if (!strneq(w, "BOOT_IMAGE=", 11) && !strneq(w, "initrd=", 7))
			fprintf(f, "%s%s", ftell(f) ? " " : "", w);
	return fclose(f) == 0 && *ret ? 0 : -ENOMEM;
}

static int install_kernel_install(const struct sysroot *root, const char *arg, struct results *rs)
{
	_cleanup_(freep) char *karg = NULL, *fallback = NULL;
	struct edit_ctx c = {};
	int r = grub_kernel_cmdline(arg, 0, &karg); /* the unquoted form the kernel reads */

	if (r >= 0)
		r = kernel_install_fallback(root, &fallback);
	c.arg = karg;
	c.fallback = fallback;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(sdboot_dirs); i++)
		if (sdboot_dir_used(root, &sdboot_dirs[i]))
			r = install_dir(root, &sdboot_dirs[i], &c, rs);
	if (r >= 0)
		r = boot_edit_at(root, SYSROOT_ETC, "kernel/cmdline", edit_kernel_cmdline, &c, rs);
	return r;
}

static int path_result(int mask, struct results *rs)
{
	return results_addf(
		rs,
		&(const struct result_spec){
			.verdict = VERDICT_PASS,
			.check = "acs.boot",
			.object = "boot path",
			.expected = "the boot paths the next boot may use, each written",
		},
		"%s%s%s%s%s",
		mask & BOOT_GRUB_DEBIAN ? "GRUB with /etc/default/grub.d (Debian)" : "",
		mask & BOOT_GRUB_DEBIAN && mask & ~BOOT_GRUB_DEBIAN ? "; " : "",
		mask & BOOT_GRUB_BLS ? "GRUB with BLS entries (RHEL, Fedora), edited as grubby "
				       "--update-kernel=ALL --args does"
				     : "",
		mask & BOOT_GRUB_BLS && mask & BOOT_KERNEL_INSTALL ? "; " : "",
		mask & BOOT_KERNEL_INSTALL ? "systemd-boot / kernel-install (/etc/kernel/cmdline, "
					     "unquoted)"
					   : "");
}

int acs_boot_install(const struct sysroot *root, int mask, const char *arg, struct results *rs)
{
	int r = path_result(mask, rs);

	if (r >= 0 && mask & BOOT_GRUB_BLS)
		r = install_grub_bls(root, mask, arg, rs);
	if (r >= 0 && mask & BOOT_KERNEL_INSTALL)
		r = install_kernel_install(root, arg, rs);
	return r < 0 ? r : acs_boot_verify(root, mask, arg, rs);
}

/* ---- verify: every entry, as the kernel will read it -------------------- */

struct entry_tally {
	size_t n, with;
	char *bad;    /* the first entry that does not give the kernel hostprep's value */
	char *winner; /* what the kernel keeps there, NULL: nothing of hostprep's option */
};

static void entry_tally_done(struct entry_tally *t)
{
	free(t->bad);
	free(t->winner);
}

/* The words of every options line of an entry, joined by blanks (BLS concatenates them). */
static int entry_options(const char *data, char **ret)
{
	size_t n = 0;
	FILE *f = open_memstream(ret, &n);

	if (!f)
		return -ENOMEM;
	for (const char *l = data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchrnul(l, '\n'), *o = l + strspn(l, " \t");

		if (e - o < 7 || !strneq(o, "options", 7) || (o + 7 < e && !strchr(" \t", o[7])))
			continue;
		fprintf(f, "%s%.*s", ftell(f) ? " " : "", (int)(e - o - 7), o + 7);
	}
	return fclose(f) == 0 && *ret ? 0 : -ENOMEM;
}

/* blscfg puts $kernelopts' text (grubenv) into the script it parses: the same here. */
static int expand_kernelopts(const char *text, const char *value, char **ret)
{
	size_t n = 0;
	FILE *f = open_memstream(ret, &n);

	if (!f)
		return -ENOMEM;
	for (const char *s = text; *s;) {
		size_t k = strneq(s, "${kernelopts}", 13) ? 13
			   : strneq(s, "$kernelopts", 11) && !isalnum((unsigned char)s[11]) &&
					   s[11] != '_'
				   ? 11
				   : 0;

		if (k)
			fputs(value, f);
		else
			fputc(*s, f);
		s += k ? k : 1;
	}
	return fclose(f) == 0 && *ret ? 0 : -ENOMEM;
}

static int grubenv_kernelopts(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t size = 0;
	const char *v;
	int r = sysroot_read_file(root, SYSROOT_BOOT, 64 * 1024, &data, &size, "grub2/grubenv");

	*ret = NULL;
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	v = strstr(data, "\nkernelopts=");
	if (!v)
		return 0;
	*ret = strndup(v + 12, strchrnul(v + 12, '\n') - v - 12);
	return *ret ? 0 : -ENOMEM;
}

static int judge_text(const char *text, bool grub, const char *arg, const char *shown,
		      struct entry_tally *t)
{
	struct grub_judgement j;
	int r = grub ? grub_line_judge(text, 0, arg, &j) : kernel_line_judge(text, arg, &j);

	if (r == -ENOMEM)
		return r;
	t->n++;
	if (r >= 0 && j.state == GRUB_LINE_CARRIES)
		t->with++;
	else if (!t->bad) {
		t->bad = strdup(shown);
		t->winner = r >= 0 ? TAKE_PTR(j.winner) : NULL;
		if (!t->bad)
			r = -ENOMEM;
	}
	if (r >= 0)
		grub_judgement_done(&j);
	return r == -ENOMEM ? r : 0;
}

/* The options text of an entry as its reader gives it to the kernel; -errno of the read. */
static int entry_text(const struct sysroot *root, const struct entry_dir *dir, const char *name,
		      const char *kernelopts, char **ret)
{
	_cleanup_(freep) char *data = NULL, *opts = NULL;
	size_t size = 0;
	int r = sysroot_read_file(root, dir->top, BOOT_FILE_MAX, &data, &size, "%s/%s", dir->rel,
				  name);

	if (r < 0)
		return r;
	r = entry_options(data, &opts);
	if (r < 0 || !dir->grub) {
		*ret = TAKE_PTR(opts);
		return r;
	}
	return expand_kernelopts(opts, strempty(kernelopts), ret);
}

static int judge_entry(const struct sysroot *root, const struct entry_dir *dir, const char *name,
		       const char *kernelopts, const char *arg, struct entry_tally *t)
{
	_cleanup_(freep) char *text = NULL, *shown = NULL;
	int r = entry_text(root, dir, name, kernelopts, &text);

	if (asprintf(&shown, "%s/%s", dir->shown, name) < 0)
		return -ENOMEM;
	if (r == -ENOMEM)
		return r;
	if (r < 0) /* unreadable: it cannot be said to carry it */
		return judge_text("", false, arg, shown, t);
	return judge_text(text, dir->grub, arg, shown, t);
}

static int judge_dir(const struct sysroot *root, const struct entry_dir *dir, const char *arg,
		     struct entry_tally *t)
{
	_cleanup_(freep) char *kernelopts = NULL;
	struct dirent **list = NULL;
	int n, r = dir->grub ? grubenv_kernelopts(root, &kernelopts) : 0;

	if (r < 0)
		return r;
	n = sysroot_scandir(root, dir->top, &list, conf_filter, alphasort, "%s", dir->rel);
	r = n == -ENOMEM ? n : 0;
	for (int i = 0; i < n; i++) {
		if (r >= 0)
			r = judge_entry(root, dir, list[i]->d_name, kernelopts, arg, t);
		free(list[i]);
	}
	free(list);
	return r;
}

static int tally_result(const struct entry_tally *t, const char *where, struct results *rs)
{
	if (t->bad)
		return results_addf(
			rs,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "acs.boot",
				.object = where,
				.expected = EXPECTED_BOOT,
				.remedy = "look at the entry: hostprep's argument must be the last "
					  "pci=config_acs= (or disable_acs_redir=) on its options "
					  "line; then hostprep acs cmdline --install",
				.action = ACTION_CONFIG,
			},
			"%s: %s%s%s (%zu of %zu entries carry it)", t->bad,
			t->winner ? "the kernel keeps " : "lacks hostprep's argument",
			t->winner ? t->winner : "", t->winner ? ", not hostprep's argument" : "",
			t->with, t->n);
	if (t->n == 0)
		return 0;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = "acs.boot",
				    .object = where,
				    .expected = EXPECTED_BOOT,
			    },
			    "all %zu entries give the kernel hostprep's argument", t->n);
}

static int verify_dir(const struct sysroot *root, const struct entry_dir *dir, const char *arg,
		      struct results *rs)
{
	struct entry_tally t = {};
	int r = judge_dir(root, dir, arg, &t);

	if (r >= 0)
		r = tally_result(&t, dir->shown, rs);
	entry_tally_done(&t);
	return r;
}

/* /etc/kernel/cmdline: what the next kernel-install gives the entries and UKIs it makes. */
static int verify_kernel_cmdline(const struct sysroot *root, bool grub, const char *arg,
				 struct results *rs)
{
	_cleanup_(freep) char *data = NULL;
	struct entry_tally t = {};
	size_t size = 0;
	int r = sysroot_read_file(root, SYSROOT_ETC, BOOT_FILE_MAX, &data, &size, "kernel/cmdline");

	if (r == -ENOENT)
		return 0;
	if (r == -ENOMEM)
		return r;
	r = judge_text(r < 0 ? "" : data, grub, arg, "/etc/kernel/cmdline", &t);
	if (r >= 0)
		r = tally_result(&t, "/etc/kernel/cmdline", rs);
	entry_tally_done(&t);
	return r;
}

static int verify_ukis(const struct sysroot *root, struct results *rs)
{
	int n = uki_count(root);

	if (n <= 0)
		return n;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_WARN,
				    .check = "acs.boot",
				    .object = "unified kernel images",
				    .expected = EXPECTED_BOOT,
				    .remedy = "build them again from /etc/kernel/cmdline: "
					      "kernel-install add $(uname -r) "
					      "/usr/lib/modules/$(uname -r)/vmlinuz",
				    .action = ACTION_CONFIG,
			    },
			    "%d unified kernel image%s in EFI/Linux carr%s the command line %s "
			    "built with, not read here",
			    n, n == 1 ? "" : "s", n == 1 ? "ies" : "y",
			    n == 1 ? "it was" : "they were");
}

int acs_boot_verify(const struct sysroot *root, int mask, const char *arg, struct results *rs)
{
	int r = 0;

	if (mask & BOOT_GRUB_BLS) {
		r = verify_dir(root, &bls_grub_dir, arg, rs);
		if (r >= 0 && !(mask & BOOT_KERNEL_INSTALL))
			r = verify_kernel_cmdline(root, true, arg, rs);
	}
	if (!(mask & BOOT_KERNEL_INSTALL))
		return r;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(sdboot_dirs); i++)
		if (sdboot_dir_used(root, &sdboot_dirs[i]))
			r = verify_dir(root, &sdboot_dirs[i], arg, rs);
	if (r >= 0)
		r = verify_kernel_cmdline(root, false, arg, rs);
	return r < 0 ? r : verify_ukis(root, rs);
}

/* ---- revert ------------------------------------------------------------- */

static int revert_at(const struct sysroot *root, enum sysroot_top top, const char *rel,
		     struct results *rs)
{
	_cleanup_(boot_file_done) struct boot_file f = {};
	int r = boot_file_init(&f, top, rel);

	return r < 0 ? r : pfile_revert(&f.d, root, rs);
}

static int revert_under(const struct sysroot *root, enum sysroot_top top, struct results *rs)
{
	_cleanup_(strv_freep) char **names = NULL;
	size_t skip = strlen(top_shown(top)) + 1;
	int r = pfile_recorded_under(root, top == SYSROOT_EFI ? "/efi/" : "/boot/", &names);

	for (size_t i = 0; r >= 0 && names[i]; i++)
		r = revert_at(root, top, names[i] + skip, rs);
	return r;
}

int acs_boot_revert(const struct sysroot *root, struct results *rs)
{
	int r = revert_under(root, SYSROOT_BOOT, rs);

	/*
	 * An unreadable record (a FIFO, EACCES) is this revert's failure, not hostprep's:
	 * acs_grub_revert(), which both callers run first, read the same record and said so
	 * (one cause, one line); nothing here can be restored without it.
	 */
	if (r < 0 && r != -ENOMEM)
		return 0;

	if (r >= 0)
		r = revert_under(root, SYSROOT_EFI, rs);
	if (r >= 0)
		r = revert_at(root, SYSROOT_ETC, "default/grub", rs);
	if (r >= 0)
		r = revert_at(root, SYSROOT_ETC, "kernel/cmdline", rs);
	return r;
}

int acs_boot_recorded(const struct sysroot *root)
{
	_cleanup_(strv_freep) char **boot = NULL, **efi = NULL, **etc = NULL;
	int r = pfile_recorded_under(root, "/boot/", &boot);

	if (r >= 0)
		r = pfile_recorded_under(root, "/efi/", &efi);
	if (r >= 0)
		r = pfile_recorded_under(root, "/etc/kernel/cmdline", &etc);
	return r < 0 ? r : boot[0] || efi[0] || etc[0];
}

int acs_boot_check(const struct sysroot *root, const char *arg, struct results *rs)
{
	int r = acs_boot_recorded(root);

	/*
	 * A record that cannot be read (a FIFO, EACCES): the entries cannot be judged, and
	 * acs.grub, which reads the same record at every check, says so (one cause, one line).
	 */
	if (r < 0 && r != -ENOMEM)
		return 0;
	if (r <= 0)
		return r;
	r = boot_paths_detect(root);
	if (r < 0)
		return r;
	return acs_boot_verify(root, r & (BOOT_GRUB_BLS | BOOT_KERNEL_INSTALL), arg, rs);
}

/* ---- after the reboot: did the kernel take what the entries carry ------ */

void boot_took_done(struct boot_took *t)
{
	free(t->carrier);
	free(t->booted);
	*t = (struct boot_took){};
}

/* The entry folder of a recorded name ("/boot/loader/entries/x.conf"); *name: "x.conf". */
static const struct entry_dir *entry_dir_of(const struct sysroot *root, const char *path,
					    const char **name)
{
	const struct entry_dir *dirs[ARRAY_SIZE(sdboot_dirs) + 1];
	size_t n = 0;

	if (has_grub2(root)) /* /boot/loader/entries is blscfg's then */
		dirs[n++] = &bls_grub_dir;
	for (size_t i = 0; i < ARRAY_SIZE(sdboot_dirs); i++)
		dirs[n++] = &sdboot_dirs[i];
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(dirs[i]->shown);

		if (!strneq(path, dirs[i]->shown, k) || path[k] != '/' || strchr(path + k + 1, '/'))
			continue;
		*name = path + k + 1;
		return dirs[i];
	}
	return NULL;
}

/* The file name of an entry's kernel (its linux key), NULL when it names none. */
static int entry_kernel(const struct sysroot *root, const struct entry_dir *dir, const char *name,
			char **ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t size = 0;
	int r = sysroot_read_file(root, dir->top, BOOT_FILE_MAX, &data, &size, "%s/%s", dir->rel,
				  name);

	*ret = NULL;
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (const char *l = data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *o = l + strspn(l, " \t"), *v, *e;

		if (!strneq(o, "linux", 5) || !strchr(" \t", o[5]))
			continue;
		v = o + 5 + strspn(o + 5, " \t");
		e = v + strcspn(v, " \t\n");
		for (const char *s = v; s < e; s++)
			if (*s == '/')
				v = s + 1;
		*ret = strndup(v, e - v);
		return *ret ? 0 : -ENOMEM;
	}
	return 0;
}

/* btime of /proc/stat: when this boot began (seconds since the epoch), 0 when unreadable. */
/* Written after this boot began: the running kernel was booted before the edit. */
static bool written_since(const struct sysroot *root, const struct entry_dir *dir, const char *name,
			  long long btime)
{
	struct stat st;

	return btime > 0 && sysroot_stat(root, dir->top, 0, &st, "%s/%s", dir->rel, name) >= 0 &&
	       (long long)st.st_mtime >= btime;
}

static int entry_carries(const struct entry_dir *dir, const char *text, const char *arg, bool *ret)
{
	struct grub_judgement j;
	int r = dir->grub ? grub_line_judge(text, 0, arg, &j) : kernel_line_judge(text, arg, &j);

	if (r == -ENOMEM)
		return r;
	*ret = r >= 0 && j.state == GRUB_LINE_CARRIES;
	if (r >= 0)
		grub_judgement_done(&j);
	return 0;
}

struct took_ctx {
	const char *arg, *image, *kernelopts;
	const char *selected; /* systemd-boot's LoaderEntrySelected, when no BOOT_IMAGE= */
	long long btime;
};

/* "+3" or "+3-1" up to end: a boot counter (systemd's automatic boot assessment). */
static bool boot_counter(const char *s, const char *end)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > (size_t)(end - s))
		return false;
	s += n;
	if (s < end && *s == '-') {
		n = strspn(s + 1, "0123456789");
		s += n ? n + 1 : 0;
	}
	return s == end;
}

/*
 * The entry file name is the one of id: systemd-boot's id is the file name without its
 * boot counter, with its suffix (".conf", ".efi") or, as the Boot Loader Interface now
 * recommends, without it; it lowercases ids, hence the case-blind compare.
 */
bool loader_entry_id_names(const char *id, const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix), stem;
	const char *plus;

	if (n <= k || strcasecmp(name + n - k, suffix) != 0)
		return false;
	stem = n - k;
	plus = memrchr(name, '+', stem);
	if (plus && plus > name && boot_counter(plus + 1, name + stem))
		stem = plus - name;
	/* id[stem] is inside id once its first stem bytes matched: no NUL among them */
	return strncasecmp(id, name, stem) == 0 &&
	       (id[stem] == '\0' || strcasecmp(id + stem, suffix) == 0);
}

int loader_entry_decode(const char *data, size_t size, char **ret)
{
	const unsigned char *u = (const unsigned char *)data + 4;
	size_t n;
	char *id;

	*ret = NULL;
	/* the attribute word, then UTF-16LE: one character at least and its NUL */
	if (size < 4 + 2 * 2 || (size - 4) % 2 != 0)
		return -EBADMSG;
	n = (size - 4) / 2 - 1;
	if (u[2 * n] || u[2 * n + 1])
		return -EBADMSG;
	id = malloc(n + 1);
	if (!id)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		unsigned c = u[2 * i] | (unsigned)u[2 * i + 1] << 8;

		/* a file name's ASCII only: a NUL, a surrogate, a blank, a slash is no id */
		if (c <= 0x20 || c >= 0x7f || c == '/' || c == '\\') {
			free(id);
			return -EBADMSG;
		}
		id[i] = (char)c;
	}
	id[n] = '\0';
	*ret = id;
	return 0;
}

/*
 * The id of the entry systemd-boot booted (the Boot Loader Interface's volatile
 * LoaderEntrySelected, set at every boot), NULL when not there or not one to trust.
 */
static int loader_entry_selected(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *data = NULL;
	size_t size = 0;
	int r = sysroot_read_file(root, SYSROOT_SYS, 4096, &data, &size,
				  "firmware/efi/efivars/LoaderEntrySelected-%s", LOADER_GUID);

	*ret = NULL;
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = loader_entry_decode(data, size, ret);
	if (r == -EBADMSG)
		log_debug("LoaderEntrySelected is no entry id, ignoring.");
	return r == -ENOMEM ? r : 0;
}

/* The entry name was the one booted: its kernel is BOOT_IMAGE='s, or it is the selected. */
static int booted_is(const struct sysroot *root, const struct entry_dir *dir, const char *name,
		     const struct took_ctx *c, bool *ret)
{
	_cleanup_(freep) char *kernel = NULL;
	int r;

	*ret = false;
	if (c->selected) {
		*ret = loader_entry_id_names(c->selected, name, ".conf");
		return 0;
	}
	if (!c->image)
		return 0;
	r = entry_kernel(root, dir, name, &kernel);
	*ret = r >= 0 && kernel && streq(kernel, c->image);
	return r;
}

static int took_entry(const struct sysroot *root, const char *path, const struct took_ctx *c,
		      struct boot_took *t)
{
	_cleanup_(freep) char *text = NULL;
	const char *name = NULL;
	const struct entry_dir *dir = entry_dir_of(root, path, &name);
	bool carries = false, booted = false;
	int r = dir ? entry_text(root, dir, name, c->kernelopts, &text) : -ENOENT;

	if (r == -ENOMEM)
		return r;
	if (r < 0) /* not an entry, or gone (its kernel removed): nothing booted it */
		return 0;
	r = entry_carries(dir, text, c->arg, &carries);
	if (r >= 0)
		r = booted_is(root, dir, name, c, &booted);
	if (r < 0)
		return r;
	t->n++;
	if (booted && !t->booted) {
		t->booted = strdup(path);
		t->booted_carries = carries;
		if (!t->booted)
			return -ENOMEM;
	}
	if (!carries)
		return 0;
	t->with++;
	t->since_boot |= written_since(root, dir, name, c->btime);
	if (!t->carrier)
		t->carrier = strdup(path);
	return t->carrier ? 0 : -ENOMEM;
}

static int took_under(const struct sysroot *root, const char *top, const struct took_ctx *c,
		      struct boot_took *t)
{
	_cleanup_(strv_freep) char **names = NULL;
	int r = pfile_recorded_under(root, top, &names);

	for (size_t i = 0; r >= 0 && names[i]; i++)
		r = took_entry(root, names[i], c, t);
	return r;
}

static int took_booted(const struct sysroot *root, const struct entry_dir *dir, const char *name,
		       const struct took_ctx *c, struct boot_took *t)
{
	_cleanup_(freep) char *text = NULL;
	int r = entry_text(root, dir, name, c->kernelopts, &text);

	if (r == -ENOMEM)
		return r;
	if (r >= 0)
		r = entry_carries(dir, text, c->arg, &t->booted_carries);
	if (r >= 0 && asprintf(&t->booted, "%s/%s", dir->shown, name) < 0)
		r = -ENOMEM;
	return r == -ENOMEM ? r : 0;
}

static int took_booted_in(const struct sysroot *root, const struct entry_dir *dir,
			  const struct took_ctx *c, struct boot_took *t)
{
	struct dirent **list = NULL;
	int n = sysroot_scandir(root, dir->top, &list, conf_filter, alphasort, "%s", dir->rel);
	int r = n == -ENOMEM ? n : 0;

	for (int i = 0; i < n; i++) {
		bool booted = false;

		if (r >= 0 && !t->booted)
			r = booted_is(root, dir, list[i]->d_name, c, &booted);
		if (r >= 0 && booted)
			r = took_booted(root, dir, list[i]->d_name, c, t);
		free(list[i]);
	}
	free(list);
	return r;
}

/* A unified kernel image booted: its built-in command line is the running one. */
static int took_booted_uki(const struct sysroot *root, const struct took_ctx *c,
			   struct boot_took *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(uki_dirs) && !t->booted; i++) {
		const struct entry_dir *d = &uki_dirs[i];
		struct dirent **list = NULL;
		int n = sysroot_scandir(root, d->top, &list, efi_filter, alphasort, "%s", d->rel);
		int r = n == -ENOMEM ? n : 0;

		for (int k = 0; k < n; k++) {
			if (r >= 0 && !t->booted &&
			    loader_entry_id_names(c->selected, list[k]->d_name, ".efi") &&
			    asprintf(&t->booted, "%s/%s", d->shown, list[k]->d_name) < 0)
				r = -ENOMEM;
			free(list[k]);
		}
		free(list);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The booted entry was none hostprep wrote (a new kernel's): found among all of them. */
static int took_booted_other(const struct sysroot *root, const struct took_ctx *c,
			     struct boot_took *t)
{
	int r = has_grub2(root) ? took_booted_in(root, &bls_grub_dir, c, t) : 0;

	for (size_t i = 0; r >= 0 && !t->booted && i < ARRAY_SIZE(sdboot_dirs); i++)
		if (sdboot_dir_used(root, &sdboot_dirs[i]))
			r = took_booted_in(root, &sdboot_dirs[i], c, t);
	if (r >= 0 && !t->booted && c->selected)
		r = took_booted_uki(root, c, t);
	return r;
}

/* BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.30: the kernel's file name, as entry_kernel() gives it. */
static const char *image_name(const char *image)
{
	const char *slash = image ? strrchr(image, '/') : NULL;

	if (!image)
		return NULL;
	return slash ? slash + 1 : image[0] == '(' ? strchrnul(image, ')') : image;
}

/*
 * A UKI host: kernel-install builds the command line from /etc/kernel/cmdline into the
 * image, so hostprep recorded only that file. When no entry carries the argument but the
 * file does, the file is the carrier: the image booted was built before it (or the
 * kernel dropped the argument), said as for an entry.
 */
static int took_kernel_cmdline(const struct sysroot *root, const struct took_ctx *c,
			       struct boot_took *t)
{
	static const struct entry_dir etc = { SYSROOT_ETC, "kernel", "/etc/kernel", false };
	_cleanup_(strv_freep) char **names = NULL;
	_cleanup_(freep) char *text = NULL;
	bool carries = false, recorded = false;
	size_t size;
	int r = pfile_recorded_under(root, "/etc/kernel/", &names);

	for (size_t i = 0; r >= 0 && names[i]; i++)
		recorded |= streq(names[i], "/etc/kernel/cmdline");
	if (r < 0 || !recorded)
		return r;
	r = sysroot_read_file(root, SYSROOT_ETC, BOOT_FILE_MAX, &text, &size, "kernel/cmdline");
	if (r == -ENOMEM)
		return r;
	if (r < 0) /* gone since: nothing carries it there */
		return 0;
	text[strcspn(text, "\n")] = '\0';
	r = entry_carries(&etc, text, c->arg, &carries);
	if (r < 0 || !carries)
		return r;
	t->n++;
	t->with++;
	t->since_boot |= written_since(root, &etc, "cmdline", c->btime);
	if (!t->carrier)
		t->carrier = strdup("/etc/kernel/cmdline");
	return t->carrier ? 0 : -ENOMEM;
}

int acs_boot_took(const struct sysroot *root, const char *image, const char *arg,
		  struct boot_took *ret)
{
	_cleanup_(freep) char *kernelopts = NULL, *selected = NULL;
	struct took_ctx c = { .arg = arg, .image = image_name(image) };
	int r = sysroot_boot_time(root, &c.btime);

	*ret = (struct boot_took){};
	if (r >= 0)
		r = grubenv_kernelopts(root, &kernelopts);
	/* systemd-boot passes no BOOT_IMAGE=: it names the entry in an EFI variable */
	if (r >= 0 && !c.image)
		r = loader_entry_selected(root, &selected);
	c.kernelopts = kernelopts;
	c.selected = selected;
	if (r >= 0)
		r = took_under(root, "/boot/", &c, ret);
	if (r >= 0)
		r = took_under(root, "/efi/", &c, ret);
	if (r >= 0 && (c.image || c.selected) && !ret->booted && ret->with)
		r = took_booted_other(root, &c, ret);
	if (r >= 0 && !ret->with)
		r = took_kernel_cmdline(root, &c, ret);
	if (r < 0)
		boot_took_done(ret);
	return r;
}
