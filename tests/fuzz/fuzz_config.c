// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The configuration: lexer, validation of every section (the modules' parts too) and the
 * drop-in merge. The input is split into files at "\n%%%\n"; part i lands in slot i below,
 * so drop-ins of the same name in /usr/lib, /run and /etc override each other as installed.
 * An empty part is an absent file. Parts 9 and 10 are files given to `config --validate`.
 * A config that loads is dumped, read back with --config and dumped again: the two dumps
 * must say the same (config.h promises the dump reads back to the same config).
 */
#include "run/config.h"
#include "fuzz.h"

static const char *const slots[] = {
	"usr/lib/hostprep/hostprep.conf",
	"etc/hostprep/hostprep.conf",
	"usr/lib/hostprep/hostprep.conf.d/10-a.conf",
	"run/hostprep/hostprep.conf.d/10-a.conf",
	"etc/hostprep/hostprep.conf.d/20-b.conf",
	"usr/lib/hostprep/hostprep.conf.d/30-c.conf",
	"etc/hostprep/hostprep.conf.d/10-a.conf",
	"run/hostprep/hostprep.conf.d/40-d.conf",
	"etc/hostprep/hostprep.conf.d/90-z.conf",
	"validate/hostprep.conf",
	"validate/20-b.conf",
};
#define N_SEARCH 9

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_set_max_level(LOG_DEBUG); /* format every message: they quote the input */
	return 0;
}

static char *dump(const struct config *c)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	fuzz_assert(f);
	fuzz_assert(config_dump(c, f) == 0);
	fuzz_assert(fclose(f) == 0);
	return buf;
}

/* The dump without its comment lines (they name the files, which differ). */
static void strip_comments(char *s)
{
	char *out = s;

	for (char *line = s; *line;) {
		size_t n = strcspn(line, "\n");
		bool keep = line[0] != '#';

		if (keep) {
			memmove(out, line, n + (line[n] == '\n'));
			out += n + (line[n] == '\n');
		}
		line += n + (line[n] == '\n');
	}
	*out = '\0';
}

static void check_round_trip(const struct config *c, const struct sysroot *root)
{
	_cleanup_(freep) char *first = dump(c), *second = NULL, *path = NULL;
	char *files[2] = {};
	struct config again;

	if (strlen(first) > CONFIG_MAX_FILE_SIZE)
		return;
	fuzz_put_file("dump.conf", first, strlen(first));
	fuzz_assert(asprintf(&path, "%s/dump.conf", root->dir) > 0);
	files[0] = path;
	fuzz_assert(config_load(&again, root, files, 0) == 0);
	second = dump(&again);
	config_done(&again);
	strip_comments(first);
	strip_comments(second);
	fuzz_assert(streq(first, second));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	char *overlay[3] = {}, **o = overlay;
	const uint8_t *part;
	size_t n, i = 0;
	struct config c;

	fuzz_assert(sysroot_init(&root, fuzz_root()) == 0);
	for (; fuzz_next_part(&data, &size, &part, &n) && i < ARRAY_SIZE(slots); i++) {
		fuzz_put_file(slots[i], n ? part : NULL, n);
		if (i >= N_SEARCH && n)
			fuzz_assert(asprintf(o++, "%s/%s", root.dir, slots[i]) > 0);
	}
	for (; i < ARRAY_SIZE(slots); i++)
		fuzz_put_file(slots[i], NULL, 0);
	if (config_validate(&c, &root, NULL, overlay[0] ? overlay : NULL, 0) == 0) {
		if (!overlay[0])
			check_round_trip(&c, &root);
		config_done(&c);
	}
	for (o = overlay; *o; o++)
		free(*o);
	return 0;
}
