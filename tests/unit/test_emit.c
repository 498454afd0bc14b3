// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text/JSON emitter: one call per field goes to the output that is open, a field
 * marked for one output never reaches the other, names from the host come out as valid
 * JSON, and a misnested view is an error rather than a wrong document.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <string.h>

#include "core/emit.h"
#include "core/macro.h"

#define FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* One view, written once: a port with text-only and JSON-only fields. */
static void view(struct emit *e, const char *name, bool up)
{
	emit_open_array(e, "ports");
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "name", "%-6s", name);
	emit_uint(e, EMIT_ANY, "port", " %u", 1);
	emit_int(e, EMIT_JSON, "numa", NULL, -1);
	emit_bool(e, EMIT_ANY, "up", " up=%s", up);
	emit_u64(e, EMIT_JSON, "mbps", NULL, UINT64_C(400000));
	emit_string(e, EMIT_TEXT, "ignored", " (%s)", "text only");
	emit_null(e, EMIT_ANY, "mtu", " mtu %s", "-");
	emit_string(e, EMIT_ANY, "bond", " bond %s", NULL);
	emit_textf(e, "\n");
	emit_close_object(e);
	emit_close_array(e);
}

static char *as_text(const char *name, bool up)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emit e;

	assert_non_null(f);
	emit_init_text(&e, f);
	view(&e, name, up);
	assert_int_equal(emit_done(&e), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *as_json(const char *name, bool up)
{
	struct json_object *doc;
	struct emit e;
	char *s;

	assert_int_equal(emit_init_json(&e), 0);
	view(&e, name, up);
	doc = emit_take_json(&e);
	assert_non_null(doc);
	assert_int_equal(emit_done(&e), 0);
	s = strdup(json_object_to_json_string_ext(doc, FLAGS));
	json_object_put(doc);
	return s;
}

static void test_text(void **state)
{
	_cleanup_(freep) char *t = as_text("mlx5_0", true);

	/* the JSON-only fields (numa, mbps) are not in it; NULL prints as "-" */
	assert_string_equal(t, "mlx5_0 1 up=true (text only) mtu - bond -\n");
}

static void test_json(void **state)
{
	_cleanup_(freep) char *j = as_json("mlx5_0", false);

	/* the text-only field is not in it; NULL and emit_null() are null */
	assert_string_equal(j, "{\"ports\":[{\"name\":\"mlx5_0\",\"port\":1,\"numa\":-1,"
			       "\"up\":false,\"mbps\":400000,\"mtu\":null,\"bond\":null}]}");
}

static void test_escape(void **state)
{
	/* valid UTF-8: as is, JSON escapes the quote, the backslash and the control character
	 * (a slash stays a slash) */
	_cleanup_(freep) char *ok = as_json("a\"b\\c/d\x01" "caf\xc3\xa9", true);
	/* one invalid byte: the whole name escaped as CONTRACT.md says (\\, \xNN), then JSON
	 * escapes those backslashes */
	_cleanup_(freep) char *bad = as_json("a\"b\\c\x01" "e\xff", true);
	_cleanup_(freep) char *t = as_text("caf\xc3\xa9", true);
	struct json_object *back = json_tokener_parse(bad);

	assert_non_null(strstr(ok, "\"name\":\"a\\\"b\\\\c/d\\u0001caf\xc3\xa9\","));
	assert_non_null(strstr(bad, "\"name\":\"a\\\"b\\\\\\\\c\\\\x01e\\\\xff\","));
	assert_non_null(back); /* valid JSON, valid UTF-8 */
	json_object_put(back);
	assert_string_equal(t, "caf\xc3\xa9  1 up=true (text only) mtu - bond -\n");
}

static void test_into(void **state)
{
	struct json_object *doc = json_object_new_object();
	struct emit e;

	json_object_object_add(doc, "schema", json_object_new_int(1));
	emit_init_json_into(&e, doc);
	emit_string(&e, EMIT_ANY, "kind", "%s", "gpu");
	assert_null(emit_take_json(&e)); /* the caller's document is not the emitter's to give */
	assert_int_equal(emit_done(&e), 0);
	assert_string_equal(json_object_to_json_string_ext(doc, FLAGS),
			    "{\"schema\":1,\"kind\":\"gpu\"}");
	json_object_put(doc);
}

static void test_misnested(void **state)
{
	struct emit e;

	/* a field without a key in an object */
	assert_int_equal(emit_init_json(&e), 0);
	emit_string(&e, EMIT_ANY, NULL, "%s", "x");
	assert_null(emit_take_json(&e));
	assert_int_equal(emit_done(&e), -EINVAL);

	/* a keyed field in an array, and everything after the first error is dropped */
	assert_int_equal(emit_init_json(&e), 0);
	emit_open_array(&e, "a");
	emit_uint(&e, EMIT_ANY, "k", "%u", 1);
	emit_close_array(&e);
	assert_int_equal(emit_done(&e), -EINVAL);

	/* closing what is not open, the document itself included */
	assert_int_equal(emit_init_json(&e), 0);
	emit_open_object(&e, "o");
	emit_close_array(&e);
	assert_int_equal(emit_done(&e), -EINVAL);
	assert_int_equal(emit_init_json(&e), 0);
	emit_close_object(&e);
	assert_int_equal(emit_done(&e), -EINVAL);

	/* a container left open */
	assert_int_equal(emit_init_json(&e), 0);
	emit_open_object(&e, "o");
	assert_null(emit_take_json(&e));
	assert_int_equal(emit_done(&e), -EINVAL);

	/* too deep */
	assert_int_equal(emit_init_json(&e), 0);
	for (int i = 0; i < EMIT_DEPTH_MAX; i++)
		emit_open_array(&e, i ? NULL : "a");
	assert_int_equal(emit_done(&e), -EINVAL);
}

/* Text: containers print nothing, and a write error is the result. */
static void test_text_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct emit e;

	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	emit_init_text(&e, f);
	emit_open_object(&e, "x");
	emit_close_array(&e); /* no structure in text: not an error there */
	emit_textf(&e, "line\n");
	assert_int_equal(emit_done(&e), -EIO);
	fclose(f);
}

/* ---- tables ---- */

static const struct emit_column cols[] = {
	{ "DEVICE", "name" },
	{ "PORT", "port" },
	{ "STATE", "state" },
	{ "BOARD", "board" },
};

/* Two devices, the first with two ports (its cells on both rows), the second with none. */
static void table_view(struct emit *e)
{
	emit_table_open(e, "devices", cols, ARRAY_SIZE(cols));
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "name", "%s", "mlx5_bond_0");
	emit_string(e, EMIT_ANY, "board", "%s", NULL); /* "-" and null */
	emit_open_array(e, "ports");
	for (unsigned p = 1; p <= 2; p++) {
		emit_open_object(e, NULL);
		emit_uint(e, EMIT_ANY, "port", "%u", p);
		if (p == 1) { /* port 2 sets no state: port 1's is gone with its object */
			emit_string(e, EMIT_JSON, "state", NULL, "ACTIVE");
			emit_cellf(e, "state", "%s/%s", "ACTIVE", "LinkUp");
		}
		emit_table_row(e);
		emit_close_object(e);
	}
	emit_close_array(e);
	emit_close_object(e);
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "name", "%s", "mlx5_\x1b"); /* escaped in its cell */
	emit_string(e, EMIT_JSON, "error", NULL, "gone");    /* JSON only: needs no column */
	emit_string(e, EMIT_ANY, "board", "%s", "MT_0000000838");
	emit_table_row(e); /* no ports: a row of the device's cells */
	emit_close_object(e);
	emit_table_close(e);
}

/* Nothing to list: the view's line, and no table (not even its titles). */
static void empty_view(struct emit *e)
{
	emit_textf(e, "No devices.\n");
	emit_table_open(e, "devices", cols, ARRAY_SIZE(cols));
	emit_table_close(e);
}

static char *text_of(void (*fn)(struct emit *e))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emit e;

	assert_non_null(f);
	emit_init_text(&e, f);
	fn(&e);
	assert_int_equal(emit_done(&e), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *json_of(void (*fn)(struct emit *e))
{
	struct json_object *doc;
	struct emit e;
	char *s;

	assert_int_equal(emit_init_json(&e), 0);
	fn(&e);
	doc = emit_take_json(&e);
	assert_non_null(doc);
	assert_int_equal(emit_done(&e), 0);
	s = strdup(json_object_to_json_string_ext(doc, FLAGS));
	json_object_put(doc);
	return s;
}

static void test_table(void **state)
{
	_cleanup_(freep) char *t = text_of(table_view);
	_cleanup_(freep) char *j = json_of(table_view);

	/* DEVICE as wide as mlx5_bond_0, PORT as its title, STATE as ACTIVE/LinkUp (the
	 * escaped name counted as printed); the last column not padded */
	assert_string_equal(t, "DEVICE       PORT  STATE          BOARD\n"
			       "mlx5_bond_0  1     ACTIVE/LinkUp  -\n"
			       "mlx5_bond_0  2     -              -\n"
			       "mlx5_\\x1b    -     -              MT_0000000838\n");
	assert_string_equal(j, "{\"devices\":[{\"name\":\"mlx5_bond_0\",\"board\":null,"
			       "\"ports\":[{\"port\":1,\"state\":\"ACTIVE\"},{\"port\":2}]},"
			       "{\"name\":\"mlx5_\\u001b\",\"error\":\"gone\","
			       "\"board\":\"MT_0000000838\"}]}");
}

static void test_table_empty(void **state)
{
	_cleanup_(freep) char *t = text_of(empty_view);
	_cleanup_(freep) char *j = json_of(empty_view);

	assert_string_equal(t, "No devices.\n");
	assert_string_equal(j, "{\"devices\":[]}");
}

/* In text, a table used wrongly is -EINVAL, and emit_done() frees what it held. */
static void test_table_misused(void **state)
{
	FILE *f = fopen("/dev/null", "w");
	struct emit e;

	assert_non_null(f);
	for (int i = 0; i < 7; i++) {
		emit_init_text(&e, f);
		if (i != 5)
			emit_table_open(&e, "t", cols, ARRAY_SIZE(cols));
		emit_open_object(&e, NULL);
		emit_string(&e, EMIT_ANY, "name", "%s", "x");
		emit_table_row(&e);
		switch (i) {
		case 0: /* a text field with no column */
			emit_string(&e, EMIT_ANY, "nope", "%s", "x");
			break;
		case 1: /* a line amid the rows */
			emit_textf(&e, "line\n");
			break;
		case 2: /* a table in a table */
			emit_table_open(&e, "u", cols, ARRAY_SIZE(cols));
			break;
		case 3: /* closed with an object open in it */
			emit_table_close(&e);
			break;
		case 4: /* closing more than was opened in it */
			emit_close_object(&e);
			emit_close_array(&e);
			break;
		case 5: /* a row without a table (above) */
			break;
		case 6: /* left open */
			emit_close_object(&e);
			break;
		}
		assert_int_equal(emit_done(&e), -EINVAL);
	}
	emit_init_text(&e, f); /* a cell without a table */
	emit_cellf(&e, "name", "%s", "x");
	assert_int_equal(emit_done(&e), -EINVAL);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),	      cmocka_unit_test(test_json),
		cmocka_unit_test(test_escape),	      cmocka_unit_test(test_into),
		cmocka_unit_test(test_misnested),     cmocka_unit_test(test_text_error),
		cmocka_unit_test(test_table),	      cmocka_unit_test(test_table_empty),
		cmocka_unit_test(test_table_misused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
