// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <sys/stat.h>

#include "acs/acs-grub.h"

#define EXPECTED "the boot-time ACS argument in GRUB_CMDLINE_LINUX, hostprep-owned"

const struct pfile_desc acs_grub_desc = {
	.top = SYSROOT_ETC,
	.shown = ACS_GRUB_FILE,
	.rel = "default/grub.d/50-hostprep-acs.cfg",
	.check = "acs.grub",
	.revert_check = "acs.revert",
	.changed_remedy = "hostprep owns " ACS_GRUB_FILE ": move your own lines to another file "
			  "in /etc/default/grub.d, put back what hostprep wrote (or the "
			  "original), then hostprep acs cmdline --install",
};

/* Inside the shell's double quotes only these keep a meaning; the argument has none today. */
static void shell_quoted(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\"$`\\", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

int acs_grub_content(const char *arg, char **ret, size_t *ret_size)
{
	FILE *f = open_memstream(ret, ret_size);

	if (!f)
		return -ENOMEM;
	fputs("# hostprep owns this file (hostprep acs cmdline --install); 'hostprep revert' or\n"
	      "# 'hostprep acs cmdline --uninstall' restores what was here before.\n"
	      "# grub.cfg takes it only when regenerated: update-grub (Debian, Ubuntu).\n"
	      "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX ",
	      f);
	shell_quoted(f, arg);
	fputs("\"\n", f);
	if (fclose(f) != 0 || !*ret)
		return -ENOMEM;
	return 0;
}

/* update-grub reads the drop-ins after /etc/default/grub: without it they are not read. */
static int grub_default_present(const struct sysroot *root)
{
	struct stat st;
	int r = sysroot_stat(root, SYSROOT_ETC, 0, &st, "default/grub");

	if (r < 0)
		return r == -ENOENT ? 0 : r;
	return S_ISREG(st.st_mode);
}

static int install_refused(struct results *rs, const char *actual, const char *remedy)
{
	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_FAIL,
				       .check = "acs.grub",
				       .object = ACS_GRUB_FILE,
				       .expected = EXPECTED,
				       .actual = actual,
				       .remedy = remedy,
				       .action = ACTION_CONFIG,
			       });
}

int acs_grub_install(const struct sysroot *root, const char *arg, struct results *rs)
{
	_cleanup_(freep) char *want = NULL;
	_cleanup_(pfile_now_done) struct pfile_now now = {};
	size_t size = 0;
	int r;

	r = grub_default_present(root);
	if (r < 0)
		return r;
	if (r == 0)
		return install_refused(
			rs,
			"not written: no /etc/default/grub, so grub-mkconfig does "
			"not make this host's boot menu",
			"add the argument that 'hostprep acs cmdline' prints to your "
			"boot loader's kernel command line by hand");
	r = acs_grub_content(arg, &want, &size);
	if (r < 0)
		return r;
	pfile_remove_stale_temps(&acs_grub_desc, root);
	r = pfile_now_read(&acs_grub_desc, root, &now);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.grub",
					    .object = ACS_GRUB_FILE,
					    .expected = EXPECTED,
					    .action = ACTION_CONFIG,
				    },
				    "not written: cannot read it: %s", strerror(-r));
	if (pfile_now_is(&now, want, size)) {
		r = results_add(rs, &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "acs.grub",
					    .object = ACS_GRUB_FILE,
					    .expected = EXPECTED,
					    .actual = "already up to date",
				    });
		return r < 0 ? r : acs_grub_chain_verify(root, true, rs);
	}
	r = pfile_write(&acs_grub_desc, root, &now, want, size, EXPECTED, rs);
	if (r <= 0)
		return r;
	r = results_add(rs, &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = "acs.grub",
				    .object = ACS_GRUB_FILE,
				    .expected = EXPECTED,
				    .actual = "written, read back",
			    });
	/* Written is not kept: a later drop-in may assign the variable again. */
	return r < 0 ? r : acs_grub_chain_verify(root, true, rs);
}

int acs_grub_revert(const struct sysroot *root, struct results *rs)
{
	return pfile_revert(&acs_grub_desc, root, rs);
}
