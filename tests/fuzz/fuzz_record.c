// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The originals record loader (src/core/record.c): the input is the file's bytes, parsed as
 * loading parses them and, for some inputs, loaded from the run store (ACS) and the
 * persistent store (modprobe.d files). What record.h promises is
 * checked: lines keep their bytes (a NUL is just a byte), a sealed line that verifies has
 * the body before " crc32:", a rewrite that drops some lines keeps every other one byte for
 * byte under a header that counts them, and nothing is ever added to or rewritten in a
 * record that is cut (fewer lines than its header counts, a torn last line).
 */
#include "fuzz.h"
#include "core/record.h"

static const char *const stores[] = { "run/hostprep/acs-originals", "var/lib/hostprep/originals" };

static void check_lines(const struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		const struct record_line *l = &rec->lines[i];
		_cleanup_(freep) char *esc = record_line_escape(l, 64);

		fuzz_assert(esc);
		fuzz_assert(l->len > 0 && l->bytes[l->len] == '\0');
		fuzz_assert(l->newline || i == rec->n - 1);
		fuzz_assert((l->state == RECORD_LINE_BAD) == !l->body);
		fuzz_assert(l->state != RECORD_LINE_BAD || l->why);
		if (l->state == RECORD_LINE_INTACT) {
			_cleanup_(freep) char *sealed = record_seal(l->body);

			fuzz_assert(sealed && strlen(sealed) == l->len);
			fuzz_assert(memcmp(sealed, l->bytes, l->len) == 0);
		}
		(void)record_line_is(l, "acs");
	}
}

/* Drop every other line and read back: what is kept is the same, byte for byte. */
static void check_rewrite(const struct sysroot *root, enum record_store store, struct record *rec)
{
	_cleanup_(record_done) struct record again = {};
	_cleanup_(freep) bool *drop = calloc(rec->n + 1, sizeof(*drop));
	size_t j = 0;

	fuzz_assert(drop);
	for (size_t i = 0; i < rec->n; i++)
		drop[i] = i % 2 == 1;
	if (rec->whole == RECORD_CUT) { /* never rewritten */
		fuzz_assert(record_rewrite(rec, drop) == -EUCLEAN);
		return;
	}
	fuzz_assert(record_rewrite(rec, drop) == 0);
	fuzz_assert(record_load_store(root, store, &again) == 0);
	for (size_t i = 0; i < rec->n; i += 2, j++) {
		fuzz_assert(j < again.n);
		fuzz_assert(again.lines[j].len == rec->lines[i].len);
		fuzz_assert(memcmp(again.lines[j].bytes, rec->lines[i].bytes, rec->lines[i].len) ==
			    0);
		fuzz_assert(again.lines[j].state == rec->lines[i].state);
	}
	fuzz_assert(j == again.n);
	fuzz_assert(again.whole == RECORD_WHOLE && again.header);
}

/*
 * Append one line: it is intact and last, and the record whole; a record that is cut or
 * would grow past what revert reads is refused and stays as it was.
 */
static void check_append(const struct sysroot *root, enum record_store store)
{
	_cleanup_(record_done) struct record rec = {}, again = {};
	static const char body[] = "acs 0000:00:01.0 fuzz";
	size_t n;

	fuzz_assert(record_load_store(root, store, &rec) == 0);
	if (rec.too_large)
		return;
	n = rec.n;
	if (rec.whole == RECORD_CUT || record_size_with(&rec, strlen(body)) > RECORD_MAX_SIZE) {
		fuzz_assert(record_append(&rec, body) ==
			    (rec.whole == RECORD_CUT ? -EUCLEAN : -EFBIG));
		fuzz_assert(record_load_store(root, store, &again) == 0);
		fuzz_assert(rec.n == n && again.n == n && again.size == rec.size);
		return;
	}
	fuzz_assert(record_append(&rec, body) == 0);
	fuzz_assert(record_load_store(root, store, &again) == 0);
	fuzz_assert(again.n == rec.n && again.whole == RECORD_WHOLE);
	fuzz_assert(again.lines[again.n - 1].state == RECORD_LINE_INTACT);
	fuzz_assert(streq(again.lines[again.n - 1].body, body));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(sysroot_done) struct sysroot root = {};
	_cleanup_(record_done) struct record parsed = {};

	fuzz_assert(record_parse((const char *)data, size, &parsed) == 0);
	check_lines(&parsed);
	/*
	 * The file round trips for one input in 8: under ASan each load's 1 MiB read buffer
	 * costs milliseconds, and the parse above is what the bytes decide.
	 */
	if (record_crc32(data, size) % 8 != 0)
		return 0;
	fuzz_assert(sysroot_init(&root, fuzz_root()) == 0);
	for (size_t s = 0; s < ARRAY_SIZE(stores); s++) {
		_cleanup_(record_done) struct record rec = {};

		fuzz_put_file(stores[s], data, size);
		fuzz_assert(record_load_store(&root, s, &rec) == 0);
		fuzz_assert(rec.size == size && rec.n == parsed.n);
		if (rec.n > 1)
			check_rewrite(&root, s, &rec);
		fuzz_put_file(stores[s], data, size);
		check_append(&root, s);
	}
	return 0;
}
