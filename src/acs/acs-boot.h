/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/persist-file.h"

/*
 * `hostprep acs cmdline --install` on the boot paths other than Debian's GRUB drop-in
 * (acs-grub.h), written the way the distribution's own tool would (grubby on RHEL and
 * Fedora, kernel-install on systemd-boot hosts), with every original recorded
 * (persist-file.h) and every entry the next boot may use read back and judged with the
 * parser that judges /proc/cmdline:
 *
 *  grub-bls	GRUB with BLS entries (/boot/grub2 and /boot/loader/entries/\*.conf): each
 *		entry's options line, grubenv's kernelopts where an entry says $kernelopts,
 *		GRUB_CMDLINE_LINUX in /etc/default/grub (what grubby and new kernels take)
 *		and /etc/kernel/cmdline when there; GRUB's script form (quoted).
 *  kernel-install  systemd-boot (entries in /efi, /boot/efi or /boot without grub2,
 *		/etc/kernel/cmdline, UKIs): each entry's options line and /etc/kernel/cmdline,
 *		which the kernel reads unparsed: the unquoted form. A UKI carries its own
 *		command line: it must be built again (advice, never run here).
 */

enum boot_path {
	BOOT_GRUB_DEBIAN = 1 << 0, /* /etc/default/grub, grub.d read by update-grub */
	BOOT_GRUB_BLS = 1 << 1,
	BOOT_KERNEL_INSTALL = 1 << 2,
};

/* The paths this host boots through (a mask of enum boot_path), 0 for none known; -errno. */
int boot_paths_detect(const struct sysroot *root);

/* Install arg (GRUB's quoted form, as acs_cmdline_format() gives it) on the paths of mask. */
int acs_boot_install(const struct sysroot *root, int mask, const char *arg, struct results *rs);
/* Verify every entry of the paths of mask: "acs.boot" results. */
int acs_boot_verify(const struct sysroot *root, int mask, const char *arg, struct results *rs);
/* Put back every boot file the record names (none: no result). */
int acs_boot_revert(const struct sysroot *root, struct results *rs);
/* 1 when the record holds an original of a boot file, 0 if not, -errno. */
int acs_boot_recorded(const struct sysroot *root);
/*
 * A check while the record holds boot files: every entry of the paths the host boots
 * through judged again against arg (an entry edited since, a new kernel's entry without
 * it), as acs_boot_verify(); nothing recorded: no result.
 */
int acs_boot_check(const struct sysroot *root, const char *arg, struct results *rs);

/* What the boot entries hostprep recorded say of arg, for acs.cmdline after a reboot. */
struct boot_took {
	size_t n, with;	     /* recorded entries still there; those that carry arg */
	char *carrier;	     /* the first that carries it: "/boot/loader/entries/x.conf" */
	char *booted;	     /* the one booted (BOOT_IMAGE='s kernel, or systemd-boot's
				LoaderEntrySelected); NULL: not told */
	bool booted_carries; /* and it carries arg */
	bool since_boot;     /* a carrier was written after this boot began (/proc/stat btime) */
};

/*
 * image: BOOT_IMAGE='s value on the running command line (GRUB's), or NULL: then the
 * EFI variable LoaderEntrySelected names the entry systemd-boot booted, when it is there
 * and decodes (loader_entry_decode()).
 */
int acs_boot_took(const struct sysroot *root, const char *image, const char *arg,
		  struct boot_took *ret);
void boot_took_done(struct boot_took *t);

/*
 * Options text (an options line after its keyword, kernelopts, GRUB_CMDLINE_LINUX's quoted
 * text, /etc/kernel/cmdline) with every config_acs= and disable_acs_redir= option taken
 * out of its pci= words (a word left empty goes with the blanks before it), then arg
 * appended after one blank (NULL: nothing appended). *ret is NUL-terminated, malloc'd.
 */
int bootopts_edit(const char *text, size_t len, const char *arg, char **ret);
/*
 * A BLS entry: every options line edited, arg appended to the last (an options line added
 * when there is none), or not at all when an options line says $kernelopts (*kernelopts
 * set): grubenv then holds it.
 */
int bls_entry_edit(const char *data, size_t size, const char *arg, char **ret, size_t *ret_size,
		   bool *kernelopts);
/*
 * grubenv (a block of its own size: 1024 bytes, '#'-padded) with kernelopts= edited (added
 * when absent): -E2BIG when it no longer fits, -EINVAL when not a grubenv grub-editenv wrote
 * without escapes. *ret has size bytes.
 */
int grubenv_edit(const char *data, size_t size, const char *arg, char **ret);
/*
 * /etc/default/grub with every GRUB_CMDLINE_LINUX= assignment edited and arg appended to the
 * last one (one added when none): -EINVAL for an assignment that is not one plain or quoted
 * word (its meaning depends on the shell: left to the admin).
 */
int default_grub_edit(const char *data, size_t size, const char *arg, char **ret, size_t *ret_size);

/*
 * An efivarfs file of the Boot Loader Interface's LoaderEntrySelected: the 4-byte attribute
 * word, then the entry id in UTF-16LE, NUL-terminated. *ret: the id (malloc'd). -EBADMSG
 * for anything else (an odd byte count, no NUL at the end, an empty id, a character that
 * is not printable ASCII or is a blank, a slash or a backslash): no id rather than a guess.
 */
int loader_entry_decode(const char *data, size_t size, char **ret);
/*
 * Whether the entry file name (suffix ".conf", or ".efi" for a UKI) is the one id names:
 * systemd-boot's id is the file name less its boot counter ("+3-1"), with or without the
 * suffix, compared without case.
 */
bool loader_entry_id_names(const char *id, const char *name, const char *suffix);
