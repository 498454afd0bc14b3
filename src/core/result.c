// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdarg.h>
#include <syslog.h>

#include "core/log.h"
#include "core/result.h"
#include "core/string-table.h"

static const char *const verdict_table[_VERDICT_MAX] = {
	[VERDICT_PASS] = "pass",       [VERDICT_SKIP] = "skip", [VERDICT_WARN] = "warn",
	[VERDICT_UNKNOWN] = "unknown", [VERDICT_FAIL] = "fail",
};

static const char *const action_table[_ACTION_MAX] = {
	[ACTION_NONE] = "none",		  [ACTION_APPLY] = "apply",
	[ACTION_CONFIG] = "config",	  [ACTION_REBOOT] = "reboot",
	[ACTION_DRIVER] = "driver",	  [ACTION_CABLE] = "cable",
	[ACTION_HARDWARE] = "hardware",	  [ACTION_INSPECT] = "inspect",
	[ACTION_RESET_GPU] = "reset-gpu", [ACTION_RESTART_APP] = "restart-app",
};

static const char *const severity_table[_SEVERITY_MAX] = {
	[SEVERITY_NONE] = "none",	  [SEVERITY_INFO] = "info",
	[SEVERITY_WARNING] = "warning",	  [SEVERITY_ERROR] = "error",
	[SEVERITY_CRITICAL] = "critical",
};

/* "invalid": a value outside a table still prints (and says so). */
DEFINE_STRING_TABLE_LOOKUP_FALLBACK(verdict, enum verdict, "invalid");
DEFINE_STRING_TABLE_LOOKUP_FALLBACK(action, enum action, "invalid");
DEFINE_STRING_TABLE_LOOKUP_FALLBACK(severity, enum severity, "invalid");

enum severity severity_of_verdict(enum verdict v)
{
	static const enum severity of[_VERDICT_MAX] = {
		[VERDICT_PASS] = SEVERITY_NONE,	    [VERDICT_SKIP] = SEVERITY_INFO,
		[VERDICT_WARN] = SEVERITY_WARNING,  [VERDICT_UNKNOWN] = SEVERITY_ERROR,
		[VERDICT_FAIL] = SEVERITY_CRITICAL,
	};

	return v >= 0 && v < _VERDICT_MAX ? of[v] : SEVERITY_CRITICAL;
}

int verdict_to_syslog_priority(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL:
		return LOG_ERR;
	case VERDICT_UNKNOWN:
	case VERDICT_WARN:
		return LOG_WARNING;
	case VERDICT_SKIP:
		return LOG_INFO;
	default:
		return LOG_NOTICE;
	}
}

/* Which strings a result shares with the one before it (results_add). */
enum {
	SHARED_CHECK = 1 << 0,
	SHARED_OBJECT = 1 << 1,
	SHARED_EXPECTED = 1 << 2,
	SHARED_ACTUAL = 1 << 3,
	SHARED_REMEDY = 1 << 4,
	SHARED_CAUSE = 1 << 5,
};

static void free_own(char *s, uint8_t shared, uint8_t bit)
{
	if (!(shared & bit))
		free(s);
}

static void result_done(struct result *r)
{
	free_own(r->check, r->shared, SHARED_CHECK);
	free_own(r->object, r->shared, SHARED_OBJECT);
	free_own(r->expected, r->shared, SHARED_EXPECTED);
	free_own(r->actual, r->shared, SHARED_ACTUAL);
	free_own(r->remedy, r->shared, SHARED_REMEDY);
	free_own(r->cause, r->shared, SHARED_CAUSE);
}

/*
 * The previous result's string when equal (a check of 1400 ports repeats its remedy
 * and expectation 1400 times), else a copy; NULL stays NULL. -ENOMEM.
 */
static int share_or_dup(const char *s, const char *prev, uint8_t bit, struct result *r, char **ret)
{
	if (!s) {
		*ret = NULL;
		return 0;
	}
	if (prev && streq(s, prev)) {
		*ret = (char *)prev;
		r->shared |= bit;
		return 0;
	}
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

/*
 * "check:reason", the id that groups results of one cause: the module's word for it, else
 * the action's name (one check, one fix: one cause). A pass has none. -ENOMEM.
 */
static int result_cause(const struct result *r, const char *word, const char *prev, char **ret)
{
	_cleanup_(freep) char *id = NULL;

	*ret = NULL;
	if (r->verdict == VERDICT_PASS)
		return 0;
	if (asprintf(&id, "%s:%s", r->check, word ?: action_to_string(r->action)) < 0)
		return -ENOMEM;
	if (prev && streq(id, prev)) {
		*ret = (char *)prev;
		return 1;
	}
	*ret = TAKE_PTR(id);
	return 0;
}

int results_add(struct results *rs, const struct result_spec *spec)
{
	const struct result *p;
	struct result *r;
	int k;

	if (rs->n == rs->alloc) {
		size_t alloc = rs->alloc ? rs->alloc * 2 : 16;
		struct result *items = reallocarray(rs->items, alloc, sizeof(*items));

		if (!items)
			return -ENOMEM;
		rs->items = items;
		rs->alloc = alloc;
	}
	p = rs->n ? &rs->items[rs->n - 1] : &(const struct result){};
	r = &rs->items[rs->n];
	*r = (struct result){
		.verdict = spec->verdict,
		/* a pass needs nothing done, whatever a module attached */
		.action = spec->verdict == VERDICT_PASS ? ACTION_NONE : spec->action,
		.severity = severity_of_verdict(spec->verdict),
	};
	k = share_or_dup(strempty(spec->check), p->check, SHARED_CHECK, r, &r->check);
	if (k >= 0)
		k = share_or_dup(strempty(spec->object), p->object, SHARED_OBJECT, r, &r->object);
	if (k >= 0)
		k = share_or_dup(strempty(spec->expected), p->expected, SHARED_EXPECTED, r,
				 &r->expected);
	if (k >= 0)
		k = share_or_dup(strempty(spec->actual), p->actual, SHARED_ACTUAL, r, &r->actual);
	if (k >= 0)
		k = share_or_dup(spec->remedy, p->remedy, SHARED_REMEDY, r, &r->remedy);
	if (k >= 0)
		k = result_cause(r, spec->cause, p->cause, &r->cause);
	if (k > 0)
		r->shared |= SHARED_CAUSE;
	if (k < 0) {
		result_done(r);
		return k;
	}
	rs->n++;
	return 0;
}

void results_set_last_remedy(struct results *rs, char *remedy)
{
	struct result *r = &rs->items[rs->n - 1];

	free_own(r->remedy, r->shared, SHARED_REMEDY);
	r->remedy = remedy;
	r->shared &= ~SHARED_REMEDY;
}

int results_addf(struct results *rs, const struct result_spec *spec, const char *actual_fmt, ...)
{
	_cleanup_(freep) char *actual = NULL;
	struct result_spec s = *spec;
	va_list ap;
	int n;

	va_start(ap, actual_fmt);
	n = vasprintf(&actual, actual_fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	s.actual = actual;
	return results_add(rs, &s);
}

void results_done(struct results *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		result_done(&rs->items[i]);
	free(rs->items);
	*rs = (struct results){};
}

static size_t utf8_len(const unsigned char *s)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool text_is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = *p < 0x80 ? 1 : utf8_len(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

const char *text_json_safe(const char *s, char **buf)
{
	*buf = NULL;
	if (!s || text_is_utf8(s))
		return s;
	*buf = log_escape(s, strlen(s));
	return *buf;
}

/* C0, DEL, C1 (U+0080..9F), LRM/RLM, U+2028..202E, U+2066..2069: log_escape's controls. */
static bool text_has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return true;
		if (p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xa8 && p[2] <= 0xae)))
			return true;
		if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
			return true;
	}
	return false;
}

/* Printable ASCII only (most of a report): safe as it is, in one pass. */
static bool text_printable_ascii(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p >= 0x20 && *p < 0x7f)
		p++;
	return !*p;
}

const char *text_terminal_safe(const char *s, char **buf)
{
	*buf = NULL;
	if (!s || text_printable_ascii(s) || (text_is_utf8(s) && !text_has_control(s)))
		return s;
	*buf = log_escape(s, strlen(s));
	return *buf;
}

/* Bytes of the unit at p and, in *cols, its columns: a character, or an escape kept whole. */
static size_t text_unit(const unsigned char *p, size_t *cols)
{
	size_t n = 1;

	if (p[0] == '\\' && p[1] == 'x' && isxdigit(p[2]) && isxdigit(p[3]))
		n = 4;
	else if (p[0] == '\\' && p[1] > 0x20 && p[1] < 0x7f)
		n = 2;
	else if (p[0] >= 0x80)
		n = utf8_len(p) ?: 1;
	*cols = p[0] < 0x80 ? n : 1;
	return n;
}

size_t text_cut(const char *s, size_t cols, bool *cut)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, keep = 0, w;

	*cut = false;
	while (p[keep]) {
		size_t n = text_unit(p + keep, &w);

		if (used + w > cols)
			break;
		used += w;
		keep += n;
	}
	if (!p[keep])
		return keep;
	/* Too wide: give back units until the "…" fits too. */
	*cut = true;
	keep = used = 0;
	while (p[keep]) {
		size_t n = text_unit(p + keep, &w);

		if (used + w + 1 > cols)
			break;
		used += w;
		keep += n;
	}
	return keep;
}

void results_summarize(const struct results *rs, struct summary *s)
{
	*s = (struct summary){ .worst = VERDICT_PASS };
	for (size_t i = 0; i < rs->n; i++) {
		enum verdict v = rs->items[i].verdict;

		s->count[v]++;
		s->total++;
		if (v > s->worst)
			s->worst = v;
	}
	s->ready = s->count[VERDICT_FAIL] == 0 && s->count[VERDICT_UNKNOWN] == 0;
}

enum verdict results_worst_from(const struct results *rs, size_t from)
{
	enum verdict worst = VERDICT_PASS;

	for (size_t i = from; i < rs->n; i++)
		if (rs->items[i].verdict > worst)
			worst = rs->items[i].verdict;
	return worst;
}

static struct result_area *area_find(struct result_area *a, size_t n, const char *check, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].len == len && strneq(a[i].name, check, len))
			return &a[i];
	return NULL;
}

int results_areas(const struct results *rs, struct result_area **ret, size_t *n)
{
	_cleanup_(freep) struct result_area *a = NULL;
	size_t k = 0;

	*ret = NULL;
	*n = 0;
	if (!rs->n)
		return 0;
	a = calloc(rs->n, sizeof(*a)); /* at most one area per result */
	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result *r = &rs->items[i];
		size_t len = strcspn(r->check, ".");
		struct result_area *e = area_find(a, k, r->check, len);

		if (!e) {
			e = &a[k++];
			*e = (struct result_area){ .name = r->check,
						   .len = len,
						   .worst = r->verdict };
		} else if (r->verdict > e->worst)
			e->worst = r->verdict;
	}
	*ret = TAKE_PTR(a);
	*n = k;
	return 0;
}

void report_done(struct report *r)
{
	free(r->version);
	free(r->command);
	free(r->host);
	free(r->config_digest);
	strv_free(r->config_files);
	results_done(&r->results);
	facts_done(&r->facts);
	*r = (struct report){};
}

int summary_exit_status(const struct summary *s)
{
	return s->ready ? EXIT_READY : EXIT_NOT_READY;
}
