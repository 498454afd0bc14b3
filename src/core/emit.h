/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/json-util.h"

/*
 * One call per field for a view that is text or JSON (the shape of iproute2's
 * json_print.h, without its global writer): each emit_*() names the field once, with its
 * JSON key and its text format, and goes to whichever output the emitter was opened for.
 * EMIT_ANY writes to both kinds, EMIT_TEXT only to text, EMIT_JSON only to JSON: a view
 * whose text and JSON do not hold the same fields says so at the field.
 *
 * Text: fmt is printf()'d with the value (a NULL string prints as "-"); containers print
 * nothing. JSON: the value goes under key into the open object, or is appended to the
 * open array (key NULL); a NULL string is null; strings are made valid UTF-8 as
 * text_json_safe() does (names from the host may hold any byte). Errors are sticky:
 * the calls return nothing and emit_done() says the first one.
 */
enum emit_to {
	EMIT_TEXT = 1 << 0,
	EMIT_JSON = 1 << 1,
	EMIT_ANY = EMIT_TEXT | EMIT_JSON,
};

#define EMIT_DEPTH_MAX 16

struct emit_table;

struct emit {
	FILE *f;				   /* text: where it goes */
	struct json_object *stack[EMIT_DEPTH_MAX]; /* JSON: [0] the document, then the open ones */
	unsigned depth;				   /* JSON: entries in stack */
	bool borrowed;				   /* JSON: stack[0] is the caller's */
	struct emit_table *table;		   /* text: the table being filled */
	int err;
};

/* Text into f. */
void emit_init_text(struct emit *e, FILE *f);
/* JSON: a new document (an object), taken by emit_take_json(). */
int emit_init_json(struct emit *e);
/* JSON: members added to the caller's object doc (which stays the caller's). */
void emit_init_json_into(struct emit *e, struct json_object *doc);

static inline bool emit_is_json(const struct emit *e)
{
	return e->f == NULL;
}

void emit_open_object(struct emit *e, const char *key);
void emit_close_object(struct emit *e);
void emit_open_array(struct emit *e, const char *key);
void emit_close_array(struct emit *e);

void emit_string(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *v);
/* fmt's conversion is the value's type: %d, %u, %" PRIu64 ". */
void emit_int(struct emit *e, enum emit_to to, const char *key, const char *fmt, int v);
void emit_uint(struct emit *e, enum emit_to to, const char *key, const char *fmt, unsigned v);
void emit_u64(struct emit *e, enum emit_to to, const char *key, const char *fmt, uint64_t v);
/* Text: fmt with "true" or "false". */
void emit_bool(struct emit *e, enum emit_to to, const char *key, const char *fmt, bool v);
/* JSON null; text: fmt with text (what the view prints for "none": "-", "N/A"). */
void emit_null(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *text);
/* Text only, no field: the view's headings, separators and line ends (not inside a table). */
void emit_textf(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A table: one row per record in text, the same records as an array in JSON.
 *
 * Text: inside a table a field's text goes into the cell of the column whose key is the
 * field's (a text field with no column is -EINVAL), so one call still names the JSON
 * member and the cell. A cell belongs to the object (or array) it was set in and stays
 * for every row until that closes: a device's cells repeat on each of its ports' rows.
 * emit_table_row() takes the cells set now as a row (a cell not set is "-"); the table is
 * printed when it closes: a line of titles, each column as wide as its widest cell, two
 * spaces between, cells escaped as text_terminal_safe() does. A table without rows prints
 * nothing (the view says why above it). No table inside a table.
 *
 * JSON: emit_table_open() is emit_open_array(key), emit_table_close() closes it, a row
 * and a cell are nothing.
 */
struct emit_column {
	const char *title; /* text heading */
	const char *key;   /* the field that fills it */
};

void emit_table_open(struct emit *e, const char *key, const struct emit_column *cols, size_t n);
void emit_table_row(struct emit *e);
void emit_table_close(struct emit *e);
/* Text only: the cell of column key, printf()'d (a cell the JSON holds otherwise or not). */
void emit_cellf(struct emit *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The first error (-ENOMEM, -EINVAL for a misnested call, -EIO for text); frees what
 * emit_take_json() did not take. */
int emit_done(struct emit *e);
/* The JSON document (NULL after an error, then emit_done() says why); the caller owns it. */
struct json_object *emit_take_json(struct emit *e);
