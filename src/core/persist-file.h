/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sys/types.h>

#include "core/result.h"
#include "core/sysroot.h"

/*
 * A file below /etc, /boot or /efi that hostprep writes and that survives a
 * reboot (the modprobe.d file of Persist=yes, the GRUB drop-in, the boot
 * entries and files of `acs cmdline --install`). It is a file, not the
 * kernel: under any --root it is written inside the tree.
 *
 * Before the first write the original goes to the persistent originals store
 * (record.h, <root>/var/lib/hostprep/originals), because the file survives a
 * reboot and so must its record. Several such files share the store; each
 * line names its file:
 *
 *	file PATH absent			nothing was there: revert removes it
 *	file PATH bytes SIZE CRC MODE		its bytes are in files/CRC.orig
 *	wrote PATH SIZE CRC			what hostprep is writing / wrote
 *	dir PATH made				a folder of PATH's that hostprep made
 *						(before the write): revert removes it
 *						when it is empty
 *
 * A file hostprep only edited that is gone at revert (a removed kernel's boot entry) is
 * no conflict: nothing to restore, and putting it back would undo that removal.
 * A "wrote" line is appended before each write and the older ones dropped
 * after it, so at every instant (kill -9 included) the file is either the
 * original or content some "wrote" line names. Anything else was changed by
 * someone else: hostprep reports it and neither overwrites nor removes it.
 * An intact line naming another file is that file's; a damaged or unsigned
 * line that names this file, or no file at all, may hold this file's
 * original: it blocks writes and is reported, never used.
 */
struct pfile_desc {
	enum sysroot_top top;	    /* SYSROOT_ETC, SYSROOT_BOOT or SYSROOT_EFI */
	const char *shown;	    /* "/etc/modprobe.d/hostprep.conf": in records and results */
	const char *rel;	    /* the same below top: "modprobe.d/hostprep.conf" */
	const char *check;	    /* result of a write: "module.persist" */
	const char *revert_check;   /* result of a revert: "module.revert" */
	const char *changed_remedy; /* when someone else changed the file */
	bool keep_mode;		    /* an admin's file edited in place: its mode stays */
};

#define PFILE_MAX (256 * 1024) /* hostprep never writes more; larger: not ours */

/* The file as it is now. */
struct pfile_now {
	bool exists;
	char *data;
	size_t size;
	mode_t mode;
};

/* Not a regular file (a symlink, a directory): -EINVAL, it is not a file hostprep wrote. */
int pfile_now_read(const struct pfile_desc *d, const struct sysroot *root, struct pfile_now *ret);
void pfile_now_done(struct pfile_now *f);
bool pfile_now_is(const struct pfile_now *f, const void *data, size_t size);

/* Remove "<name>.tmp-XXXXXX" that a kill -9 inside the atomic writer left behind. */
void pfile_remove_stale_temps(const struct pfile_desc *d, const struct sysroot *root);

/*
 * Replace the file (now: as read before) by want, mode 0644 (or its own with
 * keep_mode), after checking
 * the record: 1 written and read back (the caller reports the pass), 0 a
 * d->check FAIL result was added (nothing written, or the write failed with
 * the original recorded), -ENOMEM. Needs the run lock.
 */
int pfile_write(const struct pfile_desc *d, const struct sysroot *root, const struct pfile_now *now,
		const void *want, size_t size, const char *expected, struct results *rs);

/*
 * Put back what the record says was there: d->revert_check results (none
 * when nothing is recorded about the file); its record lines are dropped
 * once it is as before. Needs the run lock.
 */
int pfile_revert(const struct pfile_desc *d, const struct sysroot *root, struct results *rs);

/*
 * The files below dir ("/boot/") that the persistent record holds an intact original of,
 * as "file PATH ..." names them: *ret a NULL-terminated malloc'd array of malloc'd strings.
 */
int pfile_recorded_under(const struct sysroot *root, const char *dir, char ***ret);
