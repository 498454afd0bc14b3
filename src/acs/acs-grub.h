/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/persist-file.h"

/*
 * `hostprep acs cmdline --install`: the boot-time ACS argument as a
 * hostprep-owned GRUB drop-in, /etc/default/grub.d/50-hostprep-acs.cfg,
 * which Debian's and Ubuntu's grub-mkconfig (update-grub) source after
 * /etc/default/grub. The file appends the argument to GRUB_CMDLINE_LINUX;
 * its original is recorded (persist-file.h) so `hostprep revert` and
 * `--uninstall` put back what was there. The admin regenerates grub.cfg.
 */
#define ACS_GRUB_FILE "/etc/default/grub.d/50-hostprep-acs.cfg"

extern const struct pfile_desc acs_grub_desc;

/*
 * The drop-in's bytes for arg (as acs_cmdline_format() gives it:
 * pci=config_acs="..."), quoted for the shell that sources it so that
 * grub.cfg gets the argument with its double quotes (malloc'd).
 */
int acs_grub_content(const char *arg, char **ret, size_t *ret_size);

/*
 * Write the drop-in for arg: one "acs.grub" result. Refused (a fail, nothing
 * written) where /etc/default/grub is absent: grub-mkconfig is not what
 * builds the boot menu there. Needs the run lock and root (acs-cmd.c refuses
 * --install otherwise): its chain check runs privileged.
 */
int acs_grub_install(const struct sysroot *root, const char *arg, struct results *rs);

/* Put back what was there before the drop-in: "acs.revert" results (none: nothing recorded). */
int acs_grub_revert(const struct sysroot *root, struct results *rs);

/*
 * What grub-mkconfig makes of the drop-in now (acs-grub-chain.c): a real sh sources
 * /etc/default/grub and /etc/default/grub.d/\*.cfg in grub-mkconfig's order, sandboxed;
 * one "acs.grub" result: fail naming a later file that drops the argument, warn when
 * grub.cfg / the BLS entries do not carry it yet (update-grub not run), unknown when the
 * chain cannot be sourced. -ENOMEM only. privileged (struct run.privileged): the sandbox
 * also drops to nobody in a network namespace of its own.
 */
int acs_grub_chain_verify(const struct sysroot *root, bool privileged, struct results *rs);
/* 1 when the persistent record says hostprep wrote the drop-in, 0 if not, -errno. */
int acs_grub_recorded(const struct sysroot *root);

/*
 * The kernel command line a grub.cfg command gives the kernel (acs-grub-line.c): its text
 * split into words by GRUB's script parser ('...' literal, "..." with \ escaping $ " \ and
 * newline, \ escaping outside quotes, an unquoted ; & | < > ( ) or newline ending the
 * command, # at a word's start a comment; $NAME kept as written), the first skip words
 * dropped (the command, the kernel image), the rest joined as GRUB's linux command does
 * (grub_create_loader_cmdline(): \ ' " escaped with \, a word holding a space in "...").
 */
int grub_kernel_cmdline(const char *text, size_t skip, char **ret);

enum grub_line_state {
	GRUB_LINE_LACKS,    /* hostprep's value is not on the line */
	GRUB_LINE_CARRIES,  /* the kernel keeps hostprep's value: the last of its option */
	GRUB_LINE_SHADOWED, /* hostprep's value is there, another one after it wins */
};

struct grub_judgement {
	enum grub_line_state state;
	char *winner; /* "pci=config_acs=VALUE" the kernel keeps when not hostprep's; or NULL */
};

/*
 * Which value of hostprep's option (pci=config_acs= or pci=disable_acs_redir=, as arg,
 * grub.cfg text, sets) the kernel keeps from the line text (grub_kernel_cmdline(text, skip)),
 * through the parser acs.cmdline judges /proc/cmdline with. -EINVAL: arg sets neither.
 */
int grub_line_judge(const char *text, size_t skip, const char *arg, struct grub_judgement *ret);
/* The same for a line the kernel reads as it is (systemd-boot's options, a UKI's). */
int kernel_line_judge(const char *line, const char *arg, struct grub_judgement *ret);
void grub_judgement_done(struct grub_judgement *j);
