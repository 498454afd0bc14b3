// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as data: JSON (schema REPORT_SCHEMA_VERSION, docs/report-schema.md),
 * the report file, and the one-line summary every sink shares.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <time.h>

#include "core/fileio.h"
#include "core/json-util.h"
#include "core/log.h"
#include "report/sinks.h"

#define REPORT_DIR  "hostprep"
#define REPORT_NAME "report.json"
#define REPORT_FILE REPORT_DIR "/" REPORT_NAME
/* Far above any real report; stops `status` from slurping a runaway file. */
#define REPORT_SIZE_MAX (16u * 1024 * 1024)
#define JSON_FLAGS \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

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

/* ---- writing ---- */

/*
 * The report is streamed, never held whole (at 1400 results a json-c tree and its
 * string were most of a check's memory): the bytes are those json-c prints for the
 * whole tree with JSON_FLAGS (two-space indent, "key": value, an empty array as
 * "[\n  ]"), and json-c itself escapes every string. Key order is part of the format:
 * golden tests compare bytes.
 */
static int print_string(FILE *f, const char *s)
{
	_cleanup_(freep) char *buf = NULL;
	const char *safe = text_json_safe(strempty(s), &buf); /* names may hold any byte */
	_cleanup_(json_object_putp) struct json_object *o =
		safe ? json_object_new_string(safe) : NULL;
	const char *t;

	if (!o)
		return -ENOMEM;
	t = json_object_to_json_string_ext(o, JSON_FLAGS);
	if (!t)
		return -ENOMEM;
	fputs(t, f);
	return 0;
}

/* `<indent>"key": "value"` and ",\n" (or "\n" after the last member). */
static int print_member(FILE *f, const char *indent, const char *key, const char *s, bool last)
{
	int r;

	fprintf(f, "%s\"%s\": ", indent, key);
	r = print_string(f, s);
	fputs(last ? "\n" : ",\n", f);
	return r;
}

static void print_summary(FILE *f, const struct summary *s)
{
	fputs("  \"summary\": {\n", f);
	/* Keys in enum order: pass, skip, warn, unknown, fail — then total. */
	for (int v = 0; v < _VERDICT_MAX; v++)
		fprintf(f, "    \"%s\": %zu,\n", verdict_to_string(v), s->count[v]);
	fprintf(f, "    \"total\": %zu\n  },\n", s->total);
}

static int print_result(FILE *f, const struct result *res)
{
	static const char in[] = "      ";
	int r;

	fputs("    {\n", f);
	r = print_member(f, in, "check", res->check, false);
	if (r >= 0)
		r = print_member(f, in, "object", res->object, false);
	if (r >= 0)
		r = print_member(f, in, "expected", res->expected, false);
	if (r >= 0)
		r = print_member(f, in, "actual", res->actual, false);
	if (r >= 0)
		r = print_member(f, in, "verdict", verdict_to_string(res->verdict), false);
	if (r >= 0)
		r = print_member(f, in, "severity", severity_to_string(res->severity), false);
	if (r >= 0)
		r = print_member(f, in, "action", action_to_string(res->action), false);
	if (r >= 0 && res->cause)
		r = print_member(f, in, "cause", res->cause, false);
	else if (r >= 0)
		fprintf(f, "%s\"cause\": null,\n", in); /* a pass */
	if (r >= 0 && res->remedy)
		r = print_member(f, in, "remedy", res->remedy, true);
	else if (r >= 0)
		fprintf(f, "%s\"remedy\": null\n", in); /* no next step */
	fputs("    }", f);
	return r;
}

/* "config_digest": "..." or null, "config_files": [...] (an empty one as json-c prints it). */
static int print_config(FILE *f, const struct report *rep)
{
	static const char in[] = "  ";
	int r = 0;

	if (rep->config_digest)
		r = print_member(f, in, "config_digest", rep->config_digest, false);
	else
		fprintf(f, "%s\"config_digest\": null,\n", in);
	fprintf(f, "%s\"config_files\": [", in);
	for (char **s = rep->config_files; s && *s && r >= 0; s++) {
		fputs(s == rep->config_files ? "\n    " : ",\n    ", f);
		r = print_string(f, *s);
	}
	fputs("\n  ],\n", f);
	return r;
}

/* {"kind": "gpu", "object": ADDR, "model": ..., "vbios": ... (null: not read)} */
static int print_fact(FILE *f, const struct fact *x)
{
	static const char in[] = "      ";
	const struct fact_kind_info *k = fact_kind_info(x->kind);
	int r;

	fputs("    {\n", f);
	r = print_member(f, in, "kind", k->name, false);
	if (r >= 0)
		r = print_member(f, in, "object", x->object, !k->keys[0]);
	for (size_t i = 0; r >= 0 && i < FACT_KEYS_MAX && k->keys[i]; i++) {
		bool last = i + 1 == FACT_KEYS_MAX || !k->keys[i + 1];

		if (x->values[i])
			r = print_member(f, in, k->keys[i], x->values[i], last);
		else
			fprintf(f, "%s\"%s\": null%s\n", in, k->keys[i], last ? "" : ",");
	}
	fputs("    }", f);
	return r;
}

/*
 * ",\n  \"facts\": [...]" after the results, by kind as the sinks list them; none: no
 * member at all (a run that read none, as reports before the field). The same facts as
 * the textfile's *_info metrics and the NFD labels (docs/report-schema.md).
 */
static int print_facts(FILE *f, const struct facts *fs)
{
	bool first = true;
	int r = 0;

	if (!fs->n)
		return 0;
	fputs(",\n  \"facts\": [\n", f);
	for (enum fact_kind kind = 0; kind < _FACT_KIND_MAX; kind++) /* as the sinks group them */
		for (size_t i = 0; i < fs->n && r >= 0; i++) {
			if (fs->items[i].kind != kind)
				continue;
			fputs(first ? "" : ",\n", f);
			first = false;
			r = print_fact(f, &fs->items[i]);
		}
	fputs("\n  ]", f);
	return r;
}

/* The pretty JSON and its trailing newline; stream errors are the caller's (ferror). */
static int print_report(FILE *f, const struct report *rep)
{
	static const char in[] = "  ";
	char when[REPORT_TIME_MAX];
	struct summary s;
	int r;

	r = report_format_time(rep->time_sec, when, sizeof(when));
	if (r < 0)
		return r;
	results_summarize(&rep->results, &s);

	fprintf(f, "{\n%s\"schema\": %d,\n", in, REPORT_SCHEMA_VERSION);
	r = print_member(f, in, "version", rep->version, false);
	if (r >= 0)
		r = print_member(f, in, "command", rep->command, false);
	if (r >= 0)
		r = print_member(f, in, "host", rep->host, false);
	if (r >= 0)
		r = print_member(f, in, "time", when, false);
	if (r < 0)
		return r;
	fprintf(f, "%s\"apply\": %s,\n", in, rep->applied ? "true" : "false");
	r = print_config(f, rep);
	if (r < 0)
		return r;
	fprintf(f, "%s\"ready\": %s,\n", in, s.ready ? "true" : "false");
	print_summary(f, &s);
	fprintf(f, "%s\"results\": [\n", in);
	for (size_t i = 0; i < rep->results.n && r >= 0; i++) {
		if (i > 0)
			fputs(",\n", f);
		r = print_result(f, &rep->results.items[i]);
	}
	if (r < 0)
		return r;
	fputs(rep->results.n ? "\n  ]" : "  ]", f);
	r = print_facts(f, &rep->facts);
	fputs("\n}\n", f);
	return r;
}

int report_print_json(const struct report *rep, FILE *f)
{
	int r;

	r = print_report(f, rep);
	if (r < 0)
		return r;
	return ferror(f) ? -EIO : 0;
}

int report_to_json_string(const struct report *rep, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	size_t size;
	FILE *f;
	int r;

	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	r = print_report(f, rep);
	if (fclose(f) != 0 && r >= 0)
		r = -ENOMEM;
	if (r < 0)
		return r;
	*ret = TAKE_PTR(buf);
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

/* A name from one of the model's lists (verdict, severity, action); -EBADMSG otherwise. */
static int get_enum(struct json_object *o, const char *where, const char *key,
		    int (*from_string)(const char *), int *ret)
{
	const char *s;
	int r;

	r = get_string(o, where, key, &s);
	if (r < 0)
		return r;
	*ret = from_string(s);
	if (*ret < 0)
		return log_error_errno(EBADMSG, "Report field '%s%s' has unknown value '%s'.",
				       where, key, s);
	return 0;
}

/*
 * cause: null for a pass, else "check:word"; the word is returned (results_add() makes the
 * id again from it), so a cause that names another check is a damaged report.
 */
static int get_cause(struct json_object *o, const char *where, const char *check, int verdict,
		     const char **ret)
{
	struct json_object *v;
	size_t n = strlen(check);
	const char *s;
	int r;

	*ret = NULL;
	if (!json_object_object_get_ex(o, "cause", &v)) /* an older report: the default */
		return 0;
	if (verdict == VERDICT_PASS && !v)
		return 0;
	r = get_string(o, where, "cause", &s);
	if (r < 0)
		return r;
	if (strncmp(s, check, n) != 0 || s[n] != ':' || !s[n + 1])
		return log_error_errno(EBADMSG, "Report field '%scause' is not '%s:REASON': '%s'.",
				       where, check, s);
	*ret = s + n + 1;
	return 0;
}

/*
 * severity is derived from the verdict: a file where they disagree is corrupt. Absent in
 * reports written before it existed (schema 1 all the same).
 */
static int check_severity(struct json_object *o, const char *where, int verdict)
{
	int sev, r;

	if (!json_object_object_get_ex(o, "severity", NULL))
		return 0;
	r = get_enum(o, where, "severity", severity_from_string, &sev);
	if (r >= 0 && sev != (int)severity_of_verdict(verdict))
		return log_error_errno(EBADMSG,
				       "Report field '%sseverity' contradicts its verdict.", where);
	return r;
}

/* action; a report from before it existed: a person looks at what did not pass. */
static int get_action(struct json_object *o, const char *where, int verdict, int *ret)
{
	if (json_object_object_get_ex(o, "action", NULL))
		return get_enum(o, where, "action", action_from_string, ret);
	*ret = verdict == VERDICT_PASS || verdict == VERDICT_SKIP ? ACTION_NONE : ACTION_INSPECT;
	return 0;
}

static int result_from_json(struct json_object *o, size_t i, struct results *rs)
{
	const char *check, *object, *expected, *actual, *remedy, *cause;
	char where[48];
	int r, v, action;

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
		r = get_enum(o, where, "verdict", verdict_from_string, &v);
	if (r >= 0)
		r = check_severity(o, where, v);
	if (r >= 0)
		r = get_action(o, where, v, &action);
	if (r >= 0)
		r = get_cause(o, where, check, v, &cause);
	if (r >= 0)
		r = get_remedy(o, where, &remedy);
	if (r < 0)
		return r;
	return results_add(rs, &(const struct result_spec){
				       .verdict = v,
				       .check = check,
				       .object = object,
				       .expected = expected,
				       .actual = actual,
				       .remedy = remedy,
				       .action = action,
				       .cause = cause,
			       });
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
		/* Read: free its part of the tree, so the results reuse that memory. */
		if (json_object_array_put_idx(a, i, NULL) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* A fact's value: absent or null (not read) is NULL, a string is itself. */
static int fact_value(struct json_object *o, size_t i, const char *key, const char **ret)
{
	struct json_object *v;

	*ret = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return log_error_errno(EBADMSG,
				       "Report field 'facts[%zu].%s' is %s, expected string.", i,
				       key, json_type_to_name(json_object_get_type(v)));
	*ret = json_object_get_string(v);
	return 0;
}

static int fact_from_json(struct json_object *o, size_t i, struct facts *fs)
{
	const char *kind, *object, *values[FACT_KEYS_MAX] = {};
	const struct fact_kind_info *k;
	char where[32];
	int kind_id;
	int r;

	snprintf(where, sizeof(where), "facts[%zu].", i);
	if (!json_object_is_type(o, json_type_object))
		return log_error_errno(EBADMSG, "Report field 'facts[%zu]' is not an object.", i);
	r = get_string(o, where, "kind", &kind);
	if (r >= 0)
		r = get_string(o, where, "object", &object);
	if (r < 0)
		return r;
	kind_id = fact_kind_from_name(kind);
	if (kind_id < 0) /* a kind of a later version: readers ignore what they do not know */
		return 0;
	k = fact_kind_info(kind_id);
	for (size_t j = 0; j < FACT_KEYS_MAX && k->keys[j] && r >= 0; j++)
		r = fact_value(o, i, k->keys[j], &values[j]);
	return r < 0 ? r : facts_set(fs, kind_id, object, values);
}

/* "facts": absent in reports of runs that read none (and of earlier versions). */
static int facts_from_json(struct json_object *o, struct facts *fs)
{
	struct json_object *a;
	int r;

	if (!json_object_object_get_ex(o, "facts", &a))
		return 0;
	r = get_field(o, "", "facts", json_type_array, &a);
	for (size_t i = 0; r >= 0 && i < json_object_array_length(a); i++)
		r = fact_from_json(json_object_array_get_idx(a, i), i, fs);
	return r;
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

/* config_files' strings, NULL-terminated; a non-string is a damaged report. */
static int files_from_json(struct json_object *a, char ***ret)
{
	size_t n = json_object_array_length(a);
	char **v = calloc(n + 1, sizeof(*v));

	*ret = v; /* filled as read: the caller's report_done() frees it on any error */
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (!json_object_is_type(e, json_type_string))
			return log_error_errno(EBADMSG,
					       "Report field 'config_files[%zu]' is %s, "
					       "expected string.",
					       i, json_type_to_name(json_object_get_type(e)));
		v[i] = strdup(json_object_get_string(e));
		if (!v[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * config_digest (a string or null) and config_files (strings): optional, as reports written
 * before they existed lack them; when present they must be typed right.
 */
static int config_from_json(struct json_object *o, struct report *rep)
{
	struct json_object *v;
	int r;

	if (json_object_object_get_ex(o, "config_digest", &v) && v) {
		r = dup_string(o, "config_digest", &rep->config_digest);
		if (r < 0)
			return r;
	}
	if (!json_object_object_get_ex(o, "config_files", &v))
		return 0;
	r = get_field(o, "", "config_files", json_type_array, &v);
	return r < 0 ? r : files_from_json(v, &rep->config_files);
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
	return config_from_json(o, rep);
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
	if (r >= 0)
		r = facts_from_json(o, &rep.facts);
	if (r < 0)
		return r;
	rep.schema = REPORT_SCHEMA_VERSION;
	*ret = rep;
	rep = (struct report){};
	return 0;
}

/* ---- the file ---- */

/* Neither logs I/O errors: the caller decides whether a missing report file is fatal. */
static int fill_report(FILE *f, void *userdata)
{
	return print_report(f, userdata);
}

int report_write(const struct report *rep, const struct sysroot *root)
{
	_cleanup_(closep) int dfd = -1;
	char when[REPORT_TIME_MAX];
	int r;

	r = report_format_time(rep->time_sec, when, sizeof(when)); /* fails before any mkdir */
	if (r < 0)
		return r;
	dfd = sysroot_mkdirs(root, SYSROOT_RUN, 0755, REPORT_DIR);
	if (dfd < 0)
		return dfd;
	return write_file_atomic_stream_at(dfd, REPORT_NAME, 0644, WRITE_VOLATILE, fill_report,
					   (void *)rep);
}

void report_remove(const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_RUN, REPORT_FILE);
	int r;

	if (!path)
		return (void)log_oom();
	r = sysroot_unlink(root, SYSROOT_RUN, REPORT_FILE);
	if (r < 0 && r != -ENOENT)
		log_warning_errno(r, "Failed to remove %s: %m", path);
}

int report_read(struct report *ret, const struct sysroot *root, uid_t owner)
{
	_cleanup_(freep) char *s = NULL;
	_cleanup_(closep) int fd = -1;
	size_t size = 0;
	int r;

	fd = sysroot_openat(root, SYSROOT_RUN, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, "%s",
			    REPORT_FILE);
	if (fd < 0)				   /* -ENOENT: no run yet, the caller says so */
		return fd == -ELOOP ? -EPERM : fd; /* O_NOFOLLOW: a link is nobody's report */
	r = fd_trusted(fd, owner); /* a READY in it opens gates: only root's counts */
	if (r >= 0)
		r = read_full_fd(fd, REPORT_SIZE_MAX, &s, &size);
	/* the parse reads up to the first NUL: what follows it would go unseen */
	if (r >= 0 && memchr(s, 0, size))
		r = log_error_errno(EBADMSG, "Report has a NUL byte: damaged.");
	return r < 0 ? r : report_from_json_string(s, ret);
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

/* " (warn: acs, rdma)": the areas whose worst result is a warn; nothing when none is. */
static int summary_warn_areas(FILE *f, const struct results *rs)
{
	_cleanup_(freep) struct result_area *a = NULL;
	const char *sep = " (warn: ";
	size_t n;
	int r;

	r = results_areas(rs, &a, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (a[i].worst != VERDICT_WARN)
			continue;
		fprintf(f, "%s%.*s", sep, (int)a[i].len, a[i].name);
		sep = ", ";
	}
	if (sep[0] == ',')
		fputc(')', f);
	return 0;
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
	int r;

	results_summarize(&rep->results, &s);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	/*
	 * Nothing checked is never a pass: a run whose results are all skip (or none) says
	 * so instead of READY. Its exit status stays 0, so a stock host leaves no failed unit.
	 */
	if (s.ready && s.count[VERDICT_SKIP] == s.total) {
		fputs("NOTHING DECLARED: no rule checked this host", f);
		if (s.total)
			fprintf(f, " (%zu skip)", s.total);
	} else if (s.ready) {
		fputs("READY: ", f);
		summary_counts(f, &s, ready, ARRAY_SIZE(ready));
	} else {
		fputs("NOT READY: ", f);
		summary_counts(f, &s, not_ready, ARRAY_SIZE(not_ready));
	}
	r = summary_warn_areas(f, &rep->results);
	if (fclose(f) != 0 || r < 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}

/* ---- one line for monitors (status --oneline) ---- */

static bool is_problem(const struct result *res)
{
	return res->verdict == VERDICT_FAIL || res->verdict == VERDICT_UNKNOWN;
}

static bool same_problem(const struct result *a, const struct result *b)
{
	return a->verdict == b->verdict && streq(strempty(a->cause), strempty(b->cause));
}

/*
 * "CAUSE OBJECT +N" for the problem at i, the first of its cause: its objects named by
 * the first (none when it is "host"), never the actual (it repeats the object and costs
 * the next cause its room). Control characters as spaces. NULL: ENOMEM.
 */
static char *oneline_item(const struct results *rs, size_t i)
{
	const struct result *res = &rs->items[i];
	const char *obj = streq(strempty(res->object), "host") ? "" : strempty(res->object);
	size_t more = 0;
	char *item;

	for (size_t k = i + 1; k < rs->n; k++)
		more += same_problem(res, &rs->items[k]);
	if (asprintf(&item, "%s%s%s", res->cause ? res->cause : strempty(res->check),
		     obj[0] ? " " : "", obj) < 0)
		return NULL;
	if (more) {
		char *longer;

		if (asprintf(&longer, "%s +%zu", item, more) < 0)
			longer = NULL;
		free(item);
		item = longer;
	}
	for (char *p = item; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return item;
}

/* Cut item to at most max bytes, ending "..." (UTF-8 safe): a long object. */
static void oneline_fit(char *item, size_t max)
{
	size_t n = strlen(item);

	if (n <= max || max < 4)
		return;
	n = max - 3;
	while (n > 0 && ((unsigned char)item[n] & 0xc0) == 0x80)
		n--;
	while (n > 0 && item[n - 1] == ' ')
		n--;
	memcpy(item + n, "...", 4);
}

/* Is the problem at i the first of its cause? */
static bool first_of_cause(const struct results *rs, size_t i)
{
	if (!is_problem(&rs->items[i]))
		return false;
	for (size_t k = 0; k < i; k++)
		if (same_problem(&rs->items[k], &rs->items[i]))
			return false;
	return true;
}

int summary_oneline(const struct report *rep, char **ret)
{
	const struct results *rs = &rep->results;
	_cleanup_(freep) char *buf = NULL;
	size_t size, left = 0, shown = 0;
	struct summary s;
	FILE *f;

	results_summarize(rs, &s);
	if (s.ready)
		return summary_line(rep, ret);
	for (size_t i = 0; i < rs->n; i++)
		left += first_of_cause(rs, i);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fputs("NOT READY", f);
	for (size_t i = 0; i < rs->n && left; i++) {
		_cleanup_(freep) char *item = NULL;

		if (!first_of_cause(rs, i))
			continue;
		item = oneline_item(rs, i);
		if (!item) {
			fclose(f);
			return -ENOMEM;
		}
		fflush(f);
		/* the first always (cut to leave room for "+N more"); the next while it fits */
		if (!shown)
			oneline_fit(item, SUMMARY_ONELINE_MAX - size - 2 - (left > 1 ? 12 : 0));
		else if (size + 2 + strlen(item) + (left > 1 ? 12 : 0) > SUMMARY_ONELINE_MAX)
			break;
		fprintf(f, "%s%s", shown ? "; " : ": ", item);
		shown++;
		left--;
	}
	if (left)
		fprintf(f, "; +%zu more", left);
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}
