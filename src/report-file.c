// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as data: JSON (schema REPORT_SCHEMA_VERSION, docs/report-schema.md),
 * the report file, and the one-line summary every sink shares.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <time.h>

#include "fileio.h"
#include "log.h"
#include "sinks.h"

#define REPORT_FILE "hostprep/report.json"
/* Far above any real report; stops `status` from slurping a runaway file. */
#define REPORT_SIZE_MAX (16u * 1024 * 1024)
#define JSON_FLAGS \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

static void json_object_putp(struct json_object **o)
{
	json_object_put(*o); /* NULL-safe */
}

static void json_tokener_freep(struct json_tokener **t)
{
	if (*t)
		json_tokener_free(*t);
}

int report_format_time(uint64_t sec, char *buf, size_t size)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if ((uint64_t)t != sec || t < 0 || !gmtime_r(&t, &tm))
		return -EOVERFLOW;
	if (strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return -ENOBUFS;
	return 0;
}

static int parse_time(const char *s, uint64_t *ret)
{
	struct tm tm = {};
	const char *end;
	time_t t;

	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -EINVAL;
	t = timegm(&tm);
	if (t < 0) /* also timegm's error value; a report never predates 1970 */
		return -EINVAL;
	*ret = (uint64_t)t;
	return 0;
}

/* ---- building ---- */

/* Takes ownership of v, also on failure; v == NULL from a constructor means ENOMEM. */
static int json_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int json_add_string(struct json_object *o, const char *key, const char *s)
{
	return json_add(o, key, json_object_new_string(strempty(s)));
}

static struct json_object *summary_to_json(const struct summary *s)
{
	_cleanup_(json_object_putp) struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return NULL;
	/* Keys in enum order: pass, skip, warn, unknown, fail — then total. */
	for (int v = 0; v < _VERDICT_MAX && r >= 0; v++)
		r = json_add(o, verdict_to_string(v), json_object_new_int64((int64_t)s->count[v]));
	if (r >= 0)
		r = json_add(o, "total", json_object_new_int64((int64_t)s->total));
	return r < 0 ? NULL : TAKE_PTR(o);
}

static struct json_object *result_to_json(const struct result *res)
{
	_cleanup_(json_object_putp) struct json_object *o = json_object_new_object();
	int r;

	if (!o)
		return NULL;
	r = json_add_string(o, "check", res->check);
	if (r >= 0)
		r = json_add_string(o, "object", res->object);
	if (r >= 0)
		r = json_add_string(o, "expected", res->expected);
	if (r >= 0)
		r = json_add_string(o, "actual", res->actual);
	if (r >= 0)
		r = json_add_string(o, "verdict", verdict_to_string(res->verdict));
	if (r >= 0 && res->remedy)
		r = json_add_string(o, "remedy", res->remedy);
	else if (r >= 0 && json_object_object_add(o, "remedy", NULL) < 0)
		r = -ENOMEM; /* a NULL value is JSON null */
	return r < 0 ? NULL : TAKE_PTR(o);
}

static struct json_object *results_to_json(const struct results *rs)
{
	_cleanup_(json_object_putp) struct json_object *a = json_object_new_array();

	if (!a)
		return NULL;
	for (size_t i = 0; i < rs->n; i++) {
		struct json_object *o = result_to_json(&rs->items[i]);

		if (!o)
			return NULL;
		if (json_object_array_add(a, o) < 0) {
			json_object_put(o);
			return NULL;
		}
	}
	return TAKE_PTR(a);
}

/* Key order is part of the format: golden tests compare bytes. */
static int report_to_json(const struct report *rep, struct json_object **ret)
{
	_cleanup_(json_object_putp) struct json_object *o = json_object_new_object();
	char when[REPORT_TIME_MAX];
	struct summary s;
	int r;

	if (!o)
		return -ENOMEM;
	r = report_format_time(rep->time_sec, when, sizeof(when));
	if (r < 0)
		return r;
	results_summarize(&rep->results, &s);

	r = json_add(o, "schema", json_object_new_int(REPORT_SCHEMA_VERSION));
	if (r >= 0)
		r = json_add_string(o, "version", rep->version);
	if (r >= 0)
		r = json_add_string(o, "command", rep->command);
	if (r >= 0)
		r = json_add_string(o, "host", rep->host);
	if (r >= 0)
		r = json_add_string(o, "time", when);
	if (r >= 0)
		r = json_add(o, "apply", json_object_new_boolean(rep->applied));
	if (r >= 0)
		r = json_add(o, "ready", json_object_new_boolean(s.ready));
	if (r >= 0)
		r = json_add(o, "summary", summary_to_json(&s));
	if (r >= 0)
		r = json_add(o, "results", results_to_json(&rep->results));
	if (r < 0)
		return r;
	*ret = TAKE_PTR(o);
	return 0;
}

int report_to_json_string(const struct report *rep, char **ret)
{
	_cleanup_(json_object_putp) struct json_object *o = NULL;
	const char *s;
	int r;

	r = report_to_json(rep, &o);
	if (r < 0)
		return r;
	s = json_object_to_json_string_ext(o, JSON_FLAGS);
	if (!s)
		return -ENOMEM;
	if (asprintf(ret, "%s\n", s) < 0)
		return -ENOMEM;
	return 0;
}

/* ---- parsing ---- */

/*
 * Every parse error is logged here, where the offending field is known;
 * "where" is the path prefix ("" or "results[3].") for the message.
 */
static int get_field(struct json_object *o, const char *where, const char *key, enum json_type type,
		     struct json_object **ret)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return log_error_errno(EBADMSG, "Report field '%s%s' is missing.", where, key);
	if (!json_object_is_type(v, type))
		return log_error_errno(EBADMSG, "Report field '%s%s' is %s, expected %s.", where,
				       key, json_type_to_name(json_object_get_type(v)),
				       json_type_to_name(type));
	*ret = v;
	return 0;
}

static int get_string(struct json_object *o, const char *where, const char *key, const char **ret)
{
	struct json_object *v;
	int r;

	r = get_field(o, where, key, json_type_string, &v);
	if (r < 0)
		return r;
	*ret = json_object_get_string(v);
	return 0;
}

static int dup_string(struct json_object *o, const char *key, char **ret)
{
	const char *s;
	int r;

	r = get_string(o, "", key, &s);
	if (r < 0)
		return r;
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

/* remedy: a string, or null for "no next step". */
static int get_remedy(struct json_object *o, const char *where, const char **ret)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, "remedy", &v) && !v) {
		*ret = NULL;
		return 0;
	}
	return get_string(o, where, "remedy", ret);
}

static int result_from_json(struct json_object *o, size_t i, struct results *rs)
{
	const char *check, *object, *expected, *actual, *verdict, *remedy;
	char where[48];
	int r, v;

	snprintf(where, sizeof(where), "results[%zu].", i);
	if (!json_object_is_type(o, json_type_object))
		return log_error_errno(EBADMSG, "Report field 'results[%zu]' is not an object.", i);
	r = get_string(o, where, "check", &check);
	if (r >= 0)
		r = get_string(o, where, "object", &object);
	if (r >= 0)
		r = get_string(o, where, "expected", &expected);
	if (r >= 0)
		r = get_string(o, where, "actual", &actual);
	if (r >= 0)
		r = get_string(o, where, "verdict", &verdict);
	if (r >= 0)
		r = get_remedy(o, where, &remedy);
	if (r < 0)
		return r;
	v = verdict_from_string(verdict);
	if (v < 0)
		return log_error_errno(EBADMSG,
				       "Report field '%sverdict' has unknown verdict '%s'.", where,
				       verdict);
	return results_add(rs, v, check, object, expected, actual, remedy);
}

static int results_from_json(struct json_object *o, struct results *rs)
{
	struct json_object *a;
	size_t n;
	int r;

	r = get_field(o, "", "results", json_type_array, &a);
	if (r < 0)
		return r;
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		r = result_from_json(json_object_array_get_idx(a, i), i, rs);
		if (r < 0)
			return r;
	}
	return 0;
}

static int check_schema(struct json_object *o)
{
	struct json_object *v;
	int64_t schema;

	if (!json_object_object_get_ex(o, "schema", &v) || !json_object_is_type(v, json_type_int))
		return log_error_errno(
			EPROTO, "Report has no integer 'schema' field; not a hostprep report.");
	schema = json_object_get_int64(v);
	if (schema != REPORT_SCHEMA_VERSION)
		return log_error_errno(EPROTO,
				       "Report has schema %" PRId64
				       ", this hostprep reads schema %d only.",
				       schema, REPORT_SCHEMA_VERSION);
	return 0;
}

static int header_from_json(struct json_object *o, struct report *rep)
{
	struct json_object *v;
	const char *when;
	int r;

	r = dup_string(o, "version", &rep->version);
	if (r >= 0)
		r = dup_string(o, "command", &rep->command);
	if (r >= 0)
		r = dup_string(o, "host", &rep->host);
	if (r >= 0)
		r = get_string(o, "", "time", &when);
	if (r < 0)
		return r;
	if (parse_time(when, &rep->time_sec) < 0)
		return log_error_errno(
			EBADMSG, "Report field 'time' is not YYYY-MM-DDTHH:MM:SSZ: '%s'.", when);
	r = get_field(o, "", "apply", json_type_boolean, &v);
	if (r < 0)
		return r;
	rep->applied = json_object_get_boolean(v);
	return 0;
}

static int check_count(struct json_object *summary, const char *key, size_t want)
{
	struct json_object *v;
	int r;

	r = get_field(summary, "summary.", key, json_type_int, &v);
	if (r < 0)
		return r;
	if (json_object_get_int64(v) != (int64_t)want)
		return log_error_errno(EBADMSG,
				       "Report field 'summary.%s' is %" PRId64
				       " but the results hold %zu.",
				       key, json_object_get_int64(v), want);
	return 0;
}

/* "ready" and "summary" are derived; a file where they disagree with "results" is corrupt. */
static int check_derived(struct json_object *o, const struct results *rs)
{
	struct json_object *v, *summary;
	struct summary s;
	int r;

	results_summarize(rs, &s);
	r = get_field(o, "", "ready", json_type_boolean, &v);
	if (r < 0)
		return r;
	if (json_object_get_boolean(v) != s.ready)
		return log_error_errno(EBADMSG, "Report field 'ready' contradicts its results.");
	r = get_field(o, "", "summary", json_type_object, &summary);
	for (int i = 0; i < _VERDICT_MAX && r >= 0; i++)
		r = check_count(summary, verdict_to_string(i), s.count[i]);
	if (r >= 0)
		r = check_count(summary, "total", s.total);
	return r;
}

static int json_parse_whole(const char *s, struct json_object **ret)
{
	_cleanup_(json_tokener_freep) struct json_tokener *tok = json_tokener_new();
	_cleanup_(json_object_putp) struct json_object *o = NULL;
	size_t len = strlen(s), end;
	enum json_tokener_error err;

	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, s, (int)len);
	err = json_tokener_get_error(tok);
	if (err == json_tokener_continue)
		return log_error_errno(EBADMSG, "Report is truncated.");
	if (!o || err != json_tokener_success)
		return log_error_errno(EBADMSG, "Report is not valid JSON: %s.",
				       json_tokener_error_desc(err));
	end = json_tokener_get_parse_end(tok);
	if (s[end + strspn(s + end, " \t\r\n")])
		return log_error_errno(EBADMSG, "Report has trailing data after the JSON object.");
	if (!json_object_is_type(o, json_type_object))
		return log_error_errno(EBADMSG, "Report is not a JSON object.");
	*ret = TAKE_PTR(o);
	return 0;
}

int report_from_json_string(const char *s, struct report *ret)
{
	_cleanup_(json_object_putp) struct json_object *o = NULL;
	_cleanup_(report_done) struct report rep = {};
	int r;

	if (strlen(s) > INT32_MAX)
		return log_error_errno(EFBIG, "Report is too large.");
	r = json_parse_whole(s, &o);
	if (r >= 0)
		r = check_schema(o);
	if (r >= 0)
		r = header_from_json(o, &rep);
	if (r >= 0)
		r = results_from_json(o, &rep.results);
	if (r >= 0)
		r = check_derived(o, &rep.results);
	if (r < 0)
		return r;
	rep.schema = REPORT_SCHEMA_VERSION;
	*ret = rep;
	rep = (struct report){};
	return 0;
}

/* ---- the file ---- */

/* Neither logs I/O errors: the caller decides whether a missing report file is fatal. */
int report_write(const struct report *rep, const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, REPORT_FILE);
	_cleanup_(freep) char *dir = NULL, *json = NULL;
	int r;

	if (!path)
		return -ENOMEM;
	dir = strndup(path, strrchr(path, '/') - path);
	if (!dir)
		return -ENOMEM;
	r = report_to_json_string(rep, &json);
	if (r < 0)
		return r;
	r = mkdir_parents(dir, 0755);
	if (r < 0)
		return r;
	return write_file_atomic(path, json, strlen(json), 0644);
}

int report_read(struct report *ret, const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, REPORT_FILE);
	_cleanup_(freep) char *s = NULL;
	int r;

	if (!path)
		return -ENOMEM;
	r = read_full_file(path, REPORT_SIZE_MAX, &s, NULL);
	if (r < 0)
		return r; /* -ENOENT: no run yet, the caller says so */
	return report_from_json_string(s, ret);
}

/* ---- summary ---- */

static void summary_counts(FILE *f, const struct summary *s, const enum verdict *order, size_t n)
{
	const char *sep = "";

	for (size_t i = 0; i < n; i++) {
		if (!s->count[order[i]])
			continue;
		fprintf(f, "%s%zu %s", sep, s->count[order[i]], verdict_to_string(order[i]));
		sep = ", ";
	}
}

int summary_line(const struct report *rep, char **ret)
{
	/* Not ready: the reasons first. Ready: fail and unknown are zero by definition. */
	static const enum verdict not_ready[] = { VERDICT_FAIL, VERDICT_UNKNOWN, VERDICT_WARN,
						  VERDICT_PASS, VERDICT_SKIP };
	static const enum verdict ready[] = { VERDICT_PASS, VERDICT_WARN, VERDICT_SKIP };
	_cleanup_(freep) char *buf = NULL;
	struct summary s;
	size_t size;
	FILE *f;

	results_summarize(&rep->results, &s);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fputs(s.ready ? "READY: " : "NOT READY: ", f);
	if (s.total == 0)
		fputs("no checks", f);
	else if (s.ready)
		summary_counts(f, &s, ready, ARRAY_SIZE(ready));
	else
		summary_counts(f, &s, not_ready, ARRAY_SIZE(not_ready));
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}
