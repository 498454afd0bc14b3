// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Renderers only format: the report is built once by the pipeline, and the
 * table, the JSON and the summary line all read the same struct report.
 */
#include <sys/ioctl.h>
#include <unistd.h>

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
/* At a fixed width: what ACTUAL may not lose to one long object or expectation. */
#define OBJECT_WIDTH_MAX   24
#define EXPECTED_WIDTH_MAX 28
/* ...and the share of the width (percent) it keeps on a narrow terminal. */
#define ACTUAL_SHARE 40
#define COLUMN_GAP   2

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

/* Terminal columns of a cleaned text (text_clean()): UTF-8 continuation bytes take none. */
static size_t clean_width(const char *t)
{
	size_t w = 0;

	for (const unsigned char *p = (const unsigned char *)t; *p; p++)
		if ((*p & 0xc0) != 0x80)
			w++;
	return w;
}

/* Terminal columns of fput_clean's output; printable ASCII, most cells, is its length. */
static size_t text_width(const char *s)
{
	_cleanup_(freep) char *buf = NULL;
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p >= 0x20 && *p < 0x7f)
		p++;
	if (p && !*p)
		return (size_t)(p - (const unsigned char *)s);
	return clean_width(text_clean(s, &buf));
}

/* n blanks: padding, without a printf per cell (five per row of a 1400-row report). */
static void fput_pad(FILE *f, size_t n)
{
	static const char blanks[] = "                                ";

	for (; n > sizeof(blanks) - 1; n -= sizeof(blanks) - 1)
		fwrite(blanks, 1, sizeof(blanks) - 1, f);
	fwrite(blanks, 1, n, f);
}

static void result_cells(const struct result *res, const char *cells[_COL_MAX])
{
	cells[COL_VERDICT] = verdict_label(res->verdict);
	cells[COL_CHECK] = res->check;
	cells[COL_OBJECT] = res->object;
	cells[COL_EXPECTED] = res->expected;
	cells[COL_ACTUAL] = res->actual;
}

/*
 * At a fixed width, OBJECT and EXPECTED have a cap so that one long cell does not take
 * ACTUAL's room on every row; ACTUAL, what people read, gets the rest.
 */
static size_t column_cap(int c, size_t width)
{
	if (!width)
		return CELL_WIDTH_MAX;
	switch (c) {
	case COL_OBJECT:
		return OBJECT_WIDTH_MAX;
	case COL_EXPECTED:
		return EXPECTED_WIDTH_MAX;
	default:
		return CELL_WIDTH_MAX;
	}
}

/*
 * On a narrow terminal the caps still leave ACTUAL too little: EXPECTED, then OBJECT, give
 * up columns (down to a floor) until ACTUAL has ACTUAL_SHARE of the width.
 */
static void give_actual_room(size_t widths[_COL_MAX], size_t width)
{
	static const struct {
		int col;
		size_t floor;
	} donors[] = { { COL_EXPECTED, 12 }, { COL_OBJECT, 12 } };
	size_t used = 0, want = width * ACTUAL_SHARE / 100;

	for (int c = 0; c < COL_ACTUAL; c++)
		used += widths[c] + COLUMN_GAP;
	for (size_t i = 0; i < ARRAY_SIZE(donors) && used + want > width; i++) {
		size_t *w = &widths[donors[i].col], give;

		if (*w <= donors[i].floor)
			continue;
		give = *w - donors[i].floor;
		if (give > used + want - width)
			give = used + want - width;
		*w -= give;
		used -= give;
	}
}

static void column_widths(const struct results *rs, size_t width, size_t widths[_COL_MAX])
{
	for (int c = 0; c < _COL_MAX; c++)
		widths[c] = text_width(column_titles[c]);
	for (size_t i = 0; i < rs->n; i++) {
		const char *cells[_COL_MAX];

		result_cells(&rs->items[i], cells);
		for (int c = 0; c < _COL_MAX; c++) {
			size_t w = text_width(cells[c]), cap = column_cap(c, width);

			if (w > widths[c])
				widths[c] = w > cap ? cap : w;
		}
	}
	if (width)
		give_actual_room(widths, width);
}

/* A pass or a skip: its ACTUAL is cut at the width (a problem's wraps: it is what is read). */
static void fput_cut(FILE *f, const char *s, size_t at, size_t width)
{
	_cleanup_(freep) char *buf = NULL;
	const char *t = text_clean(s, &buf);
	bool cut = false;
	size_t n = width > at ? text_cut(t, width - at, &cut) : strlen(t);

	fwrite(t, 1, n, f);
	fputs(cut ? "…\n" : "\n", f);
}

/*
 * The cleaned text s from column at, wrapped at spaces to width columns (0: one line);
 * continuation lines start at column indent. Nothing is cut: a word wider than the room
 * (a kernel argument in a remedy) stays whole on its line, to be copied as it is.
 */
static void fput_wrapped(FILE *f, const char *s, size_t at, size_t indent, size_t width)
{
	_cleanup_(freep) char *buf = NULL;
	const char *t = text_clean(s, &buf);
	size_t room = width > at + 10 ? width - at : 10;
	bool cut;

	/* text_cut() looks at room columns, not the whole rest: a line of thousands of
	 * addresses is wrapped in linear time (text_width() of the rest each time was
	 * quadratic: 60% of a 4096-function check) */
	while (width && (text_cut(t, room, &cut), cut)) {
		size_t n = text_cut(t, room + 1, &cut), keep = n; /* +1: no "…" here */

		while (keep > 0 && t[keep] != ' ')
			keep--;
		if (keep == 0)
			keep = strcspn(t, " ");
		if (!t[keep])
			break;
		fwrite(t, 1, keep, f);
		fputc('\n', f);
		fput_pad(f, indent);
		t += keep;
		t += strspn(t, " ");
		room = width > indent + 10 ? width - indent : 10;
	}
	fputs(t, f);
	fputc('\n', f);
}

/*
 * A cell padded to its column. A wider one: EXPECTED is cut with "…" (the JSON keeps it;
 * it is the config's wish, not what failed); CHECK and OBJECT, which say what failed, are
 * printed whole and the row goes on below, at the next column. *at: the current column.
 */
static void print_cell(FILE *f, int c, const char *cell, const size_t widths[_COL_MAX],
		       size_t width, size_t *at)
{
	_cleanup_(freep) char *buf = NULL;
	const char *t = text_clean(cell, &buf);
	size_t w = clean_width(t);

	if (w > widths[c] && width && c == COL_EXPECTED) {
		bool cut;

		fwrite(t, 1, text_cut(t, widths[c], &cut), f);
		fputs("…", f);
		w = widths[c];
	} else
		fputs(t, f);
	if (w > widths[c] && width) {
		*at += widths[c] + COLUMN_GAP;
		fputc('\n', f);
		fput_pad(f, *at);
		return;
	}
	fput_pad(f, (w < widths[c] ? widths[c] - w : 0) + COLUMN_GAP);
	*at += (w > widths[c] ? w : widths[c]) + COLUMN_GAP;
}

/*
 * color: escape for the verdict cell, or NULL. Padding stays outside the escapes.
 * width: the line's columns at most, 0 for no limit; ACTUAL wraps below its column.
 */
static int print_row(FILE *f, const char *const cells[_COL_MAX], const size_t widths[_COL_MAX],
		     const char *color, bool wrap, size_t width)
{
	size_t at = widths[COL_VERDICT] + COLUMN_GAP, actual_at = at, w;

	if (color)
		fputs(color, f);
	fput_clean(cells[COL_VERDICT], f);
	if (color)
		fputs(ANSI_RESET, f);
	w = text_width(cells[COL_VERDICT]);
	fput_pad(f, at > w ? at - w : 0);
	for (int c = COL_VERDICT + 1; c < COL_ACTUAL; c++) {
		print_cell(f, c, cells[c], widths, width, &at);
		actual_at += widths[c] + COLUMN_GAP;
	}
	if (wrap)
		fput_wrapped(f, cells[COL_ACTUAL], at, actual_at, width);
	else
		fput_cut(f, cells[COL_ACTUAL], at, width);
	return 0;
}

/* "  → remedy", wrapped below the arrow. */
static void print_remedy(FILE *f, const char *remedy, size_t width)
{
	fputs("  → ", f);
	fput_wrapped(f, remedy, 4, 4, width);
}

/*
 * Results of one cause: one row, the other objects, each distinct remedy once. The
 * groups are indexed once (sorted by verdict, cause, position): a cause shared by 1,400
 * ports is one pass, not one scan of every result per row (quadratic: 20% of a
 * 4096-function check).
 */
struct cause_groups {
	size_t *first; /* first[i]: the first result of i's group (i itself when none) */
	size_t *next;  /* next[i]: the next result of i's group, SIZE_MAX after the last */
};

static bool same_cause(const struct result *a, const struct result *b)
{
	return a->verdict == b->verdict && a->cause && b->cause && streq(a->cause, b->cause);
}

static int cmp_cause(const void *x, const void *y, void *userdata)
{
	const struct results *rs = userdata;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct result *a = &rs->items[i], *b = &rs->items[j];
	int c = (int)a->verdict - (int)b->verdict;

	if (!c)
		c = strcmp(a->cause, b->cause);
	return c ? c : (i > j) - (i < j);
}

static void cause_groups_done(struct cause_groups *g)
{
	free(g->first);
	free(g->next);
}

static int cause_groups_build(const struct results *rs, struct cause_groups *g)
{
	_cleanup_(freep) size_t *idx = calloc(rs->n + 1, sizeof(*idx));
	size_t n = 0;

	g->first = calloc(rs->n + 1, sizeof(*g->first));
	g->next = calloc(rs->n + 1, sizeof(*g->next));
	if (!idx || !g->first || !g->next)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++) {
		g->first[i] = i;
		g->next[i] = SIZE_MAX;
		if (rs->items[i].cause)
			idx[n++] = i;
	}
	qsort_r(idx, n, sizeof(*idx), cmp_cause, (void *)rs);
	for (size_t k = 1; k < n; k++)
		if (same_cause(&rs->items[idx[k - 1]], &rs->items[idx[k]])) {
			g->first[idx[k]] = g->first[idx[k - 1]];
			g->next[idx[k - 1]] = idx[k];
		}
	return 0;
}

static int print_others(FILE *f, const struct results *rs, const struct cause_groups *g,
			size_t first, size_t width)
{
	_cleanup_(freep) char *buf = NULL;
	size_t size, n = 0;
	FILE *m = open_memstream(&buf, &size);
	int at;

	if (!m)
		return -ENOMEM;
	for (size_t k = g->next[first]; k != SIZE_MAX; k = g->next[k]) {
		/* cleaned when printed; ", " since an object may hold spaces */
		fprintf(m, "%s%s", n ? ", " : " ", rs->items[k].object);
		n++;
	}
	if (fclose(m) != 0)
		return -ENOMEM;
	if (!n)
		return 0;
	at = fprintf(f, "  + %zu more (%s):", n, rs->items[first].cause); /* ASCII */
	fput_wrapped(f, buf, at > 0 ? (size_t)at : 0, 4, width);
	return 0;
}

struct remedy_sort {
	const struct results *rs;
	const size_t *members;
};

/* Positions in members, by remedy, then position. */
static int cmp_remedy(const void *x, const void *y, void *userdata)
{
	const struct remedy_sort *s = userdata;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(s->rs->items[s->members[i]].remedy, s->rs->items[s->members[j]].remedy);

	return c ? c : (i > j) - (i < j);
}

/*
 * members: the group's results with a remedy, in order; dup[m]: members[m]'s remedy is an
 * earlier member's (sorted once: every member's remedy may differ, each naming its port).
 */
static int remedies_dup(const struct results *rs, const struct cause_groups *g, size_t first,
			bool **ret_dup, size_t **ret_members, size_t *ret_n)
{
	_cleanup_(freep) size_t *order = NULL;
	size_t n = 0, *members;
	bool *dup;

	for (size_t k = first; k != SIZE_MAX; k = g->next[k])
		n += rs->items[k].remedy != NULL;
	members = calloc(n + 1, sizeof(*members));
	order = calloc(n + 1, sizeof(*order));
	dup = calloc(n + 1, sizeof(*dup));
	if (!members || !order || !dup) {
		free(members);
		free(dup);
		return -ENOMEM;
	}
	n = 0;
	for (size_t k = first; k != SIZE_MAX; k = g->next[k])
		if (rs->items[k].remedy)
			members[n++] = k;
	for (size_t m = 0; m < n; m++)
		order[m] = m;
	qsort_r(order, n, sizeof(*order), cmp_remedy,
		&(struct remedy_sort){ .rs = rs, .members = members });
	for (size_t m = 1; m < n; m++)
		dup[order[m]] = streq(rs->items[members[order[m - 1]]].remedy,
				      rs->items[members[order[m]]].remedy);
	*ret_dup = dup;
	*ret_members = members;
	*ret_n = n;
	return 0;
}

static int print_remedies(FILE *f, const struct results *rs, const struct cause_groups *g,
			  size_t first, size_t width)
{
	_cleanup_(freep) bool *dup = NULL;
	_cleanup_(freep) size_t *members = NULL;
	size_t n;
	int r;

	/* A pass needs no next step, whatever a module attached. */
	if (rs->items[first].verdict == VERDICT_PASS)
		return 0;
	r = remedies_dup(rs, g, first, &dup, &members, &n);
	if (r < 0)
		return r;
	for (size_t m = 0; m < n; m++)
		if (!dup[m])
			print_remedy(f, rs->items[members[m]].remedy, width);
	return 0;
}

static int print_results(FILE *f, const struct results *rs, bool color, size_t width)
{
	_cleanup_(cause_groups_done) struct cause_groups g = {};
	size_t widths[_COL_MAX];
	int k;

	k = cause_groups_build(rs, &g);
	if (k < 0)
		return k;
	column_widths(rs, width, widths);
	k = print_row(f, column_titles, widths, NULL, false, width);
	for (size_t i = 0; i < rs->n && k >= 0; i++) {
		const struct result *res = &rs->items[i];
		const char *cells[_COL_MAX];

		/* -v (no width) prints every result on its own row */
		if (width && res->verdict != VERDICT_PASS && g.first[i] != i)
			continue;
		result_cells(res, cells);
		k = print_row(f, cells, widths, color ? verdict_color(res->verdict) : NULL,
			      res->verdict > VERDICT_SKIP, width);
		if (k >= 0 && width && res->verdict != VERDICT_PASS)
			k = print_others(f, rs, &g, i, width);
		if (k >= 0 && width)
			k = print_remedies(f, rs, &g, i, width);
		else if (k >= 0 && res->verdict != VERDICT_PASS && res->remedy)
			print_remedy(f, res->remedy, width);
	}
	return k;
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

size_t render_width(int fd)
{
	const char *e = getenv("COLUMNS");
	struct winsize ws = {};
	unsigned long n;
	char *end;

	/* COLUMNS first, as systemd and ls: a pager or a script names the width it has */
	if (e && *e) {
		errno = 0;
		n = strtoul(e, &end, 10);
		if (!errno && !*end && n >= TABLE_WIDTH_MIN && n <= 4096)
			return n;
	}
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= TABLE_WIDTH_MIN)
		return ws.ws_col;
	return TABLE_WIDTH_MAX;
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
