// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Renderers only format: the report is built once by the pipeline, and the
 * table, the JSON and the summary line all read the same struct report.
 */
#include "report/sinks.h"

enum column {
	COL_VERDICT,
	COL_CHECK,
	COL_OBJECT,
	COL_EXPECTED,
	COL_ACTUAL, /* last and never padded: the long, free-form cell */
	_COL_MAX,
};

/* Cells wider than this overflow on their own row instead of widening every row. */
#define CELL_WIDTH_MAX 40
#define COLUMN_GAP     2

#define ANSI_RESET "\033[0m"

static const char *const column_titles[_COL_MAX] = {
	[COL_VERDICT] = "VERDICT",   [COL_CHECK] = "CHECK",   [COL_OBJECT] = "OBJECT",
	[COL_EXPECTED] = "EXPECTED", [COL_ACTUAL] = "ACTUAL",
};

static const char *const verdict_labels[_VERDICT_MAX] = {
	[VERDICT_PASS] = "PASS",       [VERDICT_SKIP] = "SKIP", [VERDICT_WARN] = "WARN",
	[VERDICT_UNKNOWN] = "UNKNOWN", [VERDICT_FAIL] = "FAIL",
};

/* unknown is red like fail: both make the host NOT READY; fail is bold. */
static const char *const verdict_colors[_VERDICT_MAX] = {
	[VERDICT_PASS] = "\033[32m",	[VERDICT_SKIP] = "\033[90m",   [VERDICT_WARN] = "\033[33m",
	[VERDICT_UNKNOWN] = "\033[31m", [VERDICT_FAIL] = "\033[1;31m",
};

static const char *verdict_label(enum verdict v)
{
	return v >= 0 && v < _VERDICT_MAX ? verdict_labels[v] : "INVALID";
}

static const char *verdict_color(enum verdict v)
{
	return v >= 0 && v < _VERDICT_MAX ? verdict_colors[v] : verdict_colors[VERDICT_FAIL];
}

/*
 * Cells come from the host (sysfs names, hostname, config): a control character in one
 * must neither move the operator's cursor nor break the table, and invalid UTF-8 must
 * not reach the terminal. Such a cell is escaped as a whole as docs/CONTRACT.md says
 * (text_terminal_safe: \n \r \t \\ \xNN), like the report's JSON string of it.
 */
static const char *text_clean(const char *s, char **buf)
{
	const char *t = text_terminal_safe(s, buf);

	return t ? t : "?";
}

static void fput_clean(const char *s, FILE *f)
{
	_cleanup_(freep) char *buf = NULL;

	fputs(text_clean(s, &buf), f);
}

/* Terminal columns of fput_clean's output: UTF-8 continuation bytes take none. */
static size_t text_width(const char *s)
{
	_cleanup_(freep) char *buf = NULL;
	const unsigned char *p = (const unsigned char *)text_clean(s, &buf);
	size_t w = 0;

	for (; *p; p++)
		if ((*p & 0xc0) != 0x80)
			w++;
	return w;
}

static void result_cells(const struct result *res, const char *cells[_COL_MAX])
{
	cells[COL_VERDICT] = verdict_label(res->verdict);
	cells[COL_CHECK] = res->check;
	cells[COL_OBJECT] = res->object;
	cells[COL_EXPECTED] = res->expected;
	cells[COL_ACTUAL] = res->actual;
}

static void column_widths(const struct results *rs, size_t widths[_COL_MAX])
{
	for (int c = 0; c < _COL_MAX; c++)
		widths[c] = text_width(column_titles[c]);
	for (size_t i = 0; i < rs->n; i++) {
		const char *cells[_COL_MAX];

		result_cells(&rs->items[i], cells);
		for (int c = 0; c < _COL_MAX; c++) {
			size_t w = text_width(cells[c]);

			if (w > widths[c])
				widths[c] = w > CELL_WIDTH_MAX ? CELL_WIDTH_MAX : w;
		}
	}
}

/*
 * A line made in a memstream, cleaned, to f: cut with "…" to cols columns (0: whole).
 * Takes the memstream and closes it.
 */
static int fput_line(FILE *f, FILE *m, char **buf, size_t cols)
{
	bool cut = false;
	size_t n;

	if (fclose(m) != 0)
		return -ENOMEM;
	n = cols ? text_cut(*buf, cols, &cut) : strlen(*buf);
	fwrite(*buf, 1, n, f);
	if (cut)
		fputs("…", f);
	fputc('\n', f);
	return 0;
}

/*
 * color: escape for the verdict cell, or NULL. Padding stays outside the escapes.
 * width: the line's columns at most, 0 for no limit; the verdict cell is never cut.
 */
static int print_row(FILE *f, const char *const cells[_COL_MAX], const size_t widths[_COL_MAX],
		     const char *color, size_t width)
{
	_cleanup_(freep) char *rest = NULL;
	size_t size, used = widths[COL_VERDICT] + COLUMN_GAP;
	FILE *m = open_memstream(&rest, &size);

	if (!m)
		return -ENOMEM;
	if (color)
		fputs(color, f);
	fput_clean(cells[COL_VERDICT], f);
	if (color)
		fputs(ANSI_RESET, f);
	fprintf(f, "%*s", (int)(used - text_width(cells[COL_VERDICT])), "");
	for (int c = COL_VERDICT + 1; c < COL_ACTUAL; c++) {
		size_t w = text_width(cells[c]);
		size_t pad = (w < widths[c] ? widths[c] - w : 0) + COLUMN_GAP;

		fput_clean(cells[c], m);
		fprintf(m, "%*s", (int)pad, "");
	}
	fput_clean(cells[COL_ACTUAL], m);
	return fput_line(f, m, &rest, width ? width - used : 0);
}

/* "  → remedy", cut like a row. */
static int print_remedy(FILE *f, const char *remedy, size_t width)
{
	_cleanup_(freep) char *buf = NULL;
	size_t size;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return -ENOMEM;
	fputs("  → ", m);
	fput_clean(remedy, m);
	return fput_line(f, m, &buf, width);
}

static int print_results(FILE *f, const struct results *rs, bool color, size_t width)
{
	size_t widths[_COL_MAX];
	int k;

	column_widths(rs, widths);
	k = print_row(f, column_titles, widths, NULL, width);
	if (k < 0)
		return k;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result *res = &rs->items[i];
		const char *cells[_COL_MAX];

		result_cells(res, cells);
		k = print_row(f, cells, widths, color ? verdict_color(res->verdict) : NULL, width);
		if (k < 0)
			return k;
		/* A pass needs no next step, whatever a module attached. */
		if (res->verdict == VERDICT_PASS || !res->remedy)
			continue;
		k = print_remedy(f, res->remedy, width);
		if (k < 0)
			return k;
	}
	return 0;
}

static int print_header(FILE *f, const struct report *r, size_t width)
{
	_cleanup_(freep) char *buf = NULL;
	char when[REPORT_TIME_MAX];
	size_t size;
	FILE *m;
	int k;

	k = report_format_time(r->time_sec, when, sizeof(when));
	if (k < 0)
		return k;
	m = open_memstream(&buf, &size);
	if (!m)
		return -ENOMEM;
	fputs("hostprep ", m);
	fput_clean(strempty(r->command), m);
	fputs(" on ", m);
	fput_clean(strempty(r->host), m);
	fprintf(m, " — %s", when);
	return fput_line(f, m, &buf, width);
}

int render_text(const struct report *r, FILE *f, bool color, size_t width)
{
	_cleanup_(freep) char *summary = NULL;
	int k;

	k = summary_line(r, &summary);
	if (k < 0)
		return k;
	k = print_header(f, r, width);
	if (k < 0)
		return k;
	if (r->results.n == 0)
		fputs("no checks configured\n", f);
	else {
		k = print_results(f, &r->results, color, width);
		if (k < 0)
			return k;
	}
	fprintf(f, "\n%s\n", summary);
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

int render_json(const struct report *r, FILE *f)
{
	int k;

	k = report_print_json(r, f);
	if (k < 0)
		return k;
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}
