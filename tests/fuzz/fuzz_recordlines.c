// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What each kind makes of the originals record's lines (fuzz_record covers the
 * record's framing): the input is a record file.
 *  - "acs" lines (src/acs/apply.c): a line the parser accepts formats back to the same
 *    bytes and holds an offset and Control word an ACS capability can have.
 *  - file/wrote lines of a hostprep-owned file (src/core/persist-file.c), through the real
 *    revert of the GRUB drop-in on a scratch root: whatever the record says, revert
 *    never drops another owner's line, nor a line that failed its integrity check.
 */
#include "acs/apply.h"
#include "acs/acs-grub.h"
#include "fuzz.h"
#include "core/persist-file.h"
#include "core/record.h"

#define STORE "var/lib/hostprep/originals"
#define DROPIN "etc/default/grub.d/50-hostprep-acs.cfg"

static void check_acs_lines(const struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		const struct record_line *l = &rec->lines[i];
		bool legacy = l->state == RECORD_LINE_UNSIGNED;
		char again[RECORD_LINE_MAX + 1];
		struct original o;

		if (!l->body || !record_line_is(l, "acs"))
			continue;
		if (acs_original_parse(l->body, legacy, &o) < 0)
			continue;
		acs_original_format(&o, legacy, again, sizeof(again));
		fuzz_assert(streq(again, l->body));
		fuzz_assert(o.off >= 0x100 && o.off <= 0xff8 && !(o.off & 3));
		fuzz_assert(!(o.ctrl & 0xe000));
	}
}

/* A line revert must keep: damaged, or intact and about something other than this file. */
static bool must_keep(const struct record_line *l)
{
	if (l->state == RECORD_LINE_BAD)
		return true;
	return l->state == RECORD_LINE_INTACT && !strstr(l->body, acs_grub_desc.shown);
}

static bool still_there(const struct record *after, const struct record_line *l)
{
	for (size_t i = 0; i < after->n; i++)
		if (after->lines[i].len == l->len && !memcmp(after->lines[i].bytes, l->bytes, l->len))
			return true;
	return false;
}

static void check_revert(const uint8_t *data, size_t size, const struct record *parsed)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(results_done) struct results rs = {};
	_cleanup_(record_done) struct record after = {};
	static const char dropin[] = "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX "
				     "pci=config_acs=x0x00xx@pci:10b5:8796\"\n";

	fuzz_assert(sysroot_init(&root, fuzz_root()) == 0);
	fuzz_put_file(STORE, data, size);
	/* the drop-in as hostprep wrote it, or gone, as the input's length decides */
	fuzz_put_file(DROPIN, size % 2 ? dropin : NULL, sizeof(dropin) - 1);
	fuzz_assert(pfile_revert(&acs_grub_desc, &root, &rs) >= 0);
	fuzz_assert(record_load_store(&root, RECORD_STORE_PERSIST, &after) == 0);
	for (size_t i = 0; i < parsed->n; i++)
		if (must_keep(&parsed->lines[i]))
			fuzz_assert(still_there(&after, &parsed->lines[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(record_done) struct record parsed = {};

	fuzz_assert(record_parse((const char *)data, size, &parsed) == 0);
	check_acs_lines(&parsed);
	/* the revert reads and rewrites files: one input in 4 (see fuzz_record.c) */
	if (parsed.too_large || record_crc32(data, size) % 4 != 0)
		return 0;
	check_revert(data, size, &parsed);
	return 0;
}
