// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA link health over time ([Port:*] rules): the error counters of every port a rule
 * selects, judged by their rise since the previous run of this boot (rdma.counters), and
 * a link that went down in between (link_downed: rdma.flap). The ports are the run's RDMA
 * view (rdma_run_view(): no scan of its own). The previous reading is the file the last
 * publishing run left (/run/hostprep/rdma-counters, with the boot id it was read in);
 * this run's reading replaces it through the one publish step, so only a run that
 * publishes its verdict moves the baseline (a trial `check --config`, an unprivileged or
 * a dry run reads it and leaves it). A port without a counters directory (soft devices:
 * rxe, siw) is not judged; a counter that cannot be read is unknown.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "rdma/rdma-run.h"
#include "report/gate.h"
#include "report/report-header.h"

#define STATE_SIZE_MAX	(1024 * 1024)
#define HW_COUNTERS_MAX 256

/* One port's counters as this run read them. */
struct port_reading {
	char *dev;
	unsigned port;
	bool absent; /* no counters directory: nothing to judge */
	int err[_RDMA_CTR_MAX];
	uint64_t v[_RDMA_CTR_MAX];
	char *hw; /* the driver's hw_counters/ that are not 0, "name=value ...", or NULL */
};

struct counters_mod {
	bool loaded;
	char boot_id[RDMA_BOOT_ID_MAX + 1]; /* "" when unreadable */
	struct rdma_counter_state prev;	    /* the previous run's, parsed */
	bool same_boot;			    /* ... read in this boot */
	const char *prev_note;		    /* why there is none to compare with, static */
	struct port_reading *ports;
	size_t n;
};

const struct run_module run_module_rdma_counters;

static void load_previous(struct run *run, struct counters_mod *m)
{
	_cleanup_(freep) char *text = NULL;
	int r;

	if (gate_boot_id(run->root, m->boot_id) < 0)
		m->boot_id[0] = '\0';
	r = sysroot_read_file(run->root, SYSROOT_RUN, STATE_SIZE_MAX, &text, NULL,
			      RDMA_COUNTERS_STATE);
	if (r < 0 || rdma_counter_state_parse(text, &m->prev) < 0) {
		m->prev_note = r == -ENOENT ? "no earlier run in this boot"
			       : r < 0	    ? "the previous run's state cannot be read"
					    : "the previous run's state is not one hostprep wrote";
		return;
	}
	m->same_boot = m->boot_id[0] && streq(m->prev.boot_id, m->boot_id);
	if (!m->boot_id[0])
		m->prev_note = "the boot id cannot be read: no reading is known to be of this boot";
	else if (!m->same_boot)
		m->prev_note = "the previous run was in another boot";
}

static int read_counter(const struct sysroot *root, int dfd, enum rdma_counter c,
			struct port_reading *pr)
{
	char buf[32], *end;
	int r = read_one_line_buf_at(root, dfd, rdma_counter_name(c), buf, sizeof(buf));

	if (r == -ENOMEM)
		return r;
	pr->err[c] = r < 0 ? r : 0;
	if (r < 0)
		return 0;
	errno = 0;
	pr->v[c] = strtoull(buf, &end, 10);
	if (!isdigit((unsigned char)buf[0]) || *end || errno)
		pr->err[c] = -EBADMSG;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory (no dot files), sorted; at most HW_COUNTERS_MAX. d is closed. */
static int list_names(DIR *d, char ***ret, size_t *ret_n)
{
	_cleanup_(closedirp) DIR *dir = d;
	char **v = NULL;
	size_t n = 0;
	struct dirent *de;

	while ((de = readdir(dir)) && n < HW_COUNTERS_MAX) {
		char **grown = de->d_name[0] == '.' ? v : reallocarray(v, n + 2, sizeof(*v));

		if (de->d_name[0] == '.')
			continue;
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			strv_free(grown ? grown : v);
			return -ENOMEM;
		}
		v = grown;
		v[++n] = NULL;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*ret = v;
	*ret_n = n;
	return 0;
}

/*
 * hw_counters/: driver-specific (mlx5: out_of_buffer, local_ack_timeout_err, ...), with no
 * width or meaning common to all drivers: reported since boot when not 0, never judged.
 */
static int read_hw(const struct sysroot *root, struct port_reading *pr)
{
	_cleanup_(strbuf_done) struct strbuf b = {};
	_cleanup_(closep) int fd =
		sysroot_openat(root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY,
			       "class/infiniband/%s/ports/%u/hw_counters", pr->dev, pr->port);
	int lfd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	char **names = NULL;
	size_t n = 0;

	if (lfd >= 0 && !d)
		close(lfd);
	if (!d)
		return fd == -ENOMEM ? fd : 0; /* none: most devices but mlx5 */
	if (list_names(d, &names, &n) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char buf[32];

		if (read_one_line_buf_at(root, fd, names[i], buf, sizeof(buf)) >= 0 &&
		    !streq(buf, "0"))
			strbuf_printf(&b, "%s%s=%s", b.s ? " " : "", names[i], buf);
	}
	strv_free(names);
	if (b.oom)
		return -ENOMEM;
	pr->hw = TAKE_PTR(b.s);
	return 0;
}

static int read_port(const struct sysroot *root, struct port_reading *pr)
{
	_cleanup_(closep) int dfd =
		sysroot_openat(root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY,
			       "class/infiniband/%s/ports/%u/counters", pr->dev, pr->port);
	int r = 0;

	if (dfd == -ENOENT)
		pr->absent = true;
	if (dfd == -ENOMEM || dfd == -ENOENT)
		return dfd == -ENOMEM ? dfd : 0;
	for (int c = 0; r >= 0 && c < _RDMA_CTR_MAX; c++)
		if (dfd < 0)
			pr->err[c] = dfd;
		else
			r = read_counter(root, dfd, c, pr);
	return r < 0 ? r : read_hw(root, pr);
}

/* The port's reading, read on its first rule. */
static int port_reading(struct run *run, struct counters_mod *m, const struct rdma_device *d,
			const struct rdma_port *p, struct port_reading **ret)
{
	struct port_reading *grown;

	for (size_t i = 0; i < m->n; i++)
		if (m->ports[i].port == p->num && streq(m->ports[i].dev, d->name))
			return *ret = &m->ports[i], 0;
	grown = reallocarray(m->ports, m->n + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->ports = grown;
	grown[m->n] = (struct port_reading){ .dev = strdup(d->name), .port = p->num };
	if (!grown[m->n].dev)
		return -ENOMEM;
	*ret = &grown[m->n++];
	return read_port(run->root, *ret);
}

/* ---- judgement and its words ---- */

struct port_judgement {
	struct rdma_counter_judgement j[_RDMA_CTR_MAX];
	struct rdma_counter_reading r[_RDMA_CTR_MAX];
};

/* One port for rdma.flap: its counters' judgement (NULL: none) and what the wait saw. */
struct flap_port {
	const struct rdma_run *rr;
	const char *dev;
	const struct rdma_port *p;
	const struct port_judgement *pj;
};

static void judge_port(const struct counters_mod *m, const struct port_rule *rule,
		       const struct port_reading *pr, struct port_judgement *pj)
{
	const struct rdma_counter_port_state *prev =
		m->same_boot ? rdma_counter_state_find(&m->prev, pr->dev, pr->port) : NULL;

	for (int c = 0; c < _RDMA_CTR_MAX; c++) {
		pj->r[c] = (struct rdma_counter_reading){
			.err = pr->err[c],
			.value = pr->v[c],
			.have_prev = prev && prev->have[c],
			.prev = prev ? prev->v[c] : 0,
		};
		rdma_counter_judge(c, &rule->limits[c], &pj->r[c], &pj->j[c]);
	}
}

static void when_text(uint64_t sec, char *buf, size_t size)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, size, "@%llu", (unsigned long long)sec);
}

/* "since the previous run (2026-11-28 00:10:00 UTC)", or since boot and why. */
static void since_text(const struct counters_mod *m, bool have_prev, struct strbuf *b)
{
	char when[64];

	when_text(m->prev.time_sec, when, sizeof(when));
	if (have_prev)
		strbuf_printf(b, "since the previous run (%s)", when);
	else if (m->prev_note && m->prev.n && !m->same_boot)
		strbuf_printf(b, "since boot (%s, %s)", m->prev_note, when);
	else
		strbuf_printf(b, "since boot (%s)",
			      m->prev_note ? m->prev_note
					   : "no earlier "
					     "reading of this port");
}

/* One counter's problem or change, "" when it has nothing to say. */
static void counter_text(enum rdma_counter c, const struct rdma_counter_limit *l,
			 const struct port_judgement *pj, struct strbuf *b)
{
	const struct rdma_counter_judgement *j = &pj->j[c];
	const struct rdma_counter_reading *r = &pj->r[c];
	const char *sep = b->s ? "; " : "";
	const char *name = rdma_counter_name(c);

	if (r->err < 0)
		strbuf_printf(b, "%s%s unreadable: %s", sep, name, strerror(-r->err));
	else if (j->saturated && l->cls != RDMA_CTR_REPORT)
		strbuf_printf(b,
			      "%s%s saturated at %llu (it stopped counting: a rise cannot be seen)",
			      sep, name, (unsigned long long)r->value);
	else if (j->base == RDMA_BASE_RESET)
		strbuf_printf(b,
			      "%s%s reset since the previous run (%llu, now %llu: +%llu since the "
			      "reset%s)",
			      sep, name, (unsigned long long)r->prev, (unsigned long long)r->value,
			      (unsigned long long)j->rise,
			      j->v > VERDICT_PASS ? ", over its limit" : "");
	else if (j->rise && l->cls == RDMA_CTR_REPORT)
		strbuf_printf(b, "%s%s +%llu (reported)", sep, name, (unsigned long long)j->rise);
	else if (j->rise)
		strbuf_printf(b, "%s%s +%llu (limit %u)", sep, name, (unsigned long long)j->rise,
			      l->max_rise);
}

static void counts_text(const struct port_judgement *pj, bool flap, struct strbuf *b)
{
	bool first = true;

	for (int c = 0; c < _RDMA_CTR_MAX; c++) {
		if ((c == RDMA_CTR_LINK_DOWNED) != flap || pj->r[c].err < 0)
			continue;
		strbuf_printf(b, "%s%s=%llu", first ? "" : " ", rdma_counter_name(c),
			      (unsigned long long)pj->r[c].value);
		first = false;
	}
}

static bool same_limit(const struct rdma_counter_limit *a, const struct rdma_counter_limit *b)
{
	return a->max_rise == b->max_rise && a->cls == b->cls;
}

/* The counters with the limit of c, once: "at most 0 (else a warning): symbol_error, ...". */
static void limit_group(const struct port_rule *rule, int c, struct strbuf *b)
{
	const struct rdma_counter_limit *l = &rule->limits[c];
	bool first = true;

	for (int k = 0; k < c; k++)
		if (k != RDMA_CTR_LINK_DOWNED && same_limit(&rule->limits[k], l))
			return; /* printed with k */
	if (l->cls == RDMA_CTR_REPORT)
		strbuf_printf(b, "%sreported only: ", b->s ? "; " : "");
	else
		strbuf_printf(b, "%sat most %u%s: ", b->s ? "; " : "", l->max_rise,
			      l->cls == RDMA_CTR_FAIL ? "" : " (else a warning)");
	for (int k = c; k < _RDMA_CTR_MAX; k++)
		if (k != RDMA_CTR_LINK_DOWNED && same_limit(&rule->limits[k], l)) {
			strbuf_printf(b, "%s%s", first ? "" : ", ", rdma_counter_name(k));
			first = false;
		}
}

static void expected_text(const struct port_rule *rule, struct strbuf *b)
{
	_cleanup_(strbuf_done) struct strbuf g = {};

	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		if (c != RDMA_CTR_LINK_DOWNED)
			limit_group(rule, c, &g);
	strbuf_printf(b, "a rise since the previous run of %s", strempty(g.s));
	b->oom |= g.oom;
}

static void port_tools(const char *dev, unsigned port, char *buf, size_t size)
{
	snprintf(buf, size,
		 "check the cable, the transceiver and the switch port (perfquery -x -C %s -P %u; "
		 "mlxlink -d %s -p %u -c on NVIDIA NICs); after the repair clear the counters "
		 "(perfquery -R -C %s -P %u)",
		 dev, port, dev, port, dev, port);
}

/* ---- results ---- */

static const char *remedy_for(enum verdict v, const char *over)
{
	if (v == VERDICT_UNKNOWN)
		return "read the port's counters (perfquery -x) and see the kernel log for the "
		       "RDMA driver";
	return v == VERDICT_WARN || v == VERDICT_FAIL ? over : NULL;
}

static enum verdict counters_verdict(const struct port_judgement *pj, bool *any_prev)
{
	enum verdict v = VERDICT_PASS;

	*any_prev = false;
	for (int c = 0; c < _RDMA_CTR_MAX; c++) {
		if (c == RDMA_CTR_LINK_DOWNED)
			continue;
		if (pj->j[c].v > v)
			v = pj->j[c].v;
		*any_prev |= pj->r[c].have_prev;
	}
	return v;
}

static int add_counters(struct run *run, const struct counters_mod *m, const struct port_rule *rule,
			const struct port_reading *pr, const struct port_judgement *pj)
{
	_cleanup_(strbuf_done) struct strbuf act = {}, exp = {}, prob = {};
	char object[96], remedy[512];
	bool any_prev;
	enum verdict v = counters_verdict(pj, &any_prev);

	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		if (c != RDMA_CTR_LINK_DOWNED)
			counter_text(c, &rule->limits[c], pj, &prob);
	strbuf_printf(&act, "%s port %u, ", pr->dev, pr->port);
	since_text(m, any_prev, &act);
	strbuf_printf(&act, ": %s; counts: ", prob.s ? prob.s : "no rise");
	counts_text(pj, false, &act);
	if (pr->hw)
		strbuf_printf(&act, "; hw_counters (reported only): %s", pr->hw);
	expected_text(rule, &exp);
	if (act.oom || exp.oom || prob.oom)
		return -ENOMEM;
	snprintf(object, sizeof(object), "%s/%u", pr->dev, pr->port);
	port_tools(pr->dev, pr->port, remedy, sizeof(remedy));
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = v,
				   .check = "rdma.counters",
				   .object = object,
				   .expected = exp.s,
				   .actual = act.s,
				   .remedy = remedy_for(v, remedy),
				   .action = v == VERDICT_UNKNOWN ? ACTION_INSPECT : ACTION_CABLE,
				   .cause = v == VERDICT_UNKNOWN ? "unreadable" : "errors",
			   });
}

static void flap_text(const struct counters_mod *m, const struct port_judgement *pj,
		      struct strbuf *b)
{
	const struct rdma_counter_judgement *j = &pj->j[RDMA_CTR_LINK_DOWNED];
	const struct rdma_counter_reading *r = &pj->r[RDMA_CTR_LINK_DOWNED];
	char when[64];

	when_text(m->prev.time_sec, when, sizeof(when));
	if (r->err < 0)
		strbuf_printf(b, "link_downed unreadable: %s", strerror(-r->err));
	else if (j->saturated)
		strbuf_printf(b,
			      "link_downed saturated at %llu: the link went down that often "
			      "since the counters were cleared; new flaps cannot be seen",
			      (unsigned long long)r->value);
	else if (j->base == RDMA_BASE_RESET)
		strbuf_printf(b,
			      "link_downed reset since the previous run (%s: %llu, now %llu): "
			      "went down %llu time(s) since the reset",
			      when, (unsigned long long)r->prev, (unsigned long long)r->value,
			      (unsigned long long)j->rise);
	else {
		if (j->rise)
			strbuf_printf(b, "went down %llu time(s) ", (unsigned long long)j->rise);
		else
			strbuf_printf(b, "no link-down ");
		if (j->base == RDMA_BASE_PREVIOUS)
			strbuf_printf(b, "between the previous run (%s) and now", when);
		else
			since_text(m, false, b);
		strbuf_printf(b, " (link_downed %llu", (unsigned long long)r->value);
		if (j->base == RDMA_BASE_PREVIOUS && j->rise)
			strbuf_printf(b, ", was %llu", (unsigned long long)r->prev);
		strbuf_printf(b, ")");
	}
}

/* "12:03:41 UTC" of a CLOCK_REALTIME µs reading */
static void clock_text(uint64_t real_usec, char *buf, size_t size)
{
	time_t t = (time_t)(real_usec / 1000000);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%H:%M:%S UTC", &tm))
		snprintf(buf, size, "@%llu", (unsigned long long)(real_usec / 1000000));
}

static void seconds_text(struct strbuf *b, uint64_t from, uint64_t to)
{
	uint64_t d = to > from ? to - from : 0;

	strbuf_printf(b, "%llu.%llu s", (unsigned long long)(d / 1000000),
		      (unsigned long long)(d % 1000000 / 100000));
}

/*
 * "went down during the boot wait at 12:03:41 UTC (2.3 s after the wait began), up again
 * at 12:03:42 UTC (0.4 s later)": what the wait saw (rdma_wait_observe()). A link-down
 * seen only as link_downed rising happened between two checks: the time is the later one.
 */
static void wait_flap_text(const struct rdma_run *rr, const struct rdma_wait_flap *f,
			   struct strbuf *b)
{
	char when[32];

	if (f->downs > 1)
		strbuf_printf(b, "went down %u time(s) during the boot wait, first", f->downs);
	else
		strbuf_printf(b, "went down during the boot wait");
	clock_text(f->down_real, when, sizeof(when));
	strbuf_printf(b, " %s %s (", f->by_counter ? "by" : "at", when);
	seconds_text(b, rr->wait_began_mono, f->down_mono);
	strbuf_printf(b, " after the wait began%s)",
		      f->by_counter ? ", seen as link_downed rising between two checks" : "");
	if (!f->up_mono) {
		strbuf_printf(b, ", not up again by the end of the wait");
		return;
	}
	if (f->up_mono == f->down_mono) {
		strbuf_printf(b, ", up again by then");
		return;
	}
	clock_text(f->up_real, when, sizeof(when));
	strbuf_printf(b, ", up again at %s (", when);
	seconds_text(b, f->down_mono, f->up_mono);
	strbuf_printf(b, " later)");
}

static void flap_expected(const struct rdma_counter_limit *l, bool wait, char *buf, size_t size)
{
	const char *since =
		wait ? "during the boot wait or since the previous run" : "since the previous run";
	const char *warn = l->cls == RDMA_CTR_FAIL ? "" : " (else a warning)";

	if (l->cls == RDMA_CTR_REPORT)
		snprintf(buf, size, "link_downed reported only (CounterLimit=)");
	else if (!l->max_rise)
		snprintf(buf, size, "no link-down %s%s", since, warn);
	else
		snprintf(buf, size, "at most %u link-down(s) %s%s", l->max_rise, since, warn);
}

/*
 * rdma.flap: link_downed since the previous run (or boot), and what the boot wait saw
 * (pr NULL: the port has no counters, only the wait's view): the worse verdict of both.
 */
static int add_flap(struct run *run, const struct counters_mod *m, const struct port_rule *rule,
		    const struct flap_port *fp)
{
	const struct rdma_counter_limit *l = &rule->limits[RDMA_CTR_LINK_DOWNED];
	const struct rdma_wait_flap *f = &fp->p->wait_flap;
	enum verdict v = fp->pj ? fp->pj->j[RDMA_CTR_LINK_DOWNED].v : VERDICT_PASS;
	enum verdict wv = rdma_wait_flap_verdict(l, f);
	_cleanup_(strbuf_done) struct strbuf act = {};
	char object[96], expected[128], remedy[512];

	strbuf_printf(&act, "%s port %u: ", fp->dev, fp->p->num);
	if (fp->pj)
		flap_text(m, fp->pj, &act);
	if (f->downs) {
		strbuf_printf(&act, "%s", fp->pj ? "; " : "");
		wait_flap_text(fp->rr, f, &act);
	}
	if (act.oom)
		return -ENOMEM;
	v = wv > v ? wv : v;
	flap_expected(l, fp->rr->wait_began_mono, expected, sizeof(expected));
	snprintf(object, sizeof(object), "%s/%u", fp->dev, fp->p->num);
	port_tools(fp->dev, fp->p->num, remedy, sizeof(remedy));
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = v,
				   .check = "rdma.flap",
				   .object = object,
				   .expected = expected,
				   .actual = act.s,
				   .remedy = remedy_for(v, remedy),
				   .action = v == VERDICT_UNKNOWN ? ACTION_INSPECT : ACTION_CABLE,
				   .cause = v == VERDICT_UNKNOWN ? "unreadable" : "flap",
			   });
}

static int rule_port(struct run *run, struct counters_mod *m, const struct port_rule *rule,
		     const struct rdma_run *rr, const struct rdma_device *d,
		     const struct rdma_port *p)
{
	struct flap_port fp = { .rr = rr, .dev = d->name, .p = p };
	struct port_reading *pr;
	struct port_judgement pj;
	int r;

	if (d->err || p->err)
		return 0; /* rdma.port says it is unreadable */
	r = port_reading(run, m, d, p, &pr);
	if (r < 0)
		return r;
	if (pr->absent) /* soft devices: no counters, but the wait may have seen a flap */
		return p->wait_flap.downs ? add_flap(run, m, rule, &fp) : 0;
	judge_port(m, rule, pr, &pj);
	fp.pj = &pj;
	r = add_flap(run, m, rule, &fp);
	return r < 0 ? r : add_counters(run, m, rule, pr, &pj);
}

static int rule_ports(struct run *run, struct counters_mod *m, const struct rdma_run *rr,
		      const struct port_rule *rule)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < rr->inv.n_devs; i++) {
		const struct rdma_device *d = &rr->inv.devs[i];

		if (!port_rule_selects_device(rule, d))
			continue;
		for (size_t k = 0; r >= 0 && k < d->n_ports; k++)
			if (port_rule_selects_port(rule, &d->ports[k]))
				r = rule_port(run, m, rule, rr, d, &d->ports[k]);
	}
	return r;
}

static int counters_verify(struct run *run)
{
	struct counters_mod *m = run_state(run, &run_module_rdma_counters);
	const struct port_config *pc = port_config_get(run->cfg);
	struct rdma_run *rr;
	int r;

	if (!pc || !pc->n_rules)
		return 0;
	r = rdma_run_view(run, false, &rr);
	if (r < 0)
		return r;
	load_previous(run, m);
	m->loaded = true;
	for (size_t i = 0; r >= 0 && i < pc->n_rules; i++)
		r = rule_ports(run, m, rr, &pc->rules[i]);
	return r;
}

static bool read_any(const struct counters_mod *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (!m->ports[i].absent)
			return true;
	return false;
}

/* This run's reading, for the next run; the last one stays when this run read none. */
static int counters_publish(struct run *run, char **ret)
{
	struct counters_mod *m = run_state(run, &run_module_rdma_counters);
	_cleanup_(rdma_counter_state_done) struct rdma_counter_state s = {};
	int r = 0;

	*ret = NULL;
	if (!m->loaded || !read_any(m))
		return RUN_PUBLISH_KEEP;
	strcpy(s.boot_id, m->boot_id);
	s.time_sec = report_time();
	for (size_t i = 0; r >= 0 && i < m->n; i++) {
		struct rdma_counter_port_state *p;

		if (m->ports[i].absent)
			continue;
		r = rdma_counter_state_add(&s, m->ports[i].dev, m->ports[i].port, &p);
		for (int c = 0; r >= 0 && c < _RDMA_CTR_MAX; c++) {
			p->have[c] = m->ports[i].err[c] == 0;
			p->v[c] = m->ports[i].v[c];
		}
	}
	return r < 0 ? r : rdma_counter_state_format(&s, ret);
}

/* While no verdict stands the last reading stays: it is the baseline of the next run. */
static int counters_publish_pending(const struct run *run, char **ret)
{
	*ret = NULL;
	return RUN_PUBLISH_KEEP;
}

static void counters_done(struct run *run)
{
	struct counters_mod *m = run_state(run, &run_module_rdma_counters);

	for (size_t i = 0; i < m->n; i++) {
		free(m->ports[i].dev);
		free(m->ports[i].hw);
	}
	free(m->ports);
	rdma_counter_state_done(&m->prev);
	*m = (struct counters_mod){};
}

const struct run_module run_module_rdma_counters = {
	.name = "rdma.counters",
	.state_size = sizeof(struct counters_mod),
	.verify = counters_verify,
	.publish_file = RDMA_COUNTERS_STATE,
	.publish = counters_publish,
	.publish_pending = counters_publish_pending,
	.done = counters_done,
};
