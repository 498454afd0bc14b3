// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emitter of emit.h. JSON is built as json-c objects, so a view's document is the
 * one the builders it replaces made (same serialiser, same bytes), and a section can
 * add its members to a document others fill.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

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

static void text(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (fmt)
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
}

void emit_close_object(struct emit *e)
{
	if (wants(e, EMIT_JSON))
		close_container(e, json_type_object);
}

void emit_open_array(struct emit *e, const char *key)
{
	if (wants(e, EMIT_JSON))
		open_container(e, key, json_object_new_array());
}

void emit_close_array(struct emit *e)
{
	if (wants(e, EMIT_JSON))
		close_container(e, json_type_array);
}

void emit_string(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *v)
{
	_cleanup_(freep) char *buf = NULL;
	const char *safe;

	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, fmt, v ? v : "-");
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
		return text(e, fmt, v);
	add_made(e, key, json_object_new_int(v));
}

void emit_uint(struct emit *e, enum emit_to to, const char *key, const char *fmt, unsigned v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, fmt, v);
	add_made(e, key, json_object_new_int64(v));
}

void emit_u64(struct emit *e, enum emit_to to, const char *key, const char *fmt, uint64_t v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, fmt, v);
	add_made(e, key, json_object_new_uint64(v));
}

void emit_bool(struct emit *e, enum emit_to to, const char *key, const char *fmt, bool v)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, fmt, v ? "true" : "false");
	add_made(e, key, json_object_new_boolean(v));
}

void emit_null(struct emit *e, enum emit_to to, const char *key, const char *fmt, const char *t)
{
	if (!wants(e, to))
		return;
	if (!emit_is_json(e))
		return text(e, fmt, t);
	add(e, key, NULL);
}

void emit_textf(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	if (!wants(e, EMIT_TEXT))
		return;
	va_start(ap, fmt);
	vfprintf(e->f, fmt, ap);
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
	} else if (!e->err && ferror(e->f)) {
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
