// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port error counters' judgement (rdma.counters, rdma.flap): every limit's edges
 * (limit - 1, limit, limit + 1), a reset, no previous reading (reboot), an unreadable
 * counter, saturation at each width; CounterLimit= words, good and bad; the state file
 * round trip and what it refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rdma/rdma-config.h"
#include "rdma/rdma-counters.h"

static enum verdict judge(enum rdma_counter c, struct rdma_counter_limit l, bool have_prev,
			  uint64_t prev, uint64_t now, struct rdma_counter_judgement *j)
{
	struct rdma_counter_reading r = { .value = now, .have_prev = have_prev, .prev = prev };

	rdma_counter_judge(c, &l, &r, j);
	return j->v;
}

static void test_defaults(void **state)
{
	struct rdma_counter_limit lim[_RDMA_CTR_MAX];
	struct rdma_counter_judgement j;

	rdma_counter_defaults(lim);
	/* any link-down between runs fails: a flap */
	assert_int_equal(judge(RDMA_CTR_LINK_DOWNED, lim[RDMA_CTR_LINK_DOWNED], true, 3, 3, &j),
			 VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_LINK_DOWNED, lim[RDMA_CTR_LINK_DOWNED], true, 3, 4, &j),
			 VERDICT_FAIL);
	assert_int_equal(j.rise, 1);
	assert_int_equal(j.base, RDMA_BASE_PREVIOUS);
	/* rising symbol errors and link error recoveries warn */
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, lim[RDMA_CTR_SYMBOL_ERROR], true, 7, 7, &j),
			 VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, lim[RDMA_CTR_SYMBOL_ERROR], true, 7, 8, &j),
			 VERDICT_WARN);
	assert_int_equal(judge(RDMA_CTR_LINK_ERROR_RECOVERY, lim[RDMA_CTR_LINK_ERROR_RECOVERY],
			       true, 0, 1, &j),
			 VERDICT_WARN);
	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		if (c != RDMA_CTR_XMIT_DISCARDS && c != RDMA_CTR_LINK_DOWNED)
			assert_int_equal(lim[c].cls, RDMA_CTR_WARN);
	/* discards follow congestion: reported, never judged */
	assert_int_equal(
		judge(RDMA_CTR_XMIT_DISCARDS, lim[RDMA_CTR_XMIT_DISCARDS], true, 0, 900, &j),
		VERDICT_PASS);
	assert_int_equal(j.rise, 900);
}

/* limit - 1, limit, limit + 1 for a limit of 10, each class */
static void test_limit_edges(void **state)
{
	struct rdma_counter_limit warn = { 10, RDMA_CTR_WARN }, fail = { 10, RDMA_CTR_FAIL };
	struct rdma_counter_judgement j;

	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, warn, true, 100, 109, &j), VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, warn, true, 100, 110, &j), VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, warn, true, 100, 111, &j), VERDICT_WARN);
	assert_int_equal(j.rise, 11);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, fail, true, 100, 109, &j), VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, fail, true, 100, 110, &j), VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, fail, true, 100, 111, &j), VERDICT_FAIL);
	/* a limit of 0: 0 passes, 1 does not */
	warn.max_rise = 0;
	assert_int_equal(judge(RDMA_CTR_RCV_ERRORS, warn, true, 5, 5, &j), VERDICT_PASS);
	assert_int_equal(judge(RDMA_CTR_RCV_ERRORS, warn, true, 5, 6, &j), VERDICT_WARN);
}

/* lower than last time: cleared (perfquery -R, driver reload), counted from 0 */
static void test_reset(void **state)
{
	struct rdma_counter_limit l = { 10, RDMA_CTR_WARN };
	struct rdma_counter_judgement j;

	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 500, 10, &j), VERDICT_PASS);
	assert_int_equal(j.base, RDMA_BASE_RESET);
	assert_int_equal(j.rise, 10);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 500, 11, &j), VERDICT_WARN);
	assert_int_equal(j.rise, 11);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 500, 0, &j), VERDICT_PASS);
	assert_int_equal(j.base, RDMA_BASE_RESET);
	/* equal is no reset */
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 500, 500, &j), VERDICT_PASS);
	assert_int_equal(j.base, RDMA_BASE_PREVIOUS);
}

/* no reading of this boot (first run, reboot): the count since the driver loaded */
static void test_reboot(void **state)
{
	struct rdma_counter_limit l = { 0, RDMA_CTR_FAIL };
	struct rdma_counter_judgement j;

	assert_int_equal(judge(RDMA_CTR_LINK_DOWNED, l, false, 0, 0, &j), VERDICT_PASS);
	assert_int_equal(j.base, RDMA_BASE_BOOT);
	assert_int_equal(judge(RDMA_CTR_LINK_DOWNED, l, false, 99, 1, &j), VERDICT_FAIL);
	assert_int_equal(j.base, RDMA_BASE_BOOT);
	assert_int_equal(j.rise, 1);
}

static void test_unreadable(void **state)
{
	struct rdma_counter_reading r = { .err = -EINVAL, .value = 0, .have_prev = true };
	struct rdma_counter_limit l = { 5, RDMA_CTR_WARN };
	struct rdma_counter_judgement j;

	rdma_counter_judge(RDMA_CTR_SYMBOL_ERROR, &l, &r, &j);
	assert_int_equal(j.v, VERDICT_UNKNOWN);
	l.cls = RDMA_CTR_FAIL;
	rdma_counter_judge(RDMA_CTR_LINK_DOWNED, &l, &r, &j);
	assert_int_equal(j.v, VERDICT_UNKNOWN);
	/* reported only: never unknown, never a pass */
	l.cls = RDMA_CTR_REPORT;
	rdma_counter_judge(RDMA_CTR_XMIT_DISCARDS, &l, &r, &j);
	assert_int_equal(j.v, VERDICT_SKIP);
}

/* at its maximum a counter stopped: no rise can be seen, it is over its limit */
static void test_saturated(void **state)
{
	struct rdma_counter_limit l = { 14, RDMA_CTR_WARN };
	struct rdma_counter_judgement j;

	assert_int_equal(rdma_counter_max(RDMA_CTR_SYMBOL_ERROR), 65535);
	assert_int_equal(rdma_counter_max(RDMA_CTR_LINK_DOWNED), 255);
	assert_int_equal(rdma_counter_max(RDMA_CTR_LINK_ERROR_RECOVERY), 255);
	assert_int_equal(rdma_counter_max(RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS), 15);
	assert_int_equal(rdma_counter_max(RDMA_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS), 15);
	assert_int_equal(judge(RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS, l, true, 15, 15, &j),
			 VERDICT_WARN);
	assert_true(j.saturated);
	assert_int_equal(judge(RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS, l, true, 14, 14, &j),
			 VERDICT_PASS);
	assert_false(j.saturated);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 65535, 65535, &j), VERDICT_WARN);
	assert_int_equal(judge(RDMA_CTR_SYMBOL_ERROR, l, true, 65534, 65534, &j), VERDICT_PASS);
	l.cls = RDMA_CTR_REPORT;
	assert_int_equal(judge(RDMA_CTR_XMIT_DISCARDS, l, true, 65535, 65535, &j), VERDICT_PASS);
}

static void limit_ok(const char *word, enum rdma_counter want_c, uint32_t max,
		     enum rdma_counter_class cls)
{
	struct rdma_counter_limit l;
	enum rdma_counter c;
	const char *why = NULL;
	char back[80];

	assert_int_equal(rdma_counter_limit_parse(word, &c, &l, &why), 0);
	assert_int_equal(c, want_c);
	assert_int_equal(l.max_rise, max);
	assert_int_equal(l.cls, cls);
	rdma_counter_limit_format(c, &l, back, sizeof(back));
	assert_int_equal(rdma_counter_limit_parse(back, &c, &l, &why), 0);
	assert_int_equal(l.max_rise, max);
	assert_int_equal(l.cls, cls);
}

static void limit_bad(const char *word)
{
	struct rdma_counter_limit l;
	enum rdma_counter c;
	const char *why = NULL;

	assert_int_equal(rdma_counter_limit_parse(word, &c, &l, &why), -EINVAL);
	assert_non_null(why);
}

static void test_limit_words(void **state)
{
	limit_ok("symbol_error=10", RDMA_CTR_SYMBOL_ERROR, 10, RDMA_CTR_WARN);
	limit_ok("symbol_error=10:fail", RDMA_CTR_SYMBOL_ERROR, 10, RDMA_CTR_FAIL);
	limit_ok("link_downed=0:warn", RDMA_CTR_LINK_DOWNED, 0, RDMA_CTR_WARN);
	/* without a verdict: the counter's own (a flap fails), a warning for the rest */
	limit_ok("link_downed=2", RDMA_CTR_LINK_DOWNED, 2, RDMA_CTR_FAIL);
	limit_ok("port_xmit_discards=100", RDMA_CTR_XMIT_DISCARDS, 100, RDMA_CTR_WARN);
	limit_ok("port_xmit_discards=off", RDMA_CTR_XMIT_DISCARDS, 0, RDMA_CTR_REPORT);
	limit_ok("symbol_error=65534", RDMA_CTR_SYMBOL_ERROR, 65534, RDMA_CTR_WARN);
	limit_ok("local_link_integrity_errors=14", RDMA_CTR_LOCAL_LINK_INTEGRITY_ERRORS, 14,
		 RDMA_CTR_WARN);
	limit_bad("symbol_error=65535"); /* never exceeded: it stops there */
	limit_bad("local_link_integrity_errors=15");
	limit_bad("link_downed=255");
	limit_bad("symbol_error");
	limit_bad("symbol_error=");
	limit_bad("symbol_error=-1");
	limit_bad("symbol_error=1x");
	limit_bad("symbol_error=1:maybe");
	limit_bad("symbol_error=:fail");
	limit_bad("VL15_dropped=1");
	limit_bad("=1");
}

static void test_config(void **state)
{
	static const struct origin here = { "test.conf", 7 };
	struct port_config *pc = NULL;

	assert_int_equal(port_config_section(&pc, "Port:ib", &here, 0), 0);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_LINK_DOWNED].cls, RDMA_CTR_FAIL);
	assert_int_equal(port_config_assign(pc, "CounterLimit",
					    "symbol_error=50:fail port_xmit_discards=5", &here),
			 0);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_SYMBOL_ERROR].max_rise, 50);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_SYMBOL_ERROR].cls, RDMA_CTR_FAIL);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_XMIT_DISCARDS].cls, RDMA_CTR_WARN);
	assert_int_equal(pc->rules[0].limit_at[RDMA_CTR_SYMBOL_ERROR].line, 7);
	assert_int_equal(port_config_assign(pc, "CounterLimit", "symbol_error=nope", &here),
			 -EINVAL);
	/* empty: the defaults again */
	assert_int_equal(port_config_assign(pc, "CounterLimit", "", &here), 0);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_SYMBOL_ERROR].max_rise, 0);
	assert_int_equal(pc->rules[0].limits[RDMA_CTR_SYMBOL_ERROR].cls, RDMA_CTR_WARN);
	assert_null(pc->rules[0].limit_at[RDMA_CTR_SYMBOL_ERROR].file);
	port_config_free(pc);
}

static void test_state(void **state)
{
	struct rdma_counter_state s = { .boot_id = "0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d",
					.time_sec = 1700000000 };
	struct rdma_counter_state back;
	const struct rdma_counter_port_state *p;
	struct rdma_counter_port_state *w;
	char *text = NULL;

	assert_int_equal(rdma_counter_state_add(&s, "mlx5_0", 1, &w), 0);
	w->have[RDMA_CTR_SYMBOL_ERROR] = true;
	w->v[RDMA_CTR_SYMBOL_ERROR] = 12;
	w->have[RDMA_CTR_LINK_DOWNED] = true;
	w->v[RDMA_CTR_LINK_DOWNED] = 0;
	assert_int_equal(rdma_counter_state_add(&s, "mlx5_1", 2, &w), 0);
	assert_int_equal(rdma_counter_state_format(&s, &text), 0);
	assert_int_equal(rdma_counter_state_parse(text, &back), 0);
	assert_string_equal(back.boot_id, s.boot_id);
	assert_int_equal(back.time_sec, 1700000000);
	assert_int_equal(back.n, 2);
	p = rdma_counter_state_find(&back, "mlx5_0", 1);
	assert_non_null(p);
	assert_true(p->have[RDMA_CTR_SYMBOL_ERROR]);
	assert_int_equal(p->v[RDMA_CTR_SYMBOL_ERROR], 12);
	assert_true(p->have[RDMA_CTR_LINK_DOWNED]);
	assert_false(p->have[RDMA_CTR_RCV_ERRORS]); /* unread: no previous value */
	assert_null(rdma_counter_state_find(&back, "mlx5_0", 2));
	assert_non_null(rdma_counter_state_find(&back, "mlx5_1", 2));
	rdma_counter_state_done(&back);
	rdma_counter_state_done(&s);
	free(text);
}

static void test_state_bad(void **state)
{
	struct rdma_counter_state s;

	assert_int_equal(rdma_counter_state_parse("", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\n", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("time 1\nboot x\n", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\ntime 1y\n", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\ntime 1\nmlx5_0\n", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\ntime 1\nmlx5_0 1 bogus=1\n", &s),
			 -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\ntime 1\nmlx5_0 1 symbol_error=-1\n", &s),
			 -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("boot x\ntime 1\nmlx5_0 256\n", &s), -EBADMSG);
	assert_int_equal(rdma_counter_state_parse("# c\nboot x\ntime 1\nmlx5_0 1\n", &s), 0);
	assert_int_equal(s.n, 1);
	rdma_counter_state_done(&s);
}

/* One check of the wait: ACTIVE or not, link_downed (err <0: unreadable), at t s. */
static void sample(struct rdma_wait_flap *f, bool active, int err, uint64_t downed, uint64_t t)
{
	rdma_wait_observe(f, &(struct rdma_wait_sample){ .active = active,
							 .downed_err = err,
							 .downed = downed,
							 .mono = t * 1000000,
							 .real = t * 1000000 + 7 });
}

/* ACTIVE, then not, then ACTIVE: one link-down, with both times; nothing before it. */
static void test_wait_flap_state(void **state)
{
	struct rdma_wait_flap f = {};

	sample(&f, true, 0, 0, 1);
	sample(&f, true, 0, 0, 2);
	assert_int_equal(f.downs, 0);
	sample(&f, false, 0, 0, 3);
	assert_int_equal(f.downs, 1);
	assert_false(f.by_counter);
	assert_int_equal(f.down_mono, 3000000);
	assert_int_equal(f.down_real, 3000007);
	assert_int_equal(f.up_mono, 0);
	sample(&f, false, 0, 0, 4); /* still down: not a second one */
	assert_int_equal(f.downs, 1);
	assert_int_equal(f.up_mono, 0);
	sample(&f, true, 0, 0, 5);
	assert_int_equal(f.up_mono, 5000000);
	assert_int_equal(f.up_real, 5000007);
	/* the counter catching up with the state seen: max of both, not their sum */
	sample(&f, false, 0, 1, 6);
	assert_int_equal(f.downs, 2);
	assert_int_equal(f.down_mono, 3000000); /* the first one stays */
	assert_int_equal(f.up_mono, 0);		/* the last one is not up again */
}

/* Never ACTIVE at a check: coming up late is not a flap; going down from down is none. */
static void test_wait_flap_never_up(void **state)
{
	struct rdma_wait_flap f = {};

	sample(&f, false, 0, 0, 1);
	sample(&f, false, 0, 0, 2);
	sample(&f, true, 0, 0, 3);
	assert_int_equal(f.downs, 0);
	assert_int_equal(f.up_mono, 0);
	/* down at the first check: a later check is the first that can see it go down */
	f = (struct rdma_wait_flap){};
	sample(&f, false, 0, 0, 1);
	assert_int_equal(f.downs, 0);
}

/* link_downed rising between two checks with the port ACTIVE at both: down and up between. */
static void test_wait_flap_counter(void **state)
{
	struct rdma_wait_flap f = {};

	sample(&f, true, 0, 5, 1); /* the base, not a rise: 5 since driver load */
	assert_int_equal(f.downs, 0);
	sample(&f, true, 0, 7, 2);
	assert_int_equal(f.downs, 2);
	assert_true(f.by_counter);
	assert_int_equal(f.down_mono, 2000000);
	assert_int_equal(f.up_mono, f.down_mono); /* up again by then */
	/* unreadable: no rise, and the base stays */
	sample(&f, true, -EIO, 0, 3);
	assert_int_equal(f.downs, 2);
	sample(&f, true, 0, 7, 4);
	assert_int_equal(f.downs, 2);
	/* cleared (lower): a new base, no rise */
	sample(&f, true, 0, 1, 5);
	assert_int_equal(f.downs, 2);
	sample(&f, true, 0, 2, 6);
	assert_int_equal(f.downs, 3);
	/* the first unreadable: no base yet, the next reading is one */
	f = (struct rdma_wait_flap){};
	sample(&f, true, -EINVAL, 0, 1);
	sample(&f, true, 0, 3, 2);
	assert_int_equal(f.downs, 0);
}

/* Judged with link_downed's limit: more downs than max_rise is the class's verdict. */
static void test_wait_flap_verdict(void **state)
{
	struct rdma_wait_flap f = { .downs = 1 };

	assert_int_equal(rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 0, RDMA_CTR_FAIL }, &f),
			 VERDICT_FAIL);
	assert_int_equal(rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 0, RDMA_CTR_WARN }, &f),
			 VERDICT_WARN);
	assert_int_equal(
		rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 0, RDMA_CTR_REPORT }, &f),
		VERDICT_PASS);
	assert_int_equal(rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 1, RDMA_CTR_FAIL }, &f),
			 VERDICT_PASS);
	f.downs = 2;
	assert_int_equal(rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 1, RDMA_CTR_FAIL }, &f),
			 VERDICT_FAIL);
	f.downs = 0;
	assert_int_equal(rdma_wait_flap_verdict(&(struct rdma_counter_limit){ 0, RDMA_CTR_FAIL }, &f),
			 VERDICT_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),    cmocka_unit_test(test_limit_edges),
		cmocka_unit_test(test_reset),	    cmocka_unit_test(test_reboot),
		cmocka_unit_test(test_unreadable),  cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_limit_words), cmocka_unit_test(test_config),
		cmocka_unit_test(test_state),	    cmocka_unit_test(test_state_bad),
		cmocka_unit_test(test_wait_flap_state), cmocka_unit_test(test_wait_flap_never_up),
		cmocka_unit_test(test_wait_flap_counter), cmocka_unit_test(test_wait_flap_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
