// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_exporter textfile collector: the last run as Prometheus text exposition format.
 * node_exporter adds its own scrape time, so no sample carries a timestamp.
 */
#include "report/sink-config.h"

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

static int cmp_series(const void *x, const void *y, void *ctx)
{
	const struct results *rs = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct result *a = &rs->items[i], *b = &rs->items[j];
	int c = strcmp(a->check, b->check);

	if (!c)
		c = strcmp(a->object, b->object);
	if (!c)
		c = (a->verdict > b->verdict) - (a->verdict < b->verdict);
	return c ? c : (i > j) - (i < j);
}

/*
 * counts[i]: how many results share result i's labels when i is the first of them,
 * else 0. Sorted, not compared pairwise: thousands of ports made this quadratic.
 */
static int series_counts(const struct results *rs, size_t **ret)
{
	_cleanup_(freep) size_t *order = calloc(rs->n + 1, sizeof(*order));
	size_t *counts = calloc(rs->n + 1, sizeof(*counts));

	if (!order || !counts) {
		free(counts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rs->n; i++)
		order[i] = i;
	qsort_r(order, rs->n, sizeof(*order), cmp_series, (void *)rs);
	for (size_t k = 0, first = 0; k < rs->n; k++) {
		const struct result *a = &rs->items[order[first]], *b = &rs->items[order[k]];

		if (k > first && !(a->verdict == b->verdict && streq(a->check, b->check) &&
				   streq(a->object, b->object)))
			first = k;
		counts[order[first]]++; /* order[first]: the group's first result */
	}
	*ret = counts;
	return 0;
}

/* Two results with the same labels are one series whose value counts them (no duplicates). */
static int put_checks(FILE *f, const struct results *rs)
{
	_cleanup_(freep) size_t *counts = NULL;
	int r = series_counts(rs, &counts);

	if (r < 0)
		return r;
	for (size_t i = 0; i < rs->n; i++) {
		if (!counts[i])
			continue;
		fputs("hostprep_check{check=\"", f);
		put_label_value(f, rs->items[i].check);
		fputs("\",object=\"", f);
		put_label_value(f, rs->items[i].object);
		fprintf(f, "\",verdict=\"%s\"} %zu\n", verdict_to_string(rs->items[i].verdict),
			counts[i]);
	}
	return 0;
}

static void put_header(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/*
 * One series per area, its worst verdict as a label (as NFD's hostprep.<area> label): a
 * dashboard of hostprep_ready alone goes green on a READY host whose ACS warns.
 */
static int put_areas(FILE *f, const struct results *rs)
{
	_cleanup_(freep) struct result_area *a = NULL;
	size_t n;
	int r;

	r = results_areas(rs, &a, &n);
	if (r < 0)
		return r;
	put_header(f, "hostprep_area_state",
		   "Always 1: the worst verdict of each area (acs, iommu, rdma, ...) in the last "
		   "hostprep run.");
	for (size_t i = 0; i < n; i++) {
		_cleanup_(freep) char *name = strndup(a[i].name, a[i].len);

		if (!name)
			return -ENOMEM;
		fputs("hostprep_area_state{area=\"", f);
		put_label_value(f, name);
		fprintf(f, "\",state=\"%s\"} 1\n", verdict_to_string(a[i].worst));
	}
	return 0;
}

static void put_fact(FILE *f, const struct fact_kind_info *k, const struct fact *x)
{
	const char *sep = "{";

	fprintf(f, "hostprep_%s_info", k->name);
	if (k->object) {
		fprintf(f, "{%s=\"", k->object);
		put_label_value(f, x->object);
		fputc('"', f);
		sep = ",";
	}
	for (size_t i = 0; i < FACT_KEYS_MAX && k->keys[i]; i++, sep = ",") {
		fprintf(f, "%s%s=\"", sep, k->keys[i]);
		put_label_value(f, x->values[i] ? x->values[i] : FACT_UNKNOWN);
		fputc('"', f);
	}
	fputs("} 1\n", f);
}

/*
 * What the host is (core/fact.h): one info metric per kind of fact, one series per object,
 * in the order the modules set them; a kind nobody read has no metric at all.
 */
static void put_facts(FILE *f, const struct facts *fs)
{
	for (enum fact_kind kind = 0; kind < _FACT_KIND_MAX; kind++) {
		const struct fact_kind_info *k = fact_kind_info(kind);
		bool first = true;

		for (size_t i = 0; i < fs->n; i++) {
			char name[64];

			if (fs->items[i].kind != kind)
				continue;
			if (first) {
				snprintf(name, sizeof(name), "hostprep_%s_info", k->name);
				put_header(f, name, k->help);
				first = false;
			}
			put_fact(f, k, &fs->items[i]);
		}
	}
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
	put_header(f, "hostprep_info",
		   "Always 1: the hostprep version and the configuration digest of the last run.");
	fputs("hostprep_info{version=\"", f);
	put_label_value(f, strempty(r->version));
	fputs("\",config_digest=\"", f);
	put_label_value(f, strempty(r->config_digest)); /* "": no configuration was loaded */
	fputs("\"} 1\n", f);
	put_facts(f, &r->facts);
	put_header(f, "hostprep_ready",
		   "1 when the last hostprep run found the host ready (no fail, no unknown).");
	fprintf(f, "hostprep_ready %d\n", s.ready);
	put_header(f, "hostprep_check",
		   "Results of the last hostprep run with these check, object and verdict.");
	if (put_checks(f, &r->results) < 0 || put_areas(f, &r->results) < 0) {
		fclose(f);
		return -ENOMEM;
	}
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
