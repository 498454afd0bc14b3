// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The [Port:*] judgement on hand-made inventories: every logical state against every
 * physical state (ready only as ACTIVE + LinkUp), and the rdma.env content (only ports
 * that pass their rule, Env=no, names unsafe for a shell left out).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rdma/rdma-check.h"

static const struct origin here = { "test.conf", 1 };

static struct port_config *rules(const char *const *lines)
{
	struct port_config *pc = NULL;

	for (; *lines; lines++) {
		char key[64];
		const char *eq = strchr(*lines, '=');

		if (!eq) {
			assert_int_equal(port_config_section(&pc, *lines, &here, 0), 0);
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *lines), *lines);
		assert_int_equal(port_config_assign(pc, key, eq + 1, &here), 0);
	}
	assert_int_equal(port_config_finish(pc), 0);
	return pc;
}

static const struct result *find(const struct results *rs, const char *check, const char *obj)
{
	for (size_t i = 0; i < rs->n; i++)
		if (streq(rs->items[i].check, check) && streq(rs->items[i].object, obj))
			return &rs->items[i];
	fail_msg("no %s %s", check, obj);
	return NULL;
}

static struct rdma_port ib_port(enum rdma_port_state st, enum rdma_phys_state ph)
{
	return (struct rdma_port){ .num = 1,
				   .state = st,
				   .phys_state = ph,
				   .link_layer = RDMA_LL_INFINIBAND,
				   .rate = { .mbps = 400000, .width = 4, .speed = "NDR" } };
}

static enum verdict judge_one(struct port_config *pc, struct rdma_port *p)
{
	struct rdma_device d = { .name = (char *)"mlx5_0", .ports = p, .n_ports = 1 };
	struct rdma_run rr = { .pc = pc, .inv = { .devs = &d, .n_devs = 1 } };
	struct results rs = {};
	enum verdict v;

	assert_int_equal(rdma_run_check(&rr, &rs), 0);
	v = find(&rs, "rdma.port", "mlx5_0/1")->verdict;
	results_done(&rs);
	return v;
}

/* state x phys_state: ready only when ACTIVE and LinkUp; ACTIVE over an unread link is unknown. */
static void test_state_table(void **state)
{
	static const char *const strict[] = { "Port:rails", "Select=mlx5_*", NULL };
	static const char *const lenient[] = { "Port:rails", "Select=mlx5_*", "AllowDown=yes",
					       NULL };
	struct port_config *s = rules(strict), *l = rules(lenient);

	for (int st = RDMA_PORT_NOP; st < _RDMA_PORT_STATE_MAX; st++)
		for (int ph = RDMA_PHYS_UNKNOWN; ph < _RDMA_PHYS_MAX; ph++) {
			struct rdma_port p = ib_port(st, ph);
			bool up = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_LINK_UP;
			bool unread = st == RDMA_PORT_ACTIVE && ph == RDMA_PHYS_UNKNOWN;
			enum verdict want = up	     ? VERDICT_PASS
					    : unread ? VERDICT_UNKNOWN
						     : VERDICT_FAIL;

			print_message("state %s phys %s\n", rdma_port_state_to_string(st),
				      rdma_phys_state_to_string(ph));
			assert_int_equal(rdma_port_ready(st, ph), up ? 1 : unread ? -ENODATA : 0);
			assert_int_equal(judge_one(s, &p), want);
			/* AllowDown=yes turns "down" into a warning, never "unknown" into one */
			assert_int_equal(judge_one(l, &p),
					 want == VERDICT_FAIL ? VERDICT_WARN : want);
		}
	port_config_free(s);
	port_config_free(l);
}

/* MinActive counts only ready ports: INIT, ARMED, ACTIVE/Disabled are not active. */
static void test_min_active(void **state)
{
	static const char *const conf[] = { "Port:rails", "Select=mlx5_*", "AllowDown=yes",
					    "MinActive=2", NULL };
	struct port_config *pc = rules(conf);
	struct rdma_port p[] = { ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_INIT, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_ARMED, RDMA_PHYS_LINK_UP),
				 ib_port(RDMA_PORT_ACTIVE, RDMA_PHYS_DISABLED),
				 ib_port(RDMA_PORT_ACTIVE_DEFER, RDMA_PHYS_LINK_UP) };
	struct rdma_device d = { .name = (char *)"mlx5_0", .ports = p, .n_ports = 5 };
	struct rdma_run rr = { .pc = pc, .inv = { .devs = &d, .n_devs = 1 } };
	struct results rs = {};
	const struct result *x;

	for (unsigned i = 0; i < 5; i++)
		p[i].num = i + 1;
	assert_int_equal(rdma_run_check(&rr, &rs), 0);
	x = find(&rs, "rdma.ports", "Port:rails");
	assert_int_equal(x->verdict, VERDICT_FAIL);
	assert_non_null(strstr(x->actual, "1 of 5 selected ports active"));
	x = find(&rs, "rdma.port", "mlx5_0/4");
	assert_non_null(strstr(x->actual, "ACTIVE/Disabled — admin down"));
	results_done(&rs);
	port_config_free(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_table),
		cmocka_unit_test(test_min_active),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
