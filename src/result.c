// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <syslog.h>

#include "result.h"

static const char *const verdict_names[_VERDICT_MAX] = {
	[VERDICT_PASS] = "pass",       [VERDICT_SKIP] = "skip", [VERDICT_WARN] = "warn",
	[VERDICT_UNKNOWN] = "unknown", [VERDICT_FAIL] = "fail",
};

const char *verdict_to_string(enum verdict v)
{
	if (v < 0 || v >= _VERDICT_MAX)
		return "invalid";
	return verdict_names[v];
}

int verdict_from_string(const char *s)
{
	for (int v = 0; v < _VERDICT_MAX; v++)
		if (streq(s, verdict_names[v]))
			return v;
	return -EINVAL;
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

static void result_done(struct result *r)
{
	free(r->check);
	free(r->object);
	free(r->expected);
	free(r->actual);
	free(r->remedy);
}

int results_add(struct results *rs, enum verdict v, const char *check, const char *object,
		const char *expected, const char *actual, const char *remedy)
{
	struct result *r;

	if (rs->n == rs->alloc) {
		size_t alloc = rs->alloc ? rs->alloc * 2 : 16;
		struct result *items = reallocarray(rs->items, alloc, sizeof(*items));

		if (!items)
			return -ENOMEM;
		rs->items = items;
		rs->alloc = alloc;
	}
	r = &rs->items[rs->n];
	*r = (struct result){
		.check = strdup(strempty(check)),
		.object = strdup(strempty(object)),
		.expected = strdup(strempty(expected)),
		.actual = strdup(strempty(actual)),
		.verdict = v,
		.remedy = remedy ? strdup(remedy) : NULL,
	};
	if (!r->check || !r->object || !r->expected || !r->actual || (remedy && !r->remedy)) {
		result_done(r);
		return -ENOMEM;
	}
	rs->n++;
	return 0;
}

int results_addf(struct results *rs, enum verdict v, const char *check, const char *object,
		 const char *expected, const char *remedy, const char *actual_fmt, ...)
{
	_cleanup_(freep) char *actual = NULL;
	va_list ap;
	int n;

	va_start(ap, actual_fmt);
	n = vasprintf(&actual, actual_fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	return results_add(rs, v, check, object, expected, actual, remedy);
}

void results_done(struct results *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		result_done(&rs->items[i]);
	free(rs->items);
	*rs = (struct results){};
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

void report_done(struct report *r)
{
	free(r->version);
	free(r->command);
	free(r->host);
	results_done(&r->results);
	*r = (struct report){};
}

int summary_exit_status(const struct summary *s)
{
	return s->ready ? EXIT_READY : EXIT_NOT_READY;
}
