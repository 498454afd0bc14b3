// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emitter of emit.h. JSON is built as json-c objects, so a view's document is the
 * one the builders it replaces made (same serialiser, same bytes), and a section can
 * add its members to a document others fill.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "core/macro.h"
#include "core/result.h"

void emit_init_text(struct emit *e, FILE *f)
{
	*e = (struct emit){ .f = f };
}

int emit_init_json(struct emit *e)
{
	*e = (struct emit){ .depth = 1 };
	e->stack[0] = json_object_new_object();
	if (!e->stack[0])
		e->err = -ENOMEM;
	return e->err;
}

void emit_init_json_into(struct emit *e, struct json_object *doc)
{
	*e = (struct emit){ .depth = 1, .borrowed = true };
	e->stack[0] = doc;
}

static bool wants(const struct emit *e, enum emit_to to)
{
	if (e->err)
		return false;
	return emit_is_json(e) ? to & EMIT_JSON : to & EMIT_TEXT;
}

static void fail(struct emit *e, int err)
{
	if (!e->err)
		e->err = err;
}

/* Adds v (taken; NULL is null) under key to the open object, or to the open array. */
static void add(struct emit *e, const char *key, struct json_object *v)
{
	struct json_object *top = e->depth ? e->stack[e->depth - 1] : NULL;
	int r = -EINVAL;

	if (top && json_object_is_type(top, json_type_array) && !key)
		r = json_object_array_add(top, v) < 0 ? -ENOMEM : 0;
	else if (top && json_object_is_type(top, json_type_object) && key)
		r = json_object_object_add(top, key, v) < 0 ? -ENOMEM : 0;
	if (r < 0) {
		json_object_put(v);
		fail(e, r);
	}
}

/* A value that could not be made is ENOMEM, not a null. */
static void add_made(struct emit *e, const char *key, struct json_object *v)
{
	if (!v)
		return fail(e, -ENOMEM);
	add(e, key, v);
}

/* ---- text tables ---- */

struct emit_table {
	const struct emit_column *cols;
	size_t n_cols;
	unsigned depth; /* containers open inside the table */
	char **rows;	/* n_rows * n_cols cells, NULL for none */
	size_t n_rows;
	struct {
		char *s;	/* NULL: not set */
		unsigned depth; /* the container it was set in */
	} cell[];		/* n_cols: the row being filled */
};

static void table_free(struct emit_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_cols; i++)
		free(t->cell[i].s);
	for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
		free(t->rows[i]);
	free(t->rows);
	free(t);
}

/* The cell of column key is s (taken), escaped for the terminal. */
static void table_set(struct emit *e, const char *key, char *s)
{
	struct emit_table *t = e->table;
	char *buf = NULL;
	const char *safe = text_terminal_safe(s, &buf);
	size_t c = 0;

	while (key && c < t->n_cols && !streq(t->cols[c].key, key))
		c++;
	if (!safe || !key || c == t->n_cols) {
		free(buf);
		free(s);
		return fail(e, safe ? -EINVAL : -ENOMEM); /* -EINVAL: a text field with no column */
	}
	if (buf) { /* escaped: safe is buf */
		free(s);
		s = buf;
	}
	free(t->cell[c].s);
	t->cell[c].s = s;
	t->cell[c].depth = t->depth;
}

static void vcell(struct emit *e, const char *key, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return fail(e, -ENOMEM);
	table_set(e, key, s);
}

/* Text: a container opened or closed in a table; closing one drops the cells set in it. */
static void table_nest(struct emit *e, bool open)
{
	struct emit_table *t = e->table;

	if (!t || !wants(e, EMIT_TEXT))
		return;
	if (open)
		return (void)t->depth++;
	if (!t->depth)
		return fail(e, -EINVAL);
	for (size_t c = 0; c < t->n_cols; c++) {
		if (t->cell[c].depth >= t->depth) {
			free(t->cell[c].s);
			t->cell[c].s = NULL;
		}
	}
	t->depth--;
}

static void table_print(struct emit *e)
{
	const struct emit_table *t = e->table;
	_cleanup_(freep) size_t *width = calloc(t->n_cols, sizeof(*width));

	if (!width)
		return fail(e, -ENOMEM);
	for (size_t c = 0; c < t->n_cols; c++) {
		width[c] = strlen(t->cols[c].title);
		for (size_t i = 0; i < t->n_rows; i++) {
			const char *v = t->rows[i * t->n_cols + c];

			if (v && strlen(v) > width[c])
				width[c] = strlen(v);
		}
	}
	for (size_t i = 0; i <= t->n_rows; i++) { /* the titles, then the rows */
		for (size_t c = 0; c < t->n_cols; c++) {
			const char *v = i ? t->rows[(i - 1) * t->n_cols + c] : t->cols[c].title;

			if (c + 1 < t->n_cols)
				fprintf(e->f, "%-*s  ", (int)width[c], v ? v : "-");
			else
				fprintf(e->f, "%s\n", v ? v : "-");
		}
	}
}

/* Text: fmt with the field's value, into the stream or, in a table, key's cell. */
static void text(struct emit *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void text(struct emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!fmt)
		return;
	va_start(ap, fmt);
	if (e->table)
		vcell(e, key, fmt, ap);
	else
		vfprintf(e->f, fmt, ap);
	va_end(ap);
}

static void open_container(struct emit *e, const char *key, struct json_object *c)
{
	if (!c)
		return fail(e, -ENOMEM);
	if (e->depth >= EMIT_DEPTH_MAX) {
		json_object_put(c);
		return fail(e, -EINVAL);
	}
	add(e, key, json_object_get(c)); /* one reference in the parent, one on the stack */
	if (e->err) {
		json_object_put(c);
		return;
	}
	e->stack[e->depth++] = c;
}

static void close_container(struct emit *e, enum json_type type)
{
	if (e->depth < 2 || !json_object_is_type(e->stack[e->depth - 1], type))
		return fail(e, -EINVAL);
	json_object_put(e->stack[--e->depth]);
}

void emit_open_object(struct emit *e, const char *key)
{
	if (wants(e, EMIT_JSON))
		open_container(e, key, json_object_new_object());
	else
		table_nest(e, true);
}

void emit_close_object(struct emit *e)
{
	if (wants(e, EMIT_JSON))
		close_container(e, json_type_object);
	else
		table_nest(e, false);
}

void emit_open_array(struct emit *e, const char *key)
{
	if (wants(e, EMIT_JSON))
		open_container(e, key, json_object_new_array());
	else
		table_nest(e, true);
}

void emit_close_array(struct emit *e)
{
	if (wants(e, EMIT_JSON))
		close_container(e, json_type_array);
	else
		table_nest(e, false);
}

/*
 * Text: fmt "before%safter" with v, as printf() writes it but without parsing fmt (the
 * common field: a view with many lines calls this a few times a line). False, having
 * written nothing, for any other fmt.
 */
static bool text_plain(struct emit *e, const char *fmt, const char *v)
{
	const char *conv = fmt ? strchr(fmt, '%') : NULL;

	if (e->table || !conv || conv[1] != 's' || strchr(conv + 2, '%'))
		return false;
	fwrite(fmt, 1, (size_t)(conv - fmt), e->f);
	fputs(v, e->f);
	fputs(conv + 2, e->f);
	return true;
}

void emit_string(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *v)
{
	_cleanup_(freep) char *buf = NULL;
	const char *safe;

	if (!wants(e, to))
		return;
	if (!emit_is_json(e)) {
		if (text_plain(e, fmt, v ? v : "-"))
			return;
		return text(e, key, fmt, v ? v : "-");
	}
	if (!v)
		return add(e, key, NULL);
	safe = text_json_safe(v, &buf);
	add_made(e, key, safe ? json_object_new_string(safe) : NULL);
}

void emit_int(struct emit *e, enum emit_to to, const char *key, const char *fmt, int v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, key, fmt, v);
	add_made(e, key, json_object_new_int(v));
}

void emit_uint(struct emit *e, enum emit_to to, const char *key, const char *fmt, unsigned v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, key, fmt, v);
	add_made(e, key, json_object_new_int64(v));
}

void emit_u64(struct emit *e, enum emit_to to, const char *key, const char *fmt, uint64_t v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, key, fmt, v);
	add_made(e, key, json_object_new_uint64(v));
}

void emit_bool(struct emit *e, enum emit_to to, const char *key, const char *fmt, bool v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, key, fmt, v ? "true" : "false");
	add_made(e, key, json_object_new_boolean(v));
}

void emit_null(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *t)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, key, fmt, t);
	add(e, key, NULL);
}

void emit_textf(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	if (!wants(e, EMIT_TEXT))
		return;
	if (e->table)
		return fail(e, -EINVAL); /* a line in a table would break its columns */
	/* a line end, a heading: nothing to format */
	if (!strchr(fmt, '%'))
		return (void)fputs(fmt, e->f);
	va_start(ap, fmt);
	vfprintf(e->f, fmt, ap);
	va_end(ap);
}

void emit_table_open(struct emit *e, const char *key, const struct emit_column *cols, size_t n)
{
	struct emit_table *t;

	if (wants(e, EMIT_JSON))
		return emit_open_array(e, key);
	if (!wants(e, EMIT_TEXT))
		return;
	if (e->table || !n)
		return fail(e, -EINVAL);
	t = calloc(1, sizeof(*t) + n * sizeof(t->cell[0]));
	if (!t)
		return fail(e, -ENOMEM);
	t->cols = cols;
	t->n_cols = n;
	e->table = t; /* freed by emit_table_close() or emit_done() */
}

void emit_table_row(struct emit *e)
{
	struct emit_table *t = e->table;
	char **grown;

	if (!wants(e, EMIT_TEXT))
		return;
	if (!t)
		return fail(e, -EINVAL);
	grown = reallocarray(t->rows, (t->n_rows + 1) * t->n_cols, sizeof(*grown));
	if (!grown)
		return fail(e, -ENOMEM);
	t->rows = grown;
	for (size_t c = 0; c < t->n_cols; c++) {
		char **v = &grown[t->n_rows * t->n_cols + c];

		*v = t->cell[c].s ? strdup(t->cell[c].s) : NULL;
		if (t->cell[c].s && !*v)
			fail(e, -ENOMEM); /* the row stays whole (NULLs): free()able */
	}
	t->n_rows++;
}

void emit_table_close(struct emit *e)
{
	if (wants(e, EMIT_JSON))
		return emit_close_array(e);
	if (!wants(e, EMIT_TEXT))
		return;
	if (!e->table || e->table->depth)
		return fail(e, -EINVAL);
	if (e->table->n_rows)
		table_print(e);
	table_free(e->table);
	e->table = NULL;
}

void emit_cellf(struct emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!wants(e, EMIT_TEXT))
		return;
	if (!e->table)
		return fail(e, -EINVAL);
	va_start(ap, fmt);
	vcell(e, key, fmt, ap);
	va_end(ap);
}

static void drop(struct emit *e)
{
	while (e->depth > 1)
		json_object_put(e->stack[--e->depth]);
	if (e->depth && !e->borrowed)
		json_object_put(e->stack[0]);
	e->depth = 0;
}

int emit_done(struct emit *e)
{
	if (emit_is_json(e)) {
		if (!e->err && e->depth > 1)
			e->err = -EINVAL; /* a container left open */
		drop(e);
	} else {
		if (!e->err && e->table)
			e->err = -EINVAL; /* a table left open */
		table_free(e->table);
		e->table = NULL;
		if (!e->err && ferror(e->f))
			e->err = -EIO;
	}
	return e->err;
}

struct json_object *emit_take_json(struct emit *e)
{
	struct json_object *doc;

	if (e->err || e->depth != 1 || e->borrowed)
		return NULL;
	doc = e->stack[0];
	e->depth = 0;
	return doc;
}
