// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_exporter textfile collector: the last run as Prometheus text exposition format.
 * node_exporter adds its own scrape time, so no sample carries a timestamp.
 */
#include "report/sink-config.h"

/*
 * A label value: the string as the report's JSON has it (docs/CONTRACT.md: valid UTF-8 as
 * it is, else escaped whole, each invalid byte \xNN, so two names stay two series and a
 * series joins its report object), then \ " and newline escaped as the format says.
 */
static int put_label_value(FILE *f, const char *v)
{
	_cleanup_(freep) char *buf = NULL;
	const char *s = text_json_safe(v, &buf);

	if (!s)
		return -ENOMEM;
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	return 0;
}

/* A result's labels as written: series are told apart by what Prometheus sees. */
struct series_key {
	const char *check, *object;
	char *check_buf, *object_buf;
	enum verdict verdict;
	size_t i;
};

static int cmp_series(const void *x, const void *y)
{
	const struct series_key *a = x, *b = y;
	int c = strcmp(a->check, b->check);

	if (!c)
		c = strcmp(a->object, b->object);
	if (!c)
		c = (a->verdict > b->verdict) - (a->verdict < b->verdict);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

static bool same_series(const struct series_key *a, const struct series_key *b)
{
	return a->verdict == b->verdict && streq(a->check, b->check) && streq(a->object, b->object);
}

static void series_keys_free(struct series_key *k, size_t n)
{
	for (size_t i = 0; k && i < n; i++) {
		free(k[i].check_buf);
		free(k[i].object_buf);
	}
	free(k);
}

static struct series_key *series_keys(const struct results *rs)
{
	struct series_key *k = calloc(rs->n + 1, sizeof(*k));

	for (size_t i = 0; k && i < rs->n; i++) {
		k[i] = (struct series_key){ .verdict = rs->items[i].verdict, .i = i };
		k[i].check = text_json_safe(rs->items[i].check, &k[i].check_buf);
		k[i].object = text_json_safe(rs->items[i].object, &k[i].object_buf);
		if (!k[i].check || !k[i].object) {
			series_keys_free(k, i + 1);
			return NULL;
		}
	}
	return k;
}

/*
 * counts[i]: how many results share result i's labels when i is the first of them,
 * else 0. Sorted, not compared pairwise: thousands of ports made this quadratic.
 */
static int series_counts(const struct results *rs, size_t **ret)
{
	struct series_key *k = series_keys(rs);
	size_t *counts = calloc(rs->n + 1, sizeof(*counts));

	if (!k || !counts) {
		series_keys_free(k, rs->n);
		free(counts);
		return -ENOMEM;
	}
	qsort(k, rs->n, sizeof(*k), cmp_series);
	for (size_t j = 0, first = 0; j < rs->n; j++) {
		if (j > first && !same_series(&k[first], &k[j]))
			first = j;
		counts[k[first].i]++; /* k[first]: the group's first result */
	}
	series_keys_free(k, rs->n);
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
		if (put_label_value(f, rs->items[i].check) < 0)
			return -ENOMEM;
		fputs("\",object=\"", f);
		if (put_label_value(f, rs->items[i].object) < 0)
			return -ENOMEM;
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
		if (put_label_value(f, name) < 0)
			return -ENOMEM;
		fprintf(f, "\",state=\"%s\"} 1\n", verdict_to_string(a[i].worst));
	}
	return 0;
}

static int put_fact(FILE *f, const struct fact_kind_info *k, const struct fact *x)
{
	const char *sep = "{";

	fprintf(f, "hostprep_%s_info", k->name);
	if (k->object) {
		fprintf(f, "{%s=\"", k->object);
		if (put_label_value(f, x->object) < 0)
			return -ENOMEM;
		fputc('"', f);
		sep = ",";
	}
	for (size_t i = 0; i < FACT_KEYS_MAX && k->keys[i]; i++, sep = ",") {
		fprintf(f, "%s%s=\"", sep, k->keys[i]);
		if (put_label_value(f, x->values[i] ? x->values[i] : FACT_UNKNOWN) < 0)
			return -ENOMEM;
		fputc('"', f);
	}
	fputs("} 1\n", f);
	return 0;
}

/*
 * What the host is (core/fact.h): one info metric per kind of fact, one series per object,
 * in the order the modules set them; a kind nobody read has no metric at all.
 */
static int put_facts(FILE *f, const struct facts *fs)
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
			if (put_fact(f, k, &fs->items[i]) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int prom_render(const struct report *r, uint64_t duration_usec, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	struct summary s;
	size_t size;
	int err;
	FILE *f;

	results_summarize(&r->results, &s);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	put_header(f, "hostprep_info",
		   "Always 1: the hostprep version and the configuration digest of the last run.");
	fputs("hostprep_info{version=\"", f);
	err = put_label_value(f, strempty(r->version));
	fputs("\",config_digest=\"", f);
	if (err >= 0) /* "": no configuration was loaded */
		err = put_label_value(f, strempty(r->config_digest));
	fputs("\"} 1\n", f);
	if (err >= 0)
		err = put_facts(f, &r->facts);
	put_header(f, "hostprep_ready",
		   "1 when the last hostprep run found the host ready (no fail, no unknown).");
	fprintf(f, "hostprep_ready %d\n", s.ready);
	put_header(f, "hostprep_check",
		   "Results of the last hostprep run with these check, object and verdict.");
	if (err < 0 || put_checks(f, &r->results) < 0 || put_areas(f, &r->results) < 0) {
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
