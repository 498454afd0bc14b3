// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_exporter textfile collector: the last run as Prometheus text exposition format.
 * node_exporter adds its own scrape time, so no sample carries a timestamp.
 */
#include "sink-config.h"

/* Length of the valid UTF-8 sequence at s, 0 if there is none (Prometheus needs UTF-8). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, surrogate, beyond U+10FFFF */
	return n;
}

/* A label value: \ " and newline escaped as the format says; invalid UTF-8 becomes '?'. */
static void put_label_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;

	while (*s) {
		size_t n = utf8_len(s);

		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (n == 0)
			fputc('?', f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
}

static bool same_series(const struct result *a, const struct result *b)
{
	return a->verdict == b->verdict && streq(a->check, b->check) && streq(a->object, b->object);
}

/* Two results with the same labels are one series whose value counts them (no duplicates). */
static void put_checks(FILE *f, const struct results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		size_t count = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = same_series(&rs->items[j], &rs->items[i]);
		if (seen)
			continue;
		for (size_t j = i; j < rs->n; j++)
			count += same_series(&rs->items[j], &rs->items[i]);
		fputs("hostprep_check{check=\"", f);
		put_label_value(f, rs->items[i].check);
		fputs("\",object=\"", f);
		put_label_value(f, rs->items[i].object);
		fprintf(f, "\",verdict=\"%s\"} %zu\n", verdict_to_string(rs->items[i].verdict),
			count);
	}
}

static void put_header(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

int prom_render(const struct report *r, uint64_t duration_usec, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	struct summary s;
	size_t size;
	FILE *f;

	results_summarize(&r->results, &s);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	put_header(f, "hostprep_ready",
		   "1 when the last hostprep run found the host ready (no fail, no unknown).");
	fprintf(f, "hostprep_ready %d\n", s.ready);
	put_header(f, "hostprep_check",
		   "Results of the last hostprep run with these check, object and verdict.");
	put_checks(f, &r->results);
	put_header(f, "hostprep_last_run_timestamp_seconds",
		   "When the last hostprep run finished (UNIX time).");
	fprintf(f, "hostprep_last_run_timestamp_seconds %llu\n", (unsigned long long)r->time_sec);
	put_header(f, "hostprep_last_run_duration_seconds", "How long the last hostprep run took.");
	fprintf(f, "hostprep_last_run_duration_seconds %llu.%06llu\n",
		(unsigned long long)(duration_usec / 1000000),
		(unsigned long long)(duration_usec % 1000000));
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}
