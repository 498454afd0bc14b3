// SPDX-License-Identifier: GPL-2.0-or-later
/* The boot gate's record: which units passed the gate in this boot (contract in gate.h). */
#include <ctype.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "report/gate.h"

/* systemd's unit name characters (unit-name.c VALID_CHARS, '\\' of its escapes included). */
#define UNIT_NAME_CHARS                                                  \
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	":-_.\\@"
#define UNIT_NAME_MAX 255

bool gate_name_valid(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n <= UNIT_NAME_MAX && name[0] != '.' && strspn(name, UNIT_NAME_CHARS) == n;
}

bool boot_id_valid(const char *s)
{
	if (strlen(s) != BOOT_ID_LEN)
		return false;
	for (size_t i = 0; i < BOOT_ID_LEN; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-'
			 : !isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	}
	return true;
}

int gate_boot_id(const struct sysroot *root, char id[BOOT_ID_LEN + 1])
{
	_cleanup_(freep) char *s = NULL;
	int r;

	r = sysroot_read_attr(root, SYSROOT_PROC, &s, "sys/kernel/random/boot_id");
	if (r < 0)
		return r;
	if (!boot_id_valid(s))
		return -EBADMSG;
	memcpy(id, s, BOOT_ID_LEN + 1);
	return 0;
}

int gate_passed(const struct sysroot *root, const char *name, const char *boot_id, uid_t owner)
{
	_cleanup_(freep) char *line = NULL;
	_cleanup_(closep) int fd = -1;
	int r;

	fd = sysroot_openat(root, SYSROOT_RUN, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, GATE_DIR "/%s",
			    name);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd == -ELOOP ? -EBADFD : fd; /* O_NOFOLLOW: a symlink is not a record */
	/* only root (or whoever runs the gate) may have written what lets a daemon start */
	r = fd_trusted(fd, owner);
	if (r < 0)
		return r;
	r = read_one_line_fd(fd, &line);
	if (r < 0)
		return r;
	if (!boot_id_valid(line))
		return -EBADMSG;
	return streq(line, boot_id);
}

int gate_record(const struct sysroot *root, const char *name, const char *boot_id)
{
	_cleanup_(closep) int dfd = sysroot_mkdirs(root, SYSROOT_RUN, 0755, GATE_DIR);
	char line[BOOT_ID_LEN + 2];

	if (dfd < 0)
		return dfd;
	snprintf(line, sizeof(line), "%s\n", boot_id);
	return write_file_atomic_at(dfd, name, line, BOOT_ID_LEN + 1, 0644, WRITE_VOLATILE);
}
